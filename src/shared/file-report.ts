/**
 * A file's error report rendered for people and programs: the JSON report and its CSV twin (UTF-8
 * with a BOM so that Excel opens the Cyrillic text right, `;`-delimited as Excel expects in a
 * Russian locale, no cell that starts a spreadsheet formula). Pure. The intake writes them beside a
 * rejected or partly bad file; the console serves the same bytes for download.
 */
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormulaCast } from './csv-formula.js';
import { problemPlace, ROW_NUMBERING_WORDS, type FileReport } from './types.js';

const CSV_COLUMNS = ['row', 'field', 'code', 'message', 'externalId'] as const;

/**
 * The JSON report: `{ file, sha256, rows, rowNumbering, problems: [{ row, field, code, message, externalId, value }], notes }`
 * (`rows`: `lines`, `excel` or `records`, and `rowNumbering` saying it in words, when known);
 * a problem in a sheet also has its `cell` (`Заявки!C7`), one in an XML file its `line` and `column`,
 * one of a document (a mapping with `document.id`) its `documentId` and `documentNumber`.
 */
export function renderJsonReport(report: FileReport): string {
  const problems = report.problems.map((p) => ({
    row: p.row,
    ...(p.cell === undefined ? {} : { cell: p.cell }),
    ...(p.line === undefined ? {} : { line: p.line }),
    ...(p.column === undefined ? {} : { column: p.column }),
    field: p.field,
    code: p.code,
    message: p.message,
    externalId: p.externalId ?? null,
    ...(p.documentId === undefined ? {} : { documentId: p.documentId, documentNumber: p.documentNumber ?? null }),
    value: p.value ?? null,
  }));
  // The console's catalogue keys (`text`) stay in the store: the report speaks the one language of the log.
  const notes = report.notes.map(({ text: _text, ...note }) => note);
  // The header says how rows are numbered (`rowNumbering`), for the person who looks them up.
  const rows = report.rows === undefined ? {} : { rows: report.rows, rowNumbering: ROW_NUMBERING_WORDS[report.rows] };
  return `${JSON.stringify({ file: report.file, sha256: report.sha256, ...rows, problems, notes }, null, 2)}\n`;
}

/**
 * The CSV twin, written by csv-stringify: BOM first, `;`, CRLF line ends; no cell starts a formula
 * (`=`, `+`, `-`, `@`, tab, CR get a `'`, the row number included). A cell is then quoted when it
 * holds `;`, a quote, a CR or an LF anywhere (`quote_record_delimiter`: csv-stringify otherwise
 * quotes only a whole CRLF), or a comma (`quoted_match`): Excel in a locale whose list separator is
 * a comma splits an unquoted cell there, and the piece after it (`A-1,=1+1`) would start a formula of
 * its own. Edge spaces are not quoted. A missing value (a file-level problem's row) is an empty cell.
 * A report with problems in a sheet or an XML file has a last column, `place` (`Заявки!C7`,
 * `line 40, column 7`).
 */
export function renderCsvReport(report: FileReport): string {
  const withPlace = report.problems.some((p) => problemPlace(p) !== null);
  const rows = report.problems.map((p) =>
    [p.row, p.field, p.code, p.message, p.externalId, ...(withPlace ? [problemPlace(p)] : [])].map((cell) => String(cell ?? '')),
  );
  return stringify(rows, {
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    quoted_match: ',',
    header: true,
    // The first column's title says how rows are numbered: `row (rows are numbered as lines of the file …)`.
    columns: [report.rows === undefined ? 'row' : `row (${ROW_NUMBERING_WORDS[report.rows]})`, ...CSV_COLUMNS.slice(1), ...(withPlace ? ['place'] : [])],
    cast: neutraliseFormulaCast(),
  });
}
