/**
 * The error report of a recorded file, written beside it from `files.report`. The row carries
 * `report_pending` from the recording transaction until both report files are on disk, so a report
 * that could not be written (a full disk, a folder in the way) is written again at each scan
 * instead of being lost once the file has left `processing/`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { listFilesWithPendingReport, markReportWritten, readFileReport, type FileRecord } from '../store/files.js';
import { entryExists, fileLogger, processingPathOf, type IntakeContext } from './intake-context.js';
import { writeReportFiles } from './report-files.js';

/**
 * Write the report of `row` beside its `currentPath`, when it has problems to report, and clear
 * its pending flag. A failure is logged as REPORT_WRITE_FAILED and leaves the flag set; never throws
 * for the write itself.
 */
export async function writeFileReport(ctx: IntakeContext, row: FileRecord): Promise<boolean> {
  const report = readFileReport(row);
  if (row.currentPath && report && report.problems.length > 0) {
    try {
      await fs.mkdir(path.dirname(row.currentPath), { recursive: true });
      await writeReportFiles(row.currentPath, report);
    } catch (error) {
      fileLogger(ctx, row.originalName).error(
        { fileId: row.id, code: 'REPORT_WRITE_FAILED', to: row.currentPath, err: error },
        'the report of the file could not be written; it is kept in the store and written again at the next scan',
      );
      return false;
    }
  }
  if (row.reportPending === 1) markReportWritten(ctx.db, row.id);
  return true;
}

/** Write the reports still pending for this flow. Returns how many were written. */
export async function writePendingReports(ctx: IntakeContext): Promise<number> {
  let written = 0;
  for (const row of listFilesWithPendingReport(ctx.db, ctx.flow.name)) {
    // A file still in processing/ gets its report when recovery finishes its move.
    if (await entryExists(processingPathOf(ctx.dirs, row.id, row.originalName))) continue;
    if (await writeFileReport(ctx, row)) {
      written += 1;
      fileLogger(ctx, row.originalName).info({ fileId: row.id, to: row.currentPath }, 'report written on a later try');
    }
  }
  return written;
}
