/**
 * Version 2: what the trust-boundary hardening needs to keep on the rows.
 * - `exports.error`: why a row was set aside (`state = 'set_aside'`) instead of written: a
 *   permanent write error that no fallback name fixed. Such a row never blocks its channel again.
 * - `files.report_pending`: 1 while the error report of a recorded file is not yet on disk; the
 *   report is written again from `files.report` until it is (a failed report is never lost).
 */
export const HARDENING_SCHEMA = `
ALTER TABLE exports ADD COLUMN error TEXT;
ALTER TABLE files ADD COLUMN report_pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX files_report_pending ON files (report_pending) WHERE report_pending = 1;
`;
