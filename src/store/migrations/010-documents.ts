/**
 * Version 10: documents with an identity of their own (`document.id` in a mapping: 1C's `Ссылка`),
 * seen again, edited and withdrawn (`intake/decide-document.ts`).
 * - `submissions.document_number`, `document_date`: the number and date the buyer sees now (a
 *   document renumbered in 1C keeps its row and its key; only these change).
 * - `submissions.content_hash`: SHA-256 of the payload without its `externalId`, so that a
 *   renumbered document with the same content is told from a changed one.
 * - `submissions.first_claimed_at`: set by delivery's first claim and never cleared, not even by a
 *   requeue: from then on an attempt may have reached the platform, and the row counts as sent.
 *   Rows recorded before this version are taken as sent (nothing tells otherwise).
 * - `staged_corrections.action` and its columns: what a document seen again does to its row
 *   (`correct`, `replace`, `renumber`, `withdraw`), applied by the transaction that decides the file.
 * - `document_notices`: what a person must hear of a document (changed or withdrawn after it was
 *   sent; a problem that stays until 1C sends the document again), one open notice per document
 *   and kind.
 */
export const DOCUMENTS_SCHEMA = `
ALTER TABLE submissions ADD COLUMN document_number TEXT;
ALTER TABLE submissions ADD COLUMN document_date TEXT;
ALTER TABLE submissions ADD COLUMN content_hash TEXT;
ALTER TABLE submissions ADD COLUMN first_claimed_at INTEGER;
UPDATE submissions SET first_claimed_at = COALESCE(first_attempt_at, updated_at) WHERE state != 'staged';

ALTER TABLE staged_corrections ADD COLUMN action TEXT NOT NULL DEFAULT 'correct';
ALTER TABLE staged_corrections ADD COLUMN external_id TEXT;
ALTER TABLE staged_corrections ADD COLUMN document_id TEXT;
ALTER TABLE staged_corrections ADD COLUMN document_number TEXT;
ALTER TABLE staged_corrections ADD COLUMN document_date TEXT;
ALTER TABLE staged_corrections ADD COLUMN content_hash TEXT;
ALTER TABLE staged_corrections ADD COLUMN note TEXT;

CREATE TABLE document_notices (
  id               INTEGER PRIMARY KEY,
  flow             TEXT    NOT NULL,
  document_id      TEXT    NOT NULL,
  kind             TEXT    NOT NULL,            -- NOTICE_KIND: edited | withdrawn | problem
  submission_id    INTEGER REFERENCES submissions (id),
  document_number  TEXT,
  detail           TEXT    NOT NULL,            -- JSON, by kind (document-notices.ts)
  file_id          INTEGER REFERENCES files (id),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  resolved_at      INTEGER,
  resolution       TEXT                         -- seen-again | matches-sent | posted-again | superseded | operator
);
CREATE UNIQUE INDEX document_notices_open ON document_notices (flow, document_id, kind) WHERE resolved_at IS NULL;
CREATE INDEX document_notices_flow ON document_notices (flow, resolved_at, id);
CREATE INDEX document_notices_file ON document_notices (file_id);
CREATE INDEX submissions_document_number ON submissions (flow, document_number) WHERE document_number IS NOT NULL;
`;
