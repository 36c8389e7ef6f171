/**
 * Cell references (`C7`, `A1:C3`) as a sheet writes them, and as messages name them
 * (`Заявки!C7`, `'Заявки 2026'!C7`). The sheet's own bounds are Excel's: 1,048,576 rows and 16,384
 * columns (A to XFD); a reference past them is a damaged or hostile file, never a big sheet.
 */

export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

/** A parsed reference, 1-based row, 0-based column; `undefined` parts were absent (`C` or `7`). */
export interface CellAddress {
  row: number | undefined;
  column: number | undefined;
}

/**
 * `C7` → { row: 7, column: 2 }. Letters and digits are read as far as they go, with no upper
 * bound applied here (the caller compares with MAX_ROWS/MAX_COLUMNS), but the arithmetic stops
 * growing past them so that `A1:C1000000000000000` cannot become a float. Null when the text is
 * not a reference at all.
 */
export function parseCellAddress(text: string): CellAddress | null {
  let index = 0;
  let column = 0;
  let letters = 0;
  // An absolute reference (`$C$7`) is a reference all the same.
  if (text.charCodeAt(index) === 36) index++;
  for (; index < text.length; index++) {
    let code = text.charCodeAt(index);
    if (code >= 97 && code <= 122) code -= 32;
    if (code < 65 || code > 90) break;
    letters++;
    if (column <= MAX_COLUMNS) column = column * 26 + (code - 64);
  }
  if (text.charCodeAt(index) === 36) index++;
  let row = 0;
  let digits = 0;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) break;
    digits++;
    if (row <= MAX_ROWS) row = row * 10 + (code - 48);
  }
  if (index !== text.length || letters + digits === 0) return null;
  return { row: digits === 0 ? undefined : row, column: letters === 0 ? undefined : column - 1 };
}

/** A range `A1:C3` (or one cell `A1`) with both corners, 1-based rows and 0-based columns. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** `A1:C3` → its corners (ordered), or null when either end is not a full cell reference. */
export function parseCellRange(text: string): CellRange | null {
  const colon = text.indexOf(':');
  const start = parseCellAddress(colon === -1 ? text : text.slice(0, colon));
  const end = colon === -1 ? start : parseCellAddress(text.slice(colon + 1));
  if (start?.row === undefined || start.column === undefined || end?.row === undefined || end.column === undefined) return null;
  return {
    top: Math.min(start.row, end.row),
    bottom: Math.max(start.row, end.row),
    left: Math.min(start.column, end.column),
    right: Math.max(start.column, end.column),
  };
}

/** Whether a range lies within the sheet's bounds. */
export function rangeFits(range: CellRange): boolean {
  return range.top >= 1 && range.bottom <= MAX_ROWS && range.left >= 0 && range.right < MAX_COLUMNS;
}

/** 0 → `A`, 25 → `Z`, 26 → `AA`. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A name Excel writes bare in a formula: letters, digits and `_`, starting with a letter or `_`, and not itself a cell reference. */
const BARE_SHEET_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const LOOKS_LIKE_A_REFERENCE = /^(?:[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*|[Rr]|[Cc])$/;

/**
 * A sheet name as Excel writes it before `!`: bare when it is one word of letters and digits
 * (`Заявки`), else in single quotes with inner quotes doubled (`'Заявки 2026'`, `'Q1-Q2'`,
 * `'O''Brien'`).
 */
export function quoteSheetName(name: string): string {
  if (BARE_SHEET_NAME.test(name) && !LOOKS_LIKE_A_REFERENCE.test(name)) return name;
  return `'${name.replaceAll("'", "''")}'`;
}

/** `Заявки!C7`. */
export function formatCellRef(sheet: string, row: number, column: number): string {
  return `${quoteSheetName(sheet)}!${columnName(column)}${row}`;
}
