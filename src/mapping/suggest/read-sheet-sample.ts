/**
 * A sheet's first rows → columns, for `mapping suggest` on a workbook: the header row (the first
 * row of names, not values, below a report's title and parameters; with the row under it when that
 * one names sub-columns), then one column per header cell, with the values of the data rows below
 * (blank and totals rows passed over, as the daemon passes them over).
 *
 * Typed cells arrive typed: a number is written as its digits, a date as `YYYY-MM-DD`. A number of
 * 9 or 11 digits that is a valid INN with its leading zero back is shown as that INN, as the
 * mapping will read it.
 */
import { cellText } from '../compile-field.js';
import { isValidInn } from '../inn.js';
import type { Cell, TableRow } from '../readers/types.js';
import { compileSkipRows } from '../skip-rows.js';
import { looksLikeValue } from './classify-values.js';
import { tableColumns } from './table-columns.js';
import type { Detected, SampleTable } from './types.js';
import { phrase, type Phrase } from './summary-words.js';

/** Rows looked at for the header: a 1C report's title, parameters and blank row fit well within. */
const HEADER_SEARCH = 30;

type SheetPart = Pick<SampleTable, 'headerLine' | 'columns' | 'rowCount' | 'warnings'>;

/** The header, columns and values of a sheet's first rows. */
export function readSheetSample(rows: readonly TableRow[], sheet: string): SheetPart {
  const warnings: Phrase[] = [];
  const width = Math.max(0, ...rows.map((row) => row.cells.length));
  const headerIndex = rows.slice(0, HEADER_SEARCH).findIndex((row) => isHeader(row.cells, width));
  if (headerIndex === -1) {
    warnings.push(phrase('summary.warn.noHeaderRow', { rows: Math.min(HEADER_SEARCH, rows.length), sheet }));
    return { columns: [], rowCount: rows.length, warnings };
  }
  const upper = rows[headerIndex]!;
  const lower = rows[headerIndex + 1];
  const twoRows = lower !== undefined && lower.row === upper.row + 1 && isSubHeader(lower.cells, upper.cells);
  const names = twoRows ? twoRowNames(upper.cells, lower.cells) : upper.cells.map((cell) => cellText(cell).trim());
  const skip = compileSkipRows({ blank: true, totals: ['Итого', 'Всего'] });
  const data = rows.slice(headerIndex + (twoRows ? 2 : 1)).filter((row) => !skip(row.cells));
  if (data.length === 0) warnings.push(phrase('summary.warn.noRows'));

  const texts = data.map((row) => names.map((_, index) => valueText(row.cells[index])));
  const columns = tableColumns(names, texts, warnings, sheet);
  const headerLine: Detected<number> = {
    value: upper.row,
    reason: phrase(headerIndex === 0 ? 'summary.why.rowNames' : 'summary.why.namesUnderTitle', {
      row: upper.row,
      n: headerIndex,
      subColumns: twoRows ? phrase('summary.why.subColumns', { row: lower.row }) : '',
    }),
  };
  return { headerLine, columns, rowCount: data.length, warnings };
}

function valueText(cell: Cell | undefined): string {
  if (typeof cell === 'number' && Number.isInteger(cell) && cell > 0) {
    const digits = String(cell);
    if ((digits.length === 9 || digits.length === 11) && isValidInn(`0${digits}`)) return `0${digits}`;
    return digits;
  }
  return cellText(cell).trim();
}

/**
 * Names, not values: at least half the columns (and two) filled with different names, none of them
 * a number, date or e-mail. A title merged across the table reads the same in every cell: not a header.
 */
function isHeader(cells: readonly Cell[], width: number): boolean {
  const filled = cells.filter((cell) => cellText(cell).trim() !== '');
  if (new Set(filled.map((cell) => cellText(cell).trim())).size < Math.max(2, Math.ceil(width / 2))) return false;
  return !filled.some((cell) => typeof cell === 'number' || looksLikeValue(cellText(cell).trim()));
}

/** The row below a header names sub-columns: only names, some where the header has one too (a group over its parts) or none. */
function isSubHeader(cells: readonly Cell[], header: readonly Cell[]): boolean {
  const filled = cells.map((cell) => cellText(cell).trim());
  if (filled.filter((text) => text !== '').length < 2) return false;
  if (cells.some((cell) => typeof cell === 'number' || looksLikeValue(cellText(cell).trim()))) return false;
  // A repeated name over two or more columns above (a merged group title) is what makes it a second header row.
  const above = header.map((cell) => cellText(cell).trim());
  return above.some((name, index) => name !== '' && above.indexOf(name) !== index);
}

/**
 * A two-row header's column names, as the daemon finds them: the lower name, or the upper one where
 * the lower is empty; `Upper / Lower` only where a lower name stands under two groups and alone
 * would be ambiguous.
 */
function twoRowNames(upper: readonly Cell[], lower: readonly Cell[]): string[] {
  const width = Math.max(upper.length, lower.length);
  const tops = Array.from({ length: width }, (_, index) => cellText(upper[index]).trim());
  const bottoms = Array.from({ length: width }, (_, index) => cellText(lower[index]).trim());
  return bottoms.map((bottom, index) => {
    const top = tops[index]!;
    if (bottom === '') return top;
    const ambiguous = bottoms.indexOf(bottom) !== bottoms.lastIndexOf(bottom) || (tops.includes(bottom) && top !== bottom);
    return ambiguous && top !== '' && top !== bottom ? `${top} / ${bottom}` : bottom;
  });
}
