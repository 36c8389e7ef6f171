/**
 * The daemon's own check of the editor's text, as marks in the editor. The preview beside the
 * editor lists what `check` found when the text was last posted: a syntax error by line and
 * column, anything else by its key path (`request.customer.inn`, an unknown key with its line too). Most of it the schema marks
 * already; what it cannot say (a field with two sources, `upper` with `lower`, a date format the
 * reader refuses, a mapping of the other kind) only the daemon knows. Those are placed on their
 * key here, or on the first line when the path names no key of the text. They hold only for the
 * text that was checked: the editor shows them while its text is that text.
 */
import { parseDocument, type Document } from 'yaml';
import { rootSpan, spanOf, type Problem } from './schema-problems.js';
import type { Segment } from './schema-walk.js';

/** One row of the preview's problem table. */
export interface DaemonProblem {
  /** Dotted key path, `''` for the file. */
  path: string;
  line: number | null;
  column: number | null;
  message: string;
}

/** The daemon's problems of `text`, placed, less those the editor's own marks (`own`) already cover. */
export function placeDaemonProblems(text: string, problems: readonly DaemonProblem[], own: readonly Problem[]): Problem[] {
  let doc: Document.Parsed | undefined;
  try {
    doc = parseDocument(text, { prettyErrors: false });
  } catch {
    doc = undefined;
  }
  const taken = new Set(own.map((problem) => `${problem.from}:${problem.to}`));
  const syntaxMarked = own.some((problem) => problem.source === 'YAML');
  const placed: Problem[] = [];
  for (const problem of problems) {
    let span: { from: number; to: number } | undefined;
    if (problem.line !== null && problem.path === '') {
      // A syntax error: the editor's parser is the daemon's, and has marked it already.
      if (syntaxMarked) continue;
      span = pointAt(text, problem.line, problem.column ?? 1);
    } else if (doc !== undefined) {
      // A key's problem is placed on the key, whether or not the daemon also gave its line (an
      // unknown key does): the line alone would mark one character of it.
      const path = problem.path === '' ? undefined : keyPath(doc.contents, problem.path);
      const key = path && spanOf(doc, path, 'key');
      const value = path && spanOf(doc, path, 'value');
      // The editor marked something in this key or its value: that says it first (the daemon's
      // words for a wrong type, `is required`, would only stand beside it).
      if (key && value && own.some((mark) => mark.from <= Math.max(key.to, value.to) && mark.to >= key.from)) continue;
      span = key ?? (problem.line !== null ? pointAt(text, problem.line, problem.column ?? 1) : rootSpan(doc, text));
    }
    if (span === undefined || taken.has(`${span.from}:${span.to}`)) continue;
    taken.add(`${span.from}:${span.to}`);
    placed.push({ ...span, message: problem.message, source: 'daemon' });
  }
  return placed;
}

/**
 * `request.customer.inn` as the keys it crosses in the text: a key may hold dots, so at each
 * mapping the longest key that starts the rest of the path is taken. Undefined when the path
 * leaves the text (a key the daemon names that is not written, such as a missing `groupBy`).
 */
function keyPath(node: unknown, dotted: string): Segment[] | undefined {
  const path: Segment[] = [];
  let rest = dotted;
  while (rest !== '') {
    const items = typeof node === 'object' && node !== null && 'items' in node && Array.isArray(node.items) ? (node.items as unknown[]) : undefined;
    if (items === undefined) return undefined;
    const isPairList = items.every((item) => typeof item === 'object' && item !== null && 'key' in item);
    let next: { segment: Segment; node: unknown; length: number } | undefined;
    if (isPairList) {
      for (const item of items as { key: unknown; value: unknown }[]) {
        const key = typeof item.key === 'object' && item.key !== null && 'value' in item.key ? String(item.key.value) : undefined;
        if (key === undefined || !(rest === key || rest.startsWith(`${key}.`))) continue;
        if (next === undefined || key.length > next.length) next = { segment: key, node: item.value, length: key.length };
      }
    } else {
      const index = /^(\d+)(\.|$)/.exec(rest);
      if (index) next = { segment: Number(index[1]), node: items[Number(index[1])], length: index[1]!.length };
    }
    if (next === undefined) return undefined;
    path.push(next.segment);
    node = next.node;
    rest = rest.slice(next.length + 1);
  }
  return path;
}

/** Line and column (1-based) as a point in `text`. */
function pointAt(text: string, line: number, column: number): { from: number; to: number } {
  let offset = 0;
  for (let i = 1; i < line; i += 1) {
    const end = text.indexOf('\n', offset);
    if (end === -1) break;
    offset = end + 1;
  }
  const end = text.indexOf('\n', offset);
  const from = Math.min(offset + column - 1, end === -1 ? text.length : end);
  return { from, to: Math.min(from + 1, end === -1 ? text.length : end) };
}
