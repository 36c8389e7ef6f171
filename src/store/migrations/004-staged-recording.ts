/**
 * Version 4: recording a large file in chunks (`store/record-file.ts`).
 * - A file's new submissions are inserted chunk by chunk with `state = 'staged'`, tied to it by
 *   `file_id`: no delivery query, count or requeue takes that state, so they are invisible until
 *   the file is recorded and they are turned `pending` (or deleted, for a rejected file). The
 *   partial index holds only staged rows, so it stays small, and releasing a file's rows in
 *   short batches finds the next batch without walking past those already released.
 * - A correction of a row that ended `rejected` or `dead` cannot be staged in that row (it is
 *   real, and may be retried meanwhile), so it waits here until the same last transaction.
 */
export const STAGED_RECORDING_SCHEMA = `
CREATE TABLE staged_corrections (
  submission_id    INTEGER PRIMARY KEY REFERENCES submissions (id), -- the rejected or dead row it replaces
  file_id          INTEGER NOT NULL REFERENCES files (id),          -- the file being recorded
  payload          TEXT    NOT NULL,
  payload_hash     TEXT    NOT NULL,
  idempotency_key  TEXT    NOT NULL,                                -- the correction key
  source_row       INTEGER
);
CREATE INDEX staged_corrections_file ON staged_corrections (file_id);
CREATE INDEX submissions_staged ON submissions (file_id) WHERE state = 'staged';
`;
