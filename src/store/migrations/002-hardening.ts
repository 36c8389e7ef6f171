/**
 * Version 2: what the trust-boundary hardening needs to keep on the rows.
 * - `exports.error`: why a row's first file name failed for good (it then moved to a fallback
 *   name), or, on a row set aside (`state = 'set_aside'`), why even the fallback failed. A
 *   set-aside row never blocks its channel again.
 * - `files.report_pending`: 1 while the error report of a recorded file is not yet on disk; the
 *   report is written again from `files.report` until it is (a failed report is never lost).
 */
export const HARDENING_SCHEMA = `
ALTER TABLE exports ADD COLUMN error TEXT;
ALTER TABLE files ADD COLUMN report_pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX files_report_pending ON files (report_pending) WHERE report_pending = 1;
`;
