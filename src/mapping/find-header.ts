/**
 * Where a table's header is, and what each column is called. A CSV's header is its first row. A
 * sheet saved from a 1C report is not so tidy: a title, the report's parameters and a blank row
 * stand above the table, and a header may span two rows (a group name over its sub-columns). So a
 * sheet's header can also be found by the names the mapping asks for, among its first rows, in one
 * row or two.
 */
import { cellText } from './compile-field.js';
import type { Cell, TableInput, TableRow } from './readers/types.js';

export interface TableHeader {
  /** The column a mapped name refers to, or -1. */
  indexOf(name: string): number;
  /** Where the header was looked for, for a `COLUMN_MISSING` message; absent for a fixed header. */
  where?: string;
  /** The rows after the header. */
  dataRows(): AsyncIterable<TableRow>;
}

/** One candidate: a header row (or two), the names of its columns, and how many mapped names it holds. */
interface Candidate {
  start: number;
  height: 1 | 2;
  names: Map<string, number>;
  score: number;
}

/**
 * The header of `input`'s rows, read from `rows` (the rows it consumed past the header are handed
 * on by `dataRows`); undefined when the table has no row at all.
 */
export async function findHeader(
  rows: AsyncGenerator<TableRow>,
  input: Pick<TableInput, 'header' | 'label'>,
  wanted: readonly string[],
): Promise<TableHeader | undefined> {
  const rule = input.header;
  const buffered: TableRow[] = [];
  const height = rule.kind === 'first' ? 1 : rule.kind === 'at' ? rule.rows : rule.within;
  while (buffered.length < height) {
    const next = await rows.next();
    if (next.done) break;
    if (rule.kind === 'at' && next.value.row < rule.row) continue;
    buffered.push(next.value);
  }
  if (buffered.length === 0) return undefined;

  let chosen: Candidate;
  if (rule.kind === 'first') chosen = candidate(buffered, 0, 1, wanted);
  else if (rule.kind === 'at') chosen = candidate(buffered, 0, rule.rows === 2 && buffered.length > 1 ? 2 : 1, wanted);
  else chosen = bestCandidate(buffered, wanted);

  const rest = buffered.slice(chosen.start + chosen.height);
  const where =
    rule.kind === 'find'
      ? `looked for it in the first ${buffered.length} rows${input.label === undefined ? '' : ` of ${input.label}`}; row ${buffered[chosen.start]!.row} holds most of the mapped names`
      : undefined;
  return {
    indexOf: (name) => chosen.names.get(name) ?? -1,
    ...(where === undefined ? {} : { where }),
    // The rows as they come when none were read past the header: one generator less per row.
    dataRows: () => (rest.length === 0 ? rows : prepend(rest, rows)),
  };
}

async function* prepend(first: TableRow[], rows: AsyncGenerator<TableRow>): AsyncGenerator<TableRow> {
  yield* first;
  for await (const row of { [Symbol.asyncIterator]: () => rows }) yield row;
}

/** The first candidate that holds every mapped name (one row before two), else the one holding the most. */
function bestCandidate(rows: TableRow[], wanted: readonly string[]): Candidate {
  let best: Candidate | undefined;
  for (let start = 0; start < rows.length; start++) {
    for (const height of [1, 2] as const) {
      if (start + height > rows.length) continue;
      const found = candidate(rows, start, height, wanted);
      if (found.score === wanted.length) return found;
      if (best === undefined || found.score > best.score) best = found;
    }
  }
  return best!;
}

function candidate(rows: TableRow[], start: number, height: 1 | 2, wanted: readonly string[]): Candidate {
  const names = height === 1 ? oneRowNames(rows[start]!.cells) : twoRowNames(rows[start]!.cells, rows[start + 1]!.cells);
  const score = new Set(wanted.filter((name) => names.has(name))).size;
  return { start, height, names, score };
}

function oneRowNames(cells: readonly Cell[]): Map<string, number> {
  const names = new Map<string, number>();
  cells.forEach((cell, index) => {
    const name = cellText(cell).trim();
    if (!names.has(name)) names.set(name, index);
  });
  return names;
}

/**
 * A two-row header: a column answers to its lower name, its upper name (a group title, or a name
 * merged down over both rows), and `Upper / Lower`, which tells apart sub-columns of the same name
 * under different groups. The first column with a name wins.
 */
function twoRowNames(upper: readonly Cell[], lower: readonly Cell[]): Map<string, number> {
  const names = new Map<string, number>();
  const add = (name: string, index: number) => {
    if (name !== '' && !names.has(name)) names.set(name, index);
  };
  const width = Math.max(upper.length, lower.length);
  for (let index = 0; index < width; index++) {
    const top = cellText(upper[index]).trim();
    const bottom = cellText(lower[index]).trim();
    if (top !== '' && bottom !== '' && top !== bottom) add(`${top} / ${bottom}`, index);
  }
  for (let index = 0; index < width; index++) add(cellText(lower[index]).trim(), index);
  for (let index = 0; index < width; index++) add(cellText(upper[index]).trim(), index);
  return names;
}
