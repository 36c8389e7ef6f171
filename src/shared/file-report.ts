/**
 * A file's error report rendered for people and programs: the JSON report and its CSV twin (UTF-8
 * with a BOM so that Excel opens the Cyrillic text right, `;`-delimited as Excel expects in a
 * Russian locale, no cell that starts a spreadsheet formula). Pure. The intake writes them beside a
 * rejected or partly bad file; the console serves the same bytes for download.
 */
import { neutraliseFormula } from './csv-formula.js';
import { problemPlace, type FileReport } from './types.js';

const CSV_COLUMNS = ['row', 'field', 'code', 'message', 'externalId'] as const;

/**
 * One CSV cell: formula-like text made inert, then quoted when it holds the delimiter, a comma, a
 * quote or a line break. The comma too: Excel in a locale whose list separator is a comma splits an
 * unquoted cell there, and the piece after it (`A-1,=1+1`) would start a formula of its own.
 */
function csvCell(value: unknown): string {
  const text = neutraliseFormula(value === null || value === undefined ? '' : String(value));
  return /[;,"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The JSON report: `{ file, sha256, problems: [{ row, field, code, message, externalId, value }], notes }`;
 * a problem in a sheet also has its `cell` (`Заявки!C7`), one in an XML file its `line` and `column`.
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
    value: p.value ?? null,
  }));
  return `${JSON.stringify({ file: report.file, sha256: report.sha256, problems, notes: report.notes }, null, 2)}\n`;
}

/**
 * The CSV twin, BOM first, CRLF line ends; no cell starts a formula (`=`, `+`, `-`, `@`, tab, CR get
 * a `'`). A report with problems in a sheet or an XML file has a last column, `place` (`Заявки!C7`,
 * `line 40, column 7`).
 */
export function renderCsvReport(report: FileReport): string {
  const withPlace = report.problems.some((p) => problemPlace(p) !== null);
  const lines = [[...CSV_COLUMNS, ...(withPlace ? ['place'] : [])].join(';')];
  for (const p of report.problems) {
    const cells: unknown[] = [p.row, p.field, p.code, p.message, p.externalId];
    if (withPlace) cells.push(problemPlace(p));
    lines.push(cells.map(csvCell).join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
