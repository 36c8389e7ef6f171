#!/usr/bin/env node
// Lists the functions in src/ that run past a number of lines (100 unless given), longest first:
// STYLE.md rule 16 calls a function that does not fit on a screen a sign. Counts the lines from a
// function's first to its last line, both included; a function nested in a long one is listed too.
// Usage: node .ci/long-functions.mjs [maxLines] [folder]
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const maxLines = Number(process.argv[2] ?? 100);
const root = process.argv[3] ?? 'src';

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

function nameOf(node, sourceFile) {
  if (node.name) return node.name.getText(sourceFile);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sourceFile);
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sourceFile).replace(/\s+/g, ' ').slice(0, 40)})`;
  return '(anonymous)';
}

const found = [];
for (const file of sourceFiles(root)) {
  const sourceFile = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const last = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines) found.push({ lines, where: `${file}:${first + 1}`, name: nameOf(node, sourceFile) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}

found.sort((a, b) => b.lines - a.lines);
for (const { lines, where, name } of found) console.log(`${String(lines).padStart(4)}  ${name}  ${where}`);
console.log(`${found.length} function(s) over ${maxLines} lines in ${root}/`);
