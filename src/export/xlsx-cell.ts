/**
 * One cell of a worksheet as SpreadsheetML text. Pure.
 *
 * Text is written as an inline string (`t="inlineStr"`), so no shared-strings table has to be
 * gathered in memory first, and so no text is ever a formula: a spreadsheet evaluates only what a
 * cell's `<f>` holds, and `=1+1` here is shown as the text `=1+1`. That is why the CSV's
 * `escapeFormulas` (a `'` in front) has no counterpart here: the value is kept exactly.
 *
 * What the text must lose or gain to be a valid cell:
 * - characters XML 1.0 cannot carry (C0 controls other than tab, LF and CR; lone surrogates;
 *   U+FFFE and U+FFFF) become U+FFFD, so the reader sees that something was there;
 * - past Excel's 32,767 characters a cell is cut, ending in `TRUNCATION_MARKER`, since Excel
 *   refuses (repairs away) a longer one;
 * - `_x000D_`-like text gets its `_` written as `_x005F_`: spreadsheets read `_xHHHH_` as an
 *   escaped character (ECMA-376 ST_Xstring; Excel decodes every one, LibreOffice the control
 *   characters), so without it the text would change on reading;
 * - CR is written `&#13;`, since an XML parser turns a raw CR into LF.
 */
import { excelSerial } from './excel-date.js';
import type { CellValue } from './format-value.js';

/** Excel's limit on the characters (UTF-16 units) of one cell. */
export const MAX_CELL_CHARS = 32_767;
/** The end of a cut cell; the cell is `MAX_CELL_CHARS` long with it. */
export const TRUNCATION_MARKER = '…[truncated]';

const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** Lookahead, not a match: in `_x0041_x0042_` the middle `_` closes one look-alike and opens the next. */
const ESCAPED_CHARACTER_LOOKALIKE = /_(?=x[0-9A-Fa-f]{4}_)/g;

/** `text` as a cell may hold it: characters XML cannot carry replaced, cut to Excel's limit. */
export function cellText(text: string): string {
  const clean = text.replace(NOT_XML_CHARACTER, '\uFFFD');
  if (clean.length <= MAX_CELL_CHARS) return clean;
  let cut = MAX_CELL_CHARS - TRUNCATION_MARKER.length;
  const last = clean.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1; // never half a surrogate pair
  return clean.slice(0, cut) + TRUNCATION_MARKER;
}

/** Element text: `&`, `<`, `>` escaped, CR kept as a character reference. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** An attribute value in double quotes: also `"`, and tab and line breaks, which attributes would turn into spaces. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/["\t\n]/g, (c) => (c === '"' ? '&quot;' : c === '\t' ? '&#9;' : '&#10;'));
}

/** `A`, `B`, … `Z`, `AA`… for a column index from 0. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** An inline-string cell, or '' for empty text (an absent cell is an empty one). */
export function textCellXml(ref: string, text: string): string {
  if (text === '') return '';
  const escaped = escapeXmlText(cellText(text).replace(ESCAPED_CHARACTER_LOOKALIKE, '_x005F_'));
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escaped}</t></is></c>`;
}

/**
 * The cell for one value: a number as a number; a date as its spreadsheet number in `dateStyle`
 * (the style holding the column's number format) when the column has one and the day fits; anything
 * else as text.
 */
export function cellXml(ref: string, cell: CellValue, dateStyle: number | null): string {
  if (cell.kind === 'number') return `<c r="${ref}"><v>${String(cell.value)}</v></c>`;
  if (cell.kind === 'date' && dateStyle !== null) {
    const serial = excelSerial(cell.parts, cell.pattern);
    if (serial !== null) return `<c r="${ref}" s="${dateStyle}"><v>${String(serial)}</v></c>`;
  }
  return textCellXml(ref, cell.text);
}
