/**
 * Queries on `submissions` (the outbox) for recording and reading rows. Claiming and completing
 * rows for delivery live in `outbox.ts`.
 */
import type { Db } from './open-store.js';

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
  const info = db
    .prepare(
      `INSERT INTO submissions (flow, kind, dedupe_key, external_id, order_id, payload, payload_hash, idempotency_key,
                                file_id, source_row, state, attempts, next_attempt_at, created_at, updated_at)
       VALUES (@flow, @kind, @dedupeKey, @externalId, @orderId, @payload, @payloadHash, @idempotencyKey,
               @fileId, @sourceRow, 'pending', 0, @now, @now, @now)`,
    )
    .run({ ...s, orderId: s.orderId ?? null, fileId: s.fileId ?? null, sourceRow: s.sourceRow ?? null });
  return Number(info.lastInsertRowid);
}

export function findSubmissionByDedupeKey(db: Db, flow: string, dedupeKey: string): SubmissionRow | undefined {
  return db.prepare('SELECT * FROM submissions WHERE flow = ? AND dedupe_key = ?').get(flow, dedupeKey) as SubmissionRow | undefined;
}

export function getSubmission(db: Db, id: number): SubmissionRow | undefined {
  return db.prepare('SELECT * FROM submissions WHERE id = ?').get(id) as SubmissionRow | undefined;
}
