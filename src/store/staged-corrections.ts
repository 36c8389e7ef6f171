/**
 * Queries on `staged_corrections` (migrations 4 and 10): changes to rows the outbox already holds,
 * decided while a file is recorded, waiting for the file's last transaction. The row they change
 * stays as it is until then, and is changed only if it is still in a state the change is for: a
 * row delivery claimed meanwhile may have reached the platform, and the change then lapses (the
 * plan turns it into a conflict or a notice, `intake/plan-file.ts`).
 *
 * | action     | applied to a row that is…                         | what it does                                                   |
 * |------------|---------------------------------------------------|----------------------------------------------------------------|
 * | `correct`  | rejected or dead                                  | the new payload, under its correction key, pending again       |
 * | `replace`  | pending and never claimed, or withdrawn           | the document's new version, under the row's own key, pending   |
 * | `renumber` | any (also every `replace`, applied or lapsed)     | the document's number and date (and its identity as the key of |
 * |            |                                                   | a request recorded before documents had one)                   |
 * | `withdraw` | pending and never claimed, or rejected            | withdrawn: never sent                                          |
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { SubmissionState } from './submissions.js';

export type CorrectionAction = 'correct' | 'replace' | 'renumber' | 'withdraw';

export interface StagedCorrection {
  /** The row the change is for. */
  submissionId: number;
  fileId: number;
  action: CorrectionAction;
  payload: string;
  payloadHash: string;
  /** A correction's new key (a changed payload never travels under the key of the old one); a replacement's own. */
  idempotencyKey: string;
  sourceRow: number | null;
  externalId?: string | null;
  /** A document's identity: a request recorded before it had one takes it as its dedupe key. */
  documentId?: string | null;
  documentNumber?: string | null;
  documentDate?: string | null;
  contentHash?: string | null;
  /** `withdraw`: why, for the row's last error. */
  note?: string | null;
}

/** A staged change whose row is no longer in a state it applies to (a claim or a `retry` came first). */
export interface LapsedCorrection {
  submissionId: number;
  action: CorrectionAction;
  externalId: string;
  sourceRow: number | null;
  /** The row's state now. */
  state: SubmissionState;
  /** `replace`: the row's payload and content hash now, the new ones, and the document's new number. */
  payload: string;
  contentHash: string | null;
  newPayload: string;
  newContentHash: string | null;
  documentId: string;
  documentNumber: string | null;
  platformId: string | null;
}

/** When each action applies, as SQL on the row (`s`). */
const APPLIES = {
  correct: `s.state IN ('rejected', 'dead')`,
  replace: `((s.state = 'pending' AND s.first_claimed_at IS NULL) OR s.state = 'withdrawn')`,
  withdraw: `((s.state = 'pending' AND s.first_claimed_at IS NULL) OR s.state = 'rejected')`,
} as const;

export function stageCorrection(db: Db, correction: StagedCorrection): void {
  statement(
    db,
    `INSERT INTO staged_corrections (submission_id, file_id, action, payload, payload_hash, idempotency_key, source_row,
                                     external_id, document_id, document_number, document_date, content_hash, note)
       VALUES (@submissionId, @fileId, @action, @payload, @payloadHash, @idempotencyKey, @sourceRow,
               @externalId, @documentId, @documentNumber, @documentDate, @contentHash, @note)`,
  ).run({ externalId: null, documentId: null, documentNumber: null, documentDate: null, contentHash: null, note: null, ...correction });
}

/** The file's staged changes that can no longer be applied (call before `applyStagedCorrections`). */
export function listLapsedCorrections(db: Db, fileId: number): LapsedCorrection[] {
  return statement(
    db,
    `SELECT c.submission_id AS submissionId, c.action, s.external_id AS externalId, c.source_row AS sourceRow, s.state,
            s.payload, s.content_hash AS contentHash, c.payload AS newPayload, c.content_hash AS newContentHash,
            s.dedupe_key AS documentId, COALESCE(c.document_number, s.document_number) AS documentNumber, s.platform_id AS platformId
       FROM staged_corrections c JOIN submissions s ON s.id = c.submission_id
       WHERE c.file_id = ? AND (
         (c.action = 'correct' AND NOT ${APPLIES.correct}) OR
         (c.action = 'replace' AND NOT ${APPLIES.replace}) OR
         (c.action = 'withdraw' AND NOT ${APPLIES.withdraw}))
       ORDER BY c.source_row`,
  ).all(fileId) as LapsedCorrection[];
}

/**
 * Apply the file's staged changes to the rows still in a state they apply to; corrections and
 * replacements make a fresh `pending` row, due now, attempts 0, its delivery history cleared.
 * Returns how many rows will be sent again (corrected or replaced). Call inside the file's last
 * recording transaction.
 */
export function applyStagedCorrections(db: Db, fileId: number, now: number): number {
  const fresh = `state = 'pending', attempts = 0, next_attempt_at = @now, lease_until = NULL, first_attempt_at = NULL, last_attempt_at = NULL,
            last_status = NULL, last_error_code = NULL, last_error = NULL, result = NULL, platform_id = NULL, updated_at = @now, finished_at = NULL`;
  const corrected = statement(
    db,
    `UPDATE submissions AS s SET payload = c.payload, payload_hash = c.payload_hash, idempotency_key = c.idempotency_key,
            file_id = c.file_id, source_row = c.source_row, ${fresh}
       FROM staged_corrections c
       WHERE c.file_id = @fileId AND c.action = 'correct' AND s.id = c.submission_id AND ${APPLIES.correct}`,
  ).run({ fileId, now }).changes;
  // A request recorded before its document had an identity takes it as its key now, with its content hash.
  statement(
    db,
    `UPDATE submissions AS s SET document_number = c.document_number, document_date = c.document_date, updated_at = @now,
            dedupe_key = COALESCE(c.document_id, s.dedupe_key), content_hash = COALESCE(s.content_hash, c.content_hash)
       FROM staged_corrections c
       WHERE c.file_id = @fileId AND c.action IN ('renumber', 'replace') AND s.id = c.submission_id`,
  ).run({ fileId, now });
  const replaced = statement(
    db,
    `UPDATE submissions AS s SET payload = c.payload, payload_hash = c.payload_hash, content_hash = c.content_hash, external_id = c.external_id,
            file_id = c.file_id, source_row = c.source_row, ${fresh}
       FROM staged_corrections c
       WHERE c.file_id = @fileId AND c.action = 'replace' AND s.id = c.submission_id AND ${APPLIES.replace}`,
  ).run({ fileId, now }).changes;
  statement(
    db,
    `UPDATE submissions AS s SET state = 'withdrawn', lease_until = NULL, last_error_code = 'DOCUMENT_WITHDRAWN', last_error = c.note,
            updated_at = @now, finished_at = @now
       FROM staged_corrections c
       WHERE c.file_id = @fileId AND c.action = 'withdraw' AND s.id = c.submission_id AND ${APPLIES.withdraw}`,
  ).run({ fileId, now });
  return corrected + replaced;
}

/** Has the file staged any change (by `staged_corrections_file`)? */
export function hasStagedCorrections(db: Db, fileId: number): boolean {
  return statement(db, 'SELECT 1 FROM staged_corrections WHERE file_id = ? LIMIT 1').get(fileId) !== undefined;
}

export function deleteStagedCorrectionsOfFile(db: Db, fileId: number): void {
  statement(db, 'DELETE FROM staged_corrections WHERE file_id = ?').run(fileId);
}
