/**
 * The error report beside a rejected (or partly bad, archived) file: `<name>.errors.json` for
 * programs and a `<name>.errors.csv` twin for ERP users, UTF-8 with a BOM so that Excel opens the
 * Cyrillic text right, `;`-delimited as Excel expects in a Russian locale.
 */
import fs from 'node:fs/promises';
import type { FileReport } from '../store/files.js';

export const REPORT_SUFFIX = { json: '.errors.json', csv: '.errors.csv' } as const;

const CSV_COLUMNS = ['row', 'field', 'code', 'message', 'externalId'] as const;

/** One CSV cell: quoted when it holds the delimiter, a quote or a line break. */
function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The JSON report: `{ file, sha256, problems: [{ row, field, code, message, externalId, value }], notes }`. */
export function renderJsonReport(report: FileReport): string {
  const problems = report.problems.map((p) => ({
    row: p.row,
    field: p.field,
    code: p.code,
    message: p.message,
    externalId: p.externalId ?? null,
    value: p.value ?? null,
  }));
  return `${JSON.stringify({ file: report.file, sha256: report.sha256, problems, notes: report.notes }, null, 2)}\n`;
}

/** The CSV twin, BOM first, CRLF line ends. */
export function renderCsvReport(report: FileReport): string {
  const lines = [CSV_COLUMNS.join(';')];
  for (const p of report.problems) {
    lines.push([p.row, p.field, p.code, p.message, p.externalId].map(csvCell).join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

async function writeAtomically(target: string, content: string): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temp, content, 'utf8');
  await fs.rename(temp, target);
}

/** Write both report files beside `filePath` (its final place). Returns their paths. */
export async function writeReportFiles(filePath: string, report: FileReport): Promise<string[]> {
  const jsonPath = `${filePath}${REPORT_SUFFIX.json}`;
  const csvPath = `${filePath}${REPORT_SUFFIX.csv}`;
  await writeAtomically(jsonPath, renderJsonReport(report));
  await writeAtomically(csvPath, renderCsvReport(report));
  return [jsonPath, csvPath];
}
