/**
 * Queries of the delivery stage on `submissions` (the outbox) and `submission_attempts`:
 * claiming due rows under a lease, recording an attempt together with the row's new state (and
 * its acknowledgement export) in one transaction, requeueing, and the `status` summary.
 */
import type { Db } from './open-store.js';
import { statement, transact, transactImmediate } from './statement.js';
import { enqueueExport, type NewExport } from './exports.js';
import { CLAIMED_COLUMNS, SUBMISSION_COLUMNS, type AttemptField, type ClaimedSubmission, type Submission, type SubmissionState } from './submissions.js';

export interface ClaimOptions {
  flow: string;
  now: number;
  leaseMs: number;
  limit: number;
  /** Rows this process is still sending (their lease may have run out during a slow request). */
  excludeIds?: readonly number[];
}

/**
 * Claim up to `limit` due rows of a flow: pending ones whose time has come, and in-flight ones
 * whose lease ran out (a crash left them; graphile-worker's `resetLockedAt`). One write
 * transaction finds and takes them, so two claimers can never take the same row.
 */
export function claimDueSubmissions(db: Db, options: ClaimOptions): Submission[] {
  return claim<Submission>(db, options, SUBMISSION_COLUMNS);
}

/**
 * `claimDueSubmissions` for delivery: the same claim, returning only what delivery reads, and the
 * payload as the UTF-8 bytes the store holds (sent as they are). Every column returned is a V8
 * value made per row, and a payload a string decoded from UTF-8 here only to be encoded again
 * for the socket: the full row cost about twice these columns a row (docs/performance.md).
 */
export function claimDueToSend(db: Db, options: ClaimOptions): ClaimedSubmission[] {
  return claim<ClaimedSubmission>(db, options, CLAIMED_COLUMNS);
}

/**
 * The ids a claim takes, due first. Two separately limited halves, so each walks
 * `submissions_due` (flow, state, next_attempt_at, created_at) instead of the OR making SQLite read
 * and sort every row of the flow (O(n) per claim, O(n²) per backlog). In-flight rows are few (those
 * claimed and not yet answered, at most 16 a slot), so their half is cheap. The pending half is ordered as the index is, so
 * its LIMIT stops after `limit` entries: ordered by id right after the due time, SQLite sorted every
 * row due at that moment (a whole file's, recorded at once) on every claim. Rows due together go
 * oldest first, by id among those created together. The rows to leave out (`excludeIds`) are
 * left out by the caller, from as many more: a list of ids inside the query is a temporary table
 * (see `claim`).
 */
export const DUE_IDS_SQL = `SELECT id FROM (
       SELECT id FROM submissions WHERE flow = @flow AND state = 'in_flight' AND lease_until <= @now LIMIT @limit)
     UNION ALL
     SELECT id FROM (
       SELECT id FROM submissions WHERE flow = @flow AND state = 'pending' AND next_attempt_at <= @now
       ORDER BY next_attempt_at, created_at, id LIMIT @limit)
     LIMIT @limit`;

/**
 * Take one due row by its id, if it is still due. `first_claimed_at` is set once and never cleared:
 * from this claim on an attempt may reach the platform, and a document seen again counts as sent
 * (`intake/decide-document.ts`).
 */
const takeSql = (columns: string): string => `UPDATE submissions SET state = 'in_flight', lease_until = @leaseUntil, updated_at = @now,
     first_claimed_at = COALESCE(first_claimed_at, @now)
   WHERE id = @id AND ((state = 'pending' AND next_attempt_at <= @now) OR (state = 'in_flight' AND lease_until <= @now))
   RETURNING ${columns}`;

/**
 * The claim: the due ids read, then each row taken by its primary key, in one write transaction.
 * One UPDATE with the ids' query inside (`WHERE id IN (…)`, and the ids to leave out as
 * `json_each`) did the same in one statement, but SQLite ran it by filling temporary tables, each
 * with a page cache of its own, allocated and freed on every claim: 0.3–0.9 ms a claim whatever its
 * size, most of it page faults, which a file of one request paid per request (docs/performance.md,
 * Delivery). The transaction begins IMMEDIATE: it takes the write lock before its read, so no other
 * connection's write can come between the ids read and the rows taken.
 */
function claim<T extends { id: number; nextAttemptAt: number }>(db: Db, options: ClaimOptions, columns: string): T[] {
  if (options.limit <= 0) return [];
  const due = statement(db, DUE_IDS_SQL);
  const take = statement(db, takeSql(columns));
  const params = { flow: options.flow, now: options.now, leaseUntil: options.now + options.leaseMs };
  const rows = transactImmediate(db, () => {
    const exclude = new Set(options.excludeIds);
    const found = due.pluck().all({ ...params, limit: options.limit + exclude.size }) as number[];
    const ids = found.filter((id) => !exclude.has(id)).slice(0, options.limit);
    return ids.map((id) => take.get({ ...params, id }) as T | undefined).filter((row) => row !== undefined);
  });
  return rows.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id);
}

/** One attempt as `submission_attempts` keeps it. */
export interface AttemptRecord {
  requestId: string;
  startedAt: number;
  finishedAt: number;
  httpStatus: number | null;
  /** accepted | retry | rejected | held | paused | dead | aborted */
  outcome: string;
  error: string | null;
  /** The platform's answer to this attempt (its result or problem details), JSON; null when there was none. */
  result?: string | null;
}

/** The row's state after an attempt; every column is written as given. */
export interface SubmissionUpdate extends Pick<ClaimedSubmission, AttemptField> {
  state: SubmissionState;
  finishedAt: number | null;
  now: number;
}

/**
 * Record an attempt, the row's new state and (for a final state) its acknowledgement in ONE
 * transaction: a crash leaves either all three or none. Returns false when the row was no longer
 * in flight (requeued or finished meanwhile by someone else): then nothing is written.
 */
export function recordAttempt(db: Db, submissionId: number, attempt: AttemptRecord, update: SubmissionUpdate, ack?: NewExport): boolean {
  return transact(db, () => writeAttempt(db, submissionId, attempt, update, ack));
}

/** `recordAttempt`'s statements, inside the caller's transaction. */
function writeAttempt(db: Db, submissionId: number, attempt: AttemptRecord, update: SubmissionUpdate, ack?: NewExport): boolean {
  const info = statement(
    db,
    `UPDATE submissions SET state = @state, attempts = @attempts, next_attempt_at = @nextAttemptAt, lease_until = NULL,
         first_attempt_at = @firstAttemptAt, last_attempt_at = @lastAttemptAt, last_status = @lastStatus,
         last_error_code = @lastErrorCode, last_error = @lastError, result = @result, platform_id = @platformId,
         finished_at = @finishedAt, updated_at = @now
       WHERE id = @id AND state = 'in_flight'`,
  ).run({ ...update, id: submissionId });
  if (info.changes !== 1) return false;
  statement(
    db,
    `INSERT INTO submission_attempts (submission_id, request_id, started_at, finished_at, http_status, outcome, error, result)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(submissionId, attempt.requestId, attempt.startedAt, attempt.finishedAt, attempt.httpStatus, attempt.outcome, attempt.error, attempt.result ?? null);
  if (ack) enqueueExport(db, ack);
  return true;
}

/** One attempt to record with its row's new state (and, for a final state, its acknowledgement). */
export interface AttemptToRecord {
  submissionId: number;
  attempt: AttemptRecord;
  update: SubmissionUpdate;
  ack?: NewExport | undefined;
}

/** Per attempt: written, not written (the row was no longer in flight), or the error that stopped it. */
export type RecordedAttempt = { written: boolean } | { error: unknown };

/**
 * Record a group of attempts in ONE transaction. The fast path writes them straight in it; if one
 * of them fails, the group is rolled back and written again with each attempt in its own
 * savepoint, so the one that fails gets `{ error }` and the others are recorded (as the webhook
 * inbox's `recordEvents` does: a savepoint per attempt on every group cost two statements an
 * attempt for a failure that almost never happens). Throws when the transaction itself fails (its
 * commit), without trying again.
 */
export function recordAttempts(db: Db, items: readonly AttemptToRecord[]): RecordedAttempt[] {
  let attemptFailed = false;
  try {
    return transact(db, () =>
      items.map((item): RecordedAttempt => {
        try {
          return { written: writeAttempt(db, item.submissionId, item.attempt, item.update, item.ack) };
        } catch (error) {
          attemptFailed = true;
          throw error;
        }
      }),
    );
  } catch (error) {
    // A failed commit (a full disk, a busy store) would fail again: only one attempt's failure is
    // worth the savepoints.
    if (!attemptFailed) throw error;
    return transact(db, () =>
      items.map((item): RecordedAttempt => {
        try {
          return { written: recordAttempt(db, item.submissionId, item.attempt, item.update, item.ack) };
        } catch (error) {
          return { error };
        }
      }),
    );
  }
}

/**
 * Return in-flight rows of a flow to pending, due now: the dispatcher gave them up without an
 * answer (`ids`), or it is starting and rows left in flight by a crash belong to nobody (no `ids`:
 * one daemon owns a store). Attempts and the age clock are not touched.
 */
export function releaseInFlight(db: Db, flow: string, now: number, ids?: readonly number[]): number {
  const only = ids === undefined ? '' : 'AND id IN (SELECT value FROM json_each(@ids))';
  return statement(
    db,
    `UPDATE submissions SET state = 'pending', lease_until = NULL, next_attempt_at = MIN(next_attempt_at, @now), updated_at = @now
       WHERE flow = @flow AND state = 'in_flight' ${only}`,
  ).run({ flow, now, ids: JSON.stringify(ids ?? []) }).changes;
}

/** Earliest `next_attempt_at` of a flow's pending rows, or null when none waits. */
export function nextDueAt(db: Db, flow: string): number | null {
  const row = statement(db, `SELECT MIN(next_attempt_at) AS at FROM submissions WHERE flow = ? AND state = 'pending'`).get(flow) as { at: number | null };
  return row.at;
}

/** Rows of a flow that are not finished: pending (due or waiting out a backoff) or in flight. */
export function countOutstanding(db: Db, flow: string): number {
  const row = statement(db, `SELECT COUNT(*) AS n FROM submissions WHERE flow = ? AND state IN ('pending', 'in_flight')`).get(flow) as { n: number };
  return row.n;
}

export type RequeueTarget = { externalId: string } | { dead: true } | { rejected: true };

/**
 * Put finished rows back into the outbox: pending, due now, attempts 0, age clock cleared. The
 * row keeps its Idempotency-Key and payload (a changed payload comes through intake with a new key).
 * By externalId only rows that are finished without success (rejected, held, dead) are requeued.
 */
export function requeueSubmissions(db: Db, target: RequeueTarget, now: number, flow?: string): number {
  let where: string;
  if ('externalId' in target) where = `external_id = @externalId AND state IN ('rejected', 'held', 'dead')`;
  else if ('dead' in target) where = `state = 'dead'`;
  else where = `state = 'rejected'`;
  if (flow !== undefined) where += ' AND flow = @flow';
  return statement(
    db,
    `UPDATE submissions SET state = 'pending', next_attempt_at = @now, attempts = 0, first_attempt_at = NULL,
         lease_until = NULL, finished_at = NULL, updated_at = @now
       WHERE ${where}`,
  ).run({ now, flow: flow ?? null, externalId: 'externalId' in target ? target.externalId : null }).changes;
}

// ---------------------------------------------------------------------------------------------
// the `status` summary

export interface StateCount {
  flow: string;
  state: SubmissionState;
  count: number;
}

export interface SubmissionBrief {
  id: number;
  flow: string;
  kind: string;
  externalId: string;
  state: SubmissionState;
  attempts: number;
  lastStatus: number | null;
  errorCode: string | null;
  message: string | null;
  updatedAt: number;
  createdAt: number;
}

/** Rows per flow and state. Staged rows are not counted: they belong to a file still being recorded and may yet vanish with it. */
export function countSubmissionsByState(db: Db): StateCount[] {
  return statement(
    db,
    `SELECT flow, state, COUNT(*) AS count FROM submissions WHERE state != 'staged' GROUP BY flow, state ORDER BY flow, state`,
  ).all() as StateCount[];
}

/** Read from `submissions_due` alone, which holds `created_at` for it (migration 13). */
export const OLDEST_PENDING_SQL = `SELECT flow, MIN(created_at) AS createdAt FROM submissions WHERE state IN ('pending', 'in_flight') GROUP BY flow ORDER BY flow`;

/** Creation time of the oldest pending (or in-flight) row per flow. */
export function oldestPendingByFlow(db: Db): { flow: string; createdAt: number }[] {
  return statement(db, OLDEST_PENDING_SQL).all() as { flow: string; createdAt: number }[];
}

const BRIEF_COLUMNS = `id, flow, kind, external_id AS externalId, state, attempts, last_status AS lastStatus,
  last_error_code AS errorCode, last_error AS message, updated_at AS updatedAt, created_at AS createdAt`;

/** The most recently updated rows that carry an error. */
export function listLastErrors(db: Db, limit = 10): SubmissionBrief[] {
  return statement(db, `SELECT ${BRIEF_COLUMNS} FROM submissions WHERE last_error_code IS NOT NULL ORDER BY updated_at DESC, id DESC LIMIT ?`).all(
    limit,
  ) as SubmissionBrief[];
}

export function listDeadLetters(db: Db, limit = 1000): SubmissionBrief[] {
  return statement(db, `SELECT ${BRIEF_COLUMNS} FROM submissions WHERE state = 'dead' ORDER BY updated_at DESC, id DESC LIMIT ?`).all(
    limit,
  ) as SubmissionBrief[];
}

/** Attempts of one row, oldest first (tests and troubleshooting). */
export function listAttempts(db: Db, submissionId: number): { request_id: string; http_status: number | null; outcome: string; error: string | null }[] {
  return statement(db, `SELECT request_id, http_status, outcome, error FROM submission_attempts WHERE submission_id = ? ORDER BY id`).all(submissionId) as {
    request_id: string;
    http_status: number | null;
    outcome: string;
    error: string | null;
  }[];
}
