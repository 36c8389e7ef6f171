/**
 * Queries on `staged_corrections` (migration 4): corrections decided while a file is recorded in
 * chunks, waiting for the file's last transaction. The row they replace stays as it is until then.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { SubmissionState } from './submissions.js';

export interface StagedCorrection {
  /** The `rejected` or `dead` row the correction replaces. */
  submissionId: number;
  fileId: number;
  payload: string;
  payloadHash: string;
  /** The correction key: a changed payload never travels under the key of the old one. */
  idempotencyKey: string;
  sourceRow: number | null;
}

/** A staged correction whose row is no longer `rejected` or `dead` (a `retry` requeued it meanwhile). */
export interface LapsedCorrection {
  submissionId: number;
  externalId: string;
  sourceRow: number | null;
  /** The row's state now. */
  state: SubmissionState;
}

export function stageCorrection(db: Db, correction: StagedCorrection): void {
  statement(
    db,
    `INSERT INTO staged_corrections (submission_id, file_id, payload, payload_hash, idempotency_key, source_row)
       VALUES (@submissionId, @fileId, @payload, @payloadHash, @idempotencyKey, @sourceRow)`,
  ).run(correction);
}

/** The file's staged corrections that can no longer be applied. */
export function listLapsedCorrections(db: Db, fileId: number): LapsedCorrection[] {
  return statement(
    db,
    `SELECT c.submission_id AS submissionId, s.external_id AS externalId, c.source_row AS sourceRow, s.state
       FROM staged_corrections c JOIN submissions s ON s.id = c.submission_id
       WHERE c.file_id = ? AND s.state NOT IN ('rejected', 'dead')
       ORDER BY c.source_row`,
  ).all(fileId) as LapsedCorrection[];
}

/**
 * Apply the file's staged corrections to rows still `rejected` or `dead`: each becomes a fresh
 * `pending` row, due now, attempts 0, its delivery history cleared, under its correction key.
 * Returns how many were applied. Call inside the file's last recording transaction.
 */
export function applyStagedCorrections(db: Db, fileId: number, now: number): number {
  return statement(
    db,
    `UPDATE submissions SET payload = c.payload, payload_hash = c.payload_hash, idempotency_key = c.idempotency_key,
            file_id = c.file_id, source_row = c.source_row, state = 'pending', attempts = 0, next_attempt_at = @now,
            lease_until = NULL, first_attempt_at = NULL, last_attempt_at = NULL, last_status = NULL,
            last_error_code = NULL, last_error = NULL, result = NULL, platform_id = NULL,
            updated_at = @now, finished_at = NULL
       FROM staged_corrections c
       WHERE c.file_id = @fileId AND submissions.id = c.submission_id AND submissions.state IN ('rejected', 'dead')`,
  ).run({ fileId, now }).changes;
}

export function deleteStagedCorrectionsOfFile(db: Db, fileId: number): void {
  statement(db, 'DELETE FROM staged_corrections WHERE file_id = ?').run(fileId);
}
