/**
 * Where the cursor is in a YAML mapping being typed: writing a key of some mapping, or the value
 * of some key, and at which key path. Completion and hover ask this of text that is, by nature,
 * half written (`  deliv` under `request:`, `{ column: "ИНН", op`), which a YAML parser refuses or
 * reads as something else; so the path is read from the lines above, by indentation, as a person
 * reads it, and the current line is scanned for open flow collections (`{ … }`, `[ … ]`).
 *
 * Covered: block mappings, block sequences (`- `), flow mappings and sequences opened on the
 * cursor's line, quoted keys, comments. Not covered (no context, so no completion there): flow
 * collections spanning lines, block scalars (`|`, `>`), anchors and tags before a nested block.
 */
import type { Segment } from './schema-walk.js';

export interface CursorContext {
  /** Writing a key of a mapping, or a value. */
  slot: 'key' | 'value';
  /** For a key: the path of the mapping it goes into. For a value: the value's own path (its key last). */
  path: Segment[];
  /** What is typed of the key or value so far, and its offset in the text. */
  word: string;
  from: number;
  /** For a key: the keys the mapping already has (the one being typed is not among them). */
  siblings: string[];
}

interface Shape {
  /** Column of the first character that is not a space (a dash or the content). */
  indent: number;
  /** Columns of the `- ` item marks before the content. */
  dashes: number[];
  /** Column where the content after the marks starts. */
  contentCol: number;
  content: string;
  /** Nothing but spaces or a comment. */
  blank: boolean;
}

function shapeOf(text: string): Shape {
  const dashes: number[] = [];
  let col = /^ */.exec(text)![0].length;
  const indent = col;
  while (text[col] === '-' && (col + 1 === text.length || text[col + 1] === ' ')) {
    dashes.push(col);
    col += 1;
    while (text[col] === ' ') col += 1;
  }
  const content = text.slice(col);
  const blank = dashes.length === 0 && (content.trim() === '' || content.startsWith('#'));
  return { indent, dashes, contentCol: col, content, blank };
}

function unquote(key: string): string {
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.length >= 2 && key.startsWith("'") && key.endsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key;
}

/** `key: rest` → the key and what follows its colon; undefined when `content` does not start with a key. */
function splitKey(content: string): { key: string; rest: string } | undefined {
  let quote: string | null = null;
  for (let i = 0; i < content.length; i += 1) {
    const c = content[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    if ((c === '"' || c === "'") && i === 0) quote = c;
    else if (c === '#' && (i === 0 || content[i - 1] === ' ')) return undefined;
    else if (c === '{' || c === '[' || c === ',' || c === '}' || c === ']') return undefined;
    else if (c === ':' && (i + 1 === content.length || content[i + 1] === ' ' || content[i + 1] === '\t')) {
      return { key: unquote(content.slice(0, i).trim()), rest: content.slice(i + 1) };
    }
  }
  return undefined;
}

interface Line {
  start: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const text_ of text.split('\n')) {
    lines.push({ start, text: text_.replace(/\r$/, '') });
    start += text_.length + 1;
  }
  return lines;
}

/**
 * The path of the block mapping whose keys stand at column `col` on line `index`: the keys (and
 * sequence items) of the lines above that open it. Null when a line above makes it something else
 * than a mapping (a multi-line scalar, a block scalar).
 */
function blockParents(lines: readonly Line[], index: number, col: number): Segment[] | null {
  const path: Segment[] = [];
  let limit = col;
  for (let i = index - 1; i >= 0 && limit > 0; i -= 1) {
    const shape = shapeOf(lines[i]!.text);
    if (shape.blank) continue;
    if (shape.dashes.length > 0 && shape.contentCol === limit) {
      // The mapping began on this line, as an item of a sequence.
      path.unshift(...shape.dashes.map(() => 0));
      limit = shape.dashes[0]!;
      continue;
    }
    if (shape.indent >= limit) continue;
    const split = splitKey(shape.content);
    if (split === undefined) return null;
    const rest = split.rest.trim();
    if (rest !== '' && !rest.startsWith('#')) return null;
    path.unshift(...shape.dashes.map(() => 0), split.key);
    limit = shape.dashes[0] ?? shape.contentCol;
  }
  return path;
}

/** The keys already written in the block mapping at column `col` around line `index` (not on it). */
function blockSiblings(lines: readonly Line[], index: number, col: number, startsItem: boolean): string[] {
  const keys: string[] = [];
  const add = (shape: Shape) => {
    const split = splitKey(shape.content);
    if (split) keys.push(split.key);
  };
  for (let i = index - 1; i >= 0 && !startsItem; i -= 1) {
    const shape = shapeOf(lines[i]!.text);
    if (shape.blank) continue;
    if (shape.contentCol === col) {
      add(shape);
      if (shape.dashes.length > 0) break;
    } else if (shape.indent < col) break;
  }
  for (let i = index + 1; i < lines.length; i += 1) {
    const shape = shapeOf(lines[i]!.text);
    if (shape.blank) continue;
    if (shape.indent < col) break;
    if (shape.indent === col && shape.dashes.length === 0) add(shape);
  }
  return keys;
}

interface FlowLevel {
  kind: '{' | '[';
  /** Offset of the bracket in the line. */
  at: number;
  /** The key the collection is the value of, if any. */
  key: string | undefined;
  /** Where the enclosing level's current entry began. */
  outer: number;
}

/** The flow collections still open at the end of `before`, and where the current entry begins; `comment` when the cursor is in one. */
function openFlow(before: string, start: number): { levels: FlowLevel[]; entry: number } | 'comment' {
  const levels: FlowLevel[] = [];
  let entry = start;
  let quote: string | null = null;
  for (let i = start; i < before.length; i += 1) {
    const c = before[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    const sofar = before.slice(entry, i);
    if ((c === '"' || c === "'") && /(^|[:,[{])\s*$/.test(sofar)) quote = c;
    else if (c === '#' && (i === 0 || before[i - 1] === ' ')) return 'comment';
    else if ((c === '{' || c === '[') && /(^|:)\s*$/.test(sofar)) {
      // A bracket opens a collection only where a value starts; inside a plain scalar it is text.
      levels.push({ kind: c, at: i, key: splitKey(sofar.trim())?.key, outer: entry });
      entry = i + 1;
    } else if ((c === '}' || c === ']') && levels.length > 0) entry = levels.pop()!.outer;
    else if (c === ',' && levels.length > 0) entry = i + 1;
  }
  return { levels, entry };
}

/** The keys of the flow mapping whose `{` is at `open` in `text`, up to its `}` on the same line. */
function flowKeys(text: string, open: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let entry = open + 1;
  let quote: string | null = null;
  const take = (end: number) => {
    const split = splitKey(text.slice(entry, end).trim());
    if (split) keys.push(split.key);
  };
  for (let i = open + 1; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth += 1;
    else if ((c === '}' || c === ']') && depth > 0) depth -= 1;
    else if (c === '}' || c === ']') break;
    else if (c === ',' && depth === 0) {
      take(i);
      entry = i + 1;
    }
  }
  take(text.length);
  return keys;
}

const KEY_WORD = /[^\s{}[\],:#]*$/;

/** The cursor's context at offset `pos` of `text`, or null where there is nothing to say (a comment, a block scalar). */
export function contextAt(text: string, pos: number): CursorContext | null {
  const lines = linesOf(text);
  let index = lines.length - 1;
  while (index > 0 && lines[index]!.start > pos) index -= 1;
  const line = lines[index]!;
  const before = line.text.slice(0, pos - line.start);
  const shape = shapeOf(before);
  if (shape.content.startsWith('#')) return null;
  const parents = blockParents(lines, index, shape.dashes[0] ?? shape.contentCol);
  if (parents === null) return null;
  const path: Segment[] = [...parents, ...shape.dashes.map(() => 0)];
  const flow = openFlow(before, shape.contentCol);
  if (flow === 'comment') return null;

  if (flow.levels.length === 0) {
    const split = splitKey(shape.content);
    if (split === undefined) {
      const word = shape.content;
      if (/[{}[\],]/.test(word)) return null;
      return { slot: 'key', path, word, from: pos - word.length, siblings: blockSiblings(lines, index, shape.contentCol, shape.dashes.length > 0) };
    }
    const value = split.rest.trimStart();
    if (/^[|>&!]/.test(value)) return null;
    return { slot: 'value', path: [...path, split.key], word: value, from: pos - value.length, siblings: [] };
  }

  for (const level of flow.levels) {
    if (level.key !== undefined) path.push(level.key);
    if (level.kind === '[') path.push(0);
  }
  const innermost = flow.levels[flow.levels.length - 1]!;
  const entry = before.slice(flow.entry).trimStart();
  const split = innermost.kind === '{' ? splitKey(entry) : undefined;
  if (innermost.kind === '{' && split === undefined) {
    const word = KEY_WORD.exec(entry)![0];
    return { slot: 'key', path, word, from: pos - word.length, siblings: flowKeys(line.text, innermost.at) };
  }
  if (split !== undefined) path.push(split.key);
  const word = (split?.rest ?? entry).trimStart();
  return { slot: 'value', path, word, from: pos - word.length, siblings: [] };
}

/**
 * The key under offset `pos`, if a key is there (a word followed by `:`): its path and span. For
 * hover: the same reading as `contextAt`, asked at the key's end.
 */
export function keyAt(text: string, pos: number): { path: Segment[]; from: number; to: number } | null {
  const isKeyChar = (c: string | undefined) => c !== undefined && !/[\s{}[\],:#]/.test(c);
  let from = pos;
  let to = pos;
  while (isKeyChar(text[from - 1])) from -= 1;
  while (isKeyChar(text[to])) to += 1;
  const end = text.indexOf('\n', to);
  if (from === to || !/^[ \t]*:(\s|$)/.test(text.slice(to, end === -1 ? text.length : end))) return null;
  const context = contextAt(text, to);
  if (context === null || context.slot !== 'key' || context.from !== from) return null;
  return { path: [...context.path, unquote(context.word.trim())], from, to };
}
