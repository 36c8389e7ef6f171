/**
 * Queries on `submissions` (the outbox) for recording and reading rows. Claiming and completing
 * rows for delivery live in `outbox.ts`.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/** Life of a submission. `pending` rows are due at `next_attempt_at`; finished states never change on their own. */
export const SUBMISSION_STATE = {
  pending: 'pending',
  inFlight: 'in_flight',
  accepted: 'accepted',
  rejected: 'rejected',
  /** Needs a person: e.g. a 409 for a duplicate externalId that names no existing request. */
  held: 'held',
  dead: 'dead',
} as const;
export type SubmissionState = (typeof SUBMISSION_STATE)[keyof typeof SUBMISSION_STATE];

export const FINAL_SUBMISSION_STATES: readonly SubmissionState[] = ['accepted', 'rejected', 'held', 'dead'];

export interface SubmissionRow {
  id: number;
  flow: string;
  kind: 'request' | 'confirmation';
  dedupe_key: string;
  external_id: string;
  order_id: string | null;
  payload: string;
  payload_hash: string;
  idempotency_key: string;
  file_id: number | null;
  source_row: number | null;
  state: SubmissionState;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error_code: string | null;
  last_error: string | null;
  result: string | null;
  platform_id: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface NewSubmission {
  flow: string;
  kind: 'request' | 'confirmation';
  dedupeKey: string;
  externalId: string;
  orderId?: string | null;
  payload: string;
  payloadHash: string;
  idempotencyKey: string;
  fileId?: number | null;
  sourceRow?: number | null;
  now: number;
}

/** Insert a pending row, due now. Throws on a UNIQUE conflict: call inside the recording transaction. */
export function insertSubmission(db: Db, s: NewSubmission): number {
  const info = statement(
    db,
    `INSERT INTO submissions (flow, kind, dedupe_key, external_id, order_id, payload, payload_hash, idempotency_key,
                                file_id, source_row, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES (@flow, @kind, @dedupeKey, @externalId, @orderId, @payload, @payloadHash, @idempotencyKey,
               @fileId, @sourceRow, 'pending', 0, @now, @now, @now)`,
  ).run({ ...s, orderId: s.orderId ?? null, fileId: s.fileId ?? null, sourceRow: s.sourceRow ?? null });
  return Number(info.lastInsertRowid);
}

export function findSubmissionByDedupeKey(db: Db, flow: string, dedupeKey: string): SubmissionRow | undefined {
  return statement(db, 'SELECT * FROM submissions WHERE flow = ? AND dedupe_key = ?').get(flow, dedupeKey) as SubmissionRow | undefined;
}

export function getSubmission(db: Db, id: number): SubmissionRow | undefined {
  return statement(db, 'SELECT * FROM submissions WHERE id = ?').get(id) as SubmissionRow | undefined;
}

export interface SubmissionCorrection {
  payload: string;
  payloadHash: string;
  /** A new key: a changed payload must never be sent under the key of the old one. */
  idempotencyKey: string;
  fileId: number | null;
  sourceRow: number | null;
  now: number;
}

/**
 * Replace the payload of a row that ended `rejected` or `dead` (a corrected file dropped again):
 * it becomes a fresh `pending` row, due now, attempts 0, with a new idempotency key. Returns false
 * when the row is no longer final-and-failed. Call inside the recording transaction.
 */
export function correctFailedSubmission(db: Db, id: number, c: SubmissionCorrection): boolean {
  const info = statement(
    db,
    `UPDATE submissions SET payload = @payload, payload_hash = @payloadHash, idempotency_key = @idempotencyKey,
              file_id = @fileId, source_row = @sourceRow, state = 'pending', attempts = 0, next_attempt_at = @now,
              lease_until = NULL, first_attempt_at = NULL, last_attempt_at = NULL, last_status = NULL,
              last_error_code = NULL, last_error = NULL, result = NULL, platform_id = NULL,
              updated_at = @now, finished_at = NULL
       WHERE id = @id AND state IN ('rejected', 'dead')`,
  ).run({ ...c, id });
  return info.changes === 1;
}

/** Submissions recorded (or last corrected) from one file, in file order. */
export function listSubmissionsOfFile(db: Db, fileId: number): SubmissionRow[] {
  return statement(db, 'SELECT * FROM submissions WHERE file_id = ? ORDER BY source_row, id').all(fileId) as SubmissionRow[];
}

/** A flow's submissions, oldest first (for `status` and tests). */
export function listSubmissionsOfFlow(db: Db, flow: string, limit = 1000): SubmissionRow[] {
  return statement(db, 'SELECT * FROM submissions WHERE flow = ? ORDER BY id LIMIT ?').all(flow, limit) as SubmissionRow[];
}
