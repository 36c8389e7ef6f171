/**
 * Queries on `submissions` (the outbox) for recording and reading rows. Claiming and completing
 * rows for delivery live in `outbox.ts`.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/**
 * Life of a submission. `pending` rows are due at `next_attempt_at`; finished states never change on
 * their own. `staged` rows belong to a file still being recorded (`record-file.ts`): nothing but that
 * recording reads, counts or changes them, and they become `pending` or vanish with its outcome.
 */
export const SUBMISSION_STATE = {
  staged: 'staged',
  pending: 'pending',
  inFlight: 'in_flight',
  accepted: 'accepted',
  rejected: 'rejected',
  /** Needs a person: e.g. a 409 for a duplicate externalId that names no existing request. */
  held: 'held',
  dead: 'dead',
  /** Never sent: its document was withdrawn (unposted or deleted) in its source system first (`intake/decide-document.ts`). */
  withdrawn: 'withdrawn',
} as const;
export type SubmissionState = (typeof SUBMISSION_STATE)[keyof typeof SUBMISSION_STATE];

export const FINAL_SUBMISSION_STATES: readonly SubmissionState[] = ['accepted', 'rejected', 'held', 'dead', 'withdrawn'];

/** A submission as it leaves the store (camelCase: `SUBMISSION_COLUMNS` aliases the columns). */
export interface Submission {
  id: number;
  flow: string;
  kind: 'request' | 'confirmation';
  dedupeKey: string;
  externalId: string;
  orderId: string | null;
  payload: string;
  payloadHash: string;
  idempotencyKey: string;
  fileId: number | null;
  sourceRow: number | null;
  state: SubmissionState;
  attempts: number;
  nextAttemptAt: number;
  leaseUntil: number | null;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastErrorCode: string | null;
  lastError: string | null;
  result: string | null;
  platformId: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** Documents (`document:` of a mapping): the number and date the buyer sees now. */
  documentNumber: string | null;
  documentDate: string | null;
  /** Documents: SHA-256 of the payload without its externalId. */
  contentHash: string | null;
  /** Set by delivery's first claim, never cleared: from then on an attempt may have reached the platform. */
  firstClaimedAt: number | null;
}

/** The columns of `submissions`, aliased to `Submission`'s names (for SELECT and RETURNING). */
export const SUBMISSION_COLUMNS = `id, flow, kind, dedupe_key AS dedupeKey, external_id AS externalId, order_id AS orderId, payload,
  payload_hash AS payloadHash, idempotency_key AS idempotencyKey, file_id AS fileId, source_row AS sourceRow, state, attempts,
  next_attempt_at AS nextAttemptAt, lease_until AS leaseUntil, first_attempt_at AS firstAttemptAt, last_attempt_at AS lastAttemptAt,
  last_status AS lastStatus, last_error_code AS lastErrorCode, last_error AS lastError, result, platform_id AS platformId,
  created_at AS createdAt, updated_at AS updatedAt, finished_at AS finishedAt, document_number AS documentNumber,
  document_date AS documentDate, content_hash AS contentHash, first_claimed_at AS firstClaimedAt`;

/**
 * A claimed row as delivery reads it: what it sends (the payload as the UTF-8 bytes the store
 * holds), and what an attempt's outcome is decided from. The store keeps its column names to
 * itself (`CLAIMED_COLUMNS`).
 */
export type ClaimedSubmission = Pick<Submission, 'id' | 'kind' | 'externalId' | 'orderId' | 'idempotencyKey' | AttemptField> & { payload: Uint8Array };

/** What an attempt's outcome sets on a row: read from a claimed row, written back by `recordAttempts`. */
export type AttemptField =
  'attempts' | 'nextAttemptAt' | 'firstAttemptAt' | 'lastAttemptAt' | 'lastStatus' | 'lastErrorCode' | 'lastError' | 'result' | 'platformId';

/** The columns of a `ClaimedSubmission`, aliased (for RETURNING): the payload read as a BLOB, so SQLite hands its bytes over undecoded. */
export const CLAIMED_COLUMNS = `id, kind, external_id AS externalId, order_id AS orderId, CAST(payload AS BLOB) AS payload,
  idempotency_key AS idempotencyKey, attempts, next_attempt_at AS nextAttemptAt, first_attempt_at AS firstAttemptAt,
  last_attempt_at AS lastAttemptAt, last_status AS lastStatus, last_error_code AS lastErrorCode, last_error AS lastError, result,
  platform_id AS platformId`;

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
  /** `staged` while its file is still being recorded (it then needs `fileId`). Default `pending`. */
  state?: 'pending' | 'staged';
  now: number;
  documentNumber?: string | null;
  documentDate?: string | null;
  contentHash?: string | null;
}

/** Insert a row, due now (pending unless staged). Throws on a UNIQUE conflict: call inside a recording transaction. */
export function insertSubmission(db: Db, submission: NewSubmission): number {
  const info = statement(
    db,
    `INSERT INTO submissions (flow, kind, dedupe_key, external_id, order_id, payload, payload_hash, idempotency_key,
                                file_id, source_row, state, attempts, next_attempt_at, created_at, updated_at,
                                document_number, document_date, content_hash)
       VALUES (@flow, @kind, @dedupeKey, @externalId, @orderId, @payload, @payloadHash, @idempotencyKey,
               @fileId, @sourceRow, @state, 0, @now, @now, @now, @documentNumber, @documentDate, @contentHash)`,
  ).run({
    ...submission,
    orderId: submission.orderId ?? null,
    fileId: submission.fileId ?? null,
    sourceRow: submission.sourceRow ?? null,
    state: submission.state ?? 'pending',
    documentNumber: submission.documentNumber ?? null,
    documentDate: submission.documentDate ?? null,
    contentHash: submission.contentHash ?? null,
  });
  return Number(info.lastInsertRowid);
}

export function findSubmissionByDedupeKey(db: Db, flow: string, dedupeKey: string): Submission | undefined {
  return statement(db, `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE flow = ? AND dedupe_key = ?`).get(flow, dedupeKey) as Submission | undefined;
}

/** A document's number and date, to find the request recorded for it before documents had an identity. */
export interface LegacyKey {
  number: string;
  /** The document's own date (epoch ms of its day): a request recorded before it cannot be of it. */
  datedAt: number;
}

/**
 * A request recorded before its mapping gave documents an identity (`document.id`), under the
 * document's number as its dedupe key (no content hash), and recorded on or after the document's
 * date: 1C reuses a number every year, and January's order is not last December's. A document seen
 * again under its identity is looked up so, and then takes the identity as its key
 * (`staged-corrections.ts`).
 */
export function findLegacySubmission(db: Db, flow: string, key: LegacyKey): Submission | undefined {
  return statement(
    db,
    `SELECT ${SUBMISSION_COLUMNS} FROM submissions
       WHERE flow = ? AND dedupe_key = ? AND kind = 'request' AND content_hash IS NULL AND created_at >= ?`,
  ).get(flow, key.number, key.datedAt) as Submission | undefined;
}

export function getSubmission(db: Db, id: number): Submission | undefined {
  return statement(db, `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE id = ?`).get(id) as Submission | undefined;
}

/**
 * Make up to `limit` of a file's staged rows real: `pending`, due from when they were staged.
 * Only for a file recorded `archived` (anything else keeps them staged). Returns how many. Nothing
 * waits for it to be durable: a release lost to a power cut is done again from the file row.
 */
export function releaseStagedSubmissions(db: Db, fileId: number, limit: number, now: number): number {
  return releaseStagedBatch(db, fileId, limit, now);
}

function releaseStagedBatch(db: Db, fileId: number, limit: number, now: number): number {
  return statement(
    db,
    `UPDATE submissions SET state = 'pending', updated_at = @now
       WHERE id IN (SELECT id FROM submissions WHERE file_id = @fileId AND state = 'staged' LIMIT @limit)
         AND EXISTS (SELECT 1 FROM files WHERE id = @fileId AND state = 'archived')`,
  ).run({ fileId, limit, now }).changes;
}

/** Delete up to `limit` of a file's staged rows; never those of a file recorded `archived` (they are its requests). Returns how many. */
export function deleteStagedSubmissions(db: Db, fileId: number, limit: number): number {
  return statement(
    db,
    `DELETE FROM submissions
       WHERE id IN (SELECT id FROM submissions WHERE file_id = @fileId AND state = 'staged' LIMIT @limit)
         AND NOT EXISTS (SELECT 1 FROM files WHERE id = @fileId AND state = 'archived')`,
  ).run({ fileId, limit }).changes;
}

export function countStagedSubmissions(db: Db, fileId: number): number {
  return (statement(db, `SELECT COUNT(*) AS n FROM submissions WHERE file_id = ? AND state = 'staged'`).get(fileId) as { n: number }).n;
}

/** A flow's submissions, oldest first (for `status` and tests). */
export function listSubmissionsOfFlow(db: Db, flow: string, limit = 1000): Submission[] {
  return statement(db, `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE flow = ? ORDER BY id LIMIT ?`).all(flow, limit) as Submission[];
}
