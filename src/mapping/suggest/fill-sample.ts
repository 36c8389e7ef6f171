/**
 * A grouped report in a sample: the group column is blank on the rows below a request's first row,
 * and so are the request's other columns there. Read as they stand, those columns "change between
 * the rows of one request" and the group column "has rows with no value", and nothing looks like
 * a request-level field. So the suggester fills them down first, as the daemon will with
 * `fillDown: true`: on each row whose group cell is blank, every blank cell takes the value of the
 * request's first row. Line columns, filled on those rows, stay as they are.
 */
import { shown } from './shown.js';
import type { Detected, SampleTable } from './types.js';
import { phrase } from './summary-words.js';

/** Whether `column` is blank below a filled row (a grouped report), with the reason for the YAML. */
export function detectFillDown(table: SampleTable, column: string): Detected<boolean> | undefined {
  const values = table.columns.find((c) => c.name === column)?.values ?? [];
  const first = values.findIndex((value) => value !== '');
  const blanks = first === -1 ? 0 : values.slice(first).filter((value) => value === '').length;
  if (blanks === 0) return undefined;
  return { value: true, reason: phrase('summary.why.fillDown', { column: shown(column), n: blanks }) };
}

/** The table with the blank cells of `column`'s blank rows filled from the request's first row. */
export function fillDownSample(table: SampleTable, column: string): SampleTable {
  const key = table.columns.find((c) => c.name === column)?.values ?? [];
  const firstRowOf: number[] = [];
  let current = -1;
  key.forEach((value, row) => {
    if (value !== '') current = row;
    firstRowOf.push(current);
  });
  const columns = table.columns.map((c) => ({
    ...c,
    values: c.values.map((value, row) => (value === '' && key[row] === '' && firstRowOf[row]! >= 0 ? c.values[firstRowOf[row]!]! : value)),
  }));
  return { ...table, columns };
}
