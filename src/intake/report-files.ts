/**
 * The error report beside a rejected (or partly bad, archived) file: `<name>.errors.json` for
 * programs and a `<name>.errors.csv` twin for ERP users, UTF-8 with a BOM so that Excel opens the
 * Cyrillic text right, `;`-delimited as Excel expects in a Russian locale.
 *
 * Both go into a folder other people write (`rejected/`, `archive/`), through the hardened atomic
 * writer (random temp name opened `O_EXCL|O_NOFOLLOW`, fsync, rename, folder fsync). Their text
 * comes from input files and the platform, so before rendering the report is scrubbed of every
 * registered secret, and the CSV's cells cannot start a spreadsheet formula.
 */
import path from 'node:path';
import { ConnectorError, describeError } from '../errors.js';
import { renderCsvReport, renderJsonReport } from '../shared/file-report.js';
import { fitFileName, utf8Length } from '../shared/file-name.js';
import { MAX_TARGET_NAME_BYTES, writeFileAtomic } from '../shared/write-file-atomic.js';
import { type FileReport } from '../shared/types.js';

export const REPORT_SUFFIX = { json: '.errors.json', csv: '.errors.csv' } as const;

// The renderers are shared with the console's report download: one shape for one report.
export { renderCsvReport, renderJsonReport };

/**
 * The report's file name for a file named `base`: `<base><suffix>`, or, when that would not fit
 * (with its temp name) in 255 bytes, `base` shortened by `fitFileName` with the suffix kept whole,
 * so the reader still finds `.errors.json`/`.errors.csv` at the end.
 */
export function reportNameFor(base: string, suffix: string): string {
  return fitFileName(base, MAX_TARGET_NAME_BYTES - utf8Length(suffix)) + suffix;
}

/**
 * Write both report files beside `filePath` (its final place), atomically and fsynced. Returns
 * their paths. Throws `REPORT_WRITE_FAILED` naming the report that could not be written.
 */
export async function writeReportFiles(filePath: string, report: FileReport): Promise<string[]> {
  const folder = path.dirname(filePath);
  const base = path.basename(filePath);
  // Not scrubbed: a report quotes the file's own values, which are never rewritten.
  const files: [string, string][] = [
    [reportNameFor(base, REPORT_SUFFIX.json), renderJsonReport(report)],
    [reportNameFor(base, REPORT_SUFFIX.csv), renderCsvReport(report)],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const target = path.join(folder, name);
    try {
      written.push(await writeFileAtomic(folder, name, Buffer.from(text, 'utf8')));
    } catch (error) {
      throw new ConnectorError('REPORT_WRITE_FAILED', `Cannot write the error report ${target}: ${describeError(error)}`, {
        cause: error,
        details: { file: filePath, report: target },
      });
    }
  }
  return written;
}
