/**
 * What a classified attempt does to an outbox row: its next state, schedule and error, and the
 * acknowledgement record of a final state. Pure (the clock and the random source come in), so
 * the dead-letter rules and the pause rule are table-testable without a platform.
 */
import { computeRetryDelay, type RandomSource } from '../platform/backoff.js';
import type { Classification } from '../platform/classify-failure.js';
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { SubmissionUpdate } from '../store/outbox.js';
import type { SubmissionRow, SubmissionState } from '../store/submissions.js';

export interface Transition {
  update: SubmissionUpdate;
  /** Set when the row reached a final state (it gets an acknowledgement). */
  finalState: Extract<SubmissionState, 'accepted' | 'rejected' | 'held' | 'dead'> | null;
  /** What `submission_attempts.outcome` records: the classification's outcome, or `dead`. */
  attemptOutcome: string;
}

export interface TransitionContext {
  backoff: DeliveryConfig['backoff'];
  /** When the attempt started (the dead-letter clock starts at the first one). */
  startedAt: number;
  now: number;
  random: RandomSource;
}

export function decideTransition(row: SubmissionRow, c: Classification, ctx: TransitionContext): Transition {
  const { now } = ctx;
  const attempts = row.attempts + 1;
  const firstAttemptAt = row.first_attempt_at ?? ctx.startedAt;
  const counted: SubmissionUpdate = {
    state: 'pending',
    attempts,
    nextAttemptAt: row.next_attempt_at,
    firstAttemptAt,
    lastAttemptAt: ctx.startedAt,
    lastStatus: c.httpStatus,
    lastErrorCode: c.code,
    lastError: c.code ? c.reason : null,
    result: c.result ? JSON.stringify(c.result) : row.result,
    platformId: c.platformId ?? row.platform_id,
    finishedAt: null,
    now,
  };

  switch (c.outcome) {
    case 'accepted':
      return { update: { ...counted, state: 'accepted', finishedAt: now }, finalState: 'accepted', attemptOutcome: 'accepted' };
    case 'rejected':
      return { update: { ...counted, state: 'rejected', finishedAt: now }, finalState: 'rejected', attemptOutcome: 'rejected' };
    case 'held':
      return { update: { ...counted, state: 'held', finishedAt: now }, finalState: 'held', attemptOutcome: 'held' };
    case 'paused':
      // The token is the problem, not this row: it goes back untouched (no attempt burned, the
      // dead-letter clock does not move); only the last error tells `status` why it waits.
      return {
        update: {
          ...counted,
          attempts: row.attempts,
          firstAttemptAt: row.first_attempt_at,
          lastAttemptAt: row.last_attempt_at,
          result: row.result,
          platformId: row.platform_id,
        },
        finalState: null,
        attemptOutcome: 'paused',
      };
    case 'retry': {
      const { maxAttempts, maxAgeMs } = ctx.backoff;
      const outOfAttempts = maxAttempts !== undefined && attempts >= maxAttempts;
      const tooOld = now - firstAttemptAt >= maxAgeMs;
      if (outOfAttempts || tooOld) {
        const limit = outOfAttempts ? `the limit of ${maxAttempts} attempts` : `the age limit of ${Math.round(maxAgeMs / 60_000)} min`;
        return {
          update: {
            ...counted,
            state: 'dead',
            lastErrorCode: 'SUBMISSION_DEAD',
            lastError: `Gave up after ${attempts} attempt(s), ${limit}: ${c.reason}`,
            finishedAt: now,
          },
          finalState: 'dead',
          attemptOutcome: 'dead',
        };
      }
      const delay = computeRetryDelay(attempts, c.retryAfterMs, ctx.backoff, ctx.random);
      return { update: { ...counted, nextAttemptAt: now + delay }, finalState: null, attemptOutcome: 'retry' };
    }
  }
}

/** The update for an attempt we abandoned ourselves (stop): back to pending, due now, nothing counted. */
export function abandonedUpdate(row: SubmissionRow, now: number): SubmissionUpdate {
  return {
    state: 'pending',
    attempts: row.attempts,
    nextAttemptAt: now,
    firstAttemptAt: row.first_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastErrorCode: row.last_error_code,
    lastError: row.last_error,
    result: row.result,
    platformId: row.platform_id,
    finishedAt: null,
    now,
  };
}

/** The acknowledgement written back to the ERP for a final state. */
export function buildAckRecord(flow: string, row: SubmissionRow, c: Classification, t: Transition): Record<string, unknown> {
  const result = c.result ?? {};
  const state = t.finalState ?? t.update.state;
  const asText = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    flow,
    kind: row.kind,
    externalId: row.external_id,
    orderId: row.order_id ?? (row.kind === 'request' ? null : row.external_id),
    status: state === 'accepted' ? (c.platformStatus ?? 'accepted') : state,
    outcome: state,
    platformId: t.update.platformId,
    createdAt: asText(result.createdAt),
    updatedAt: asText(result.updatedAt),
    httpStatus: c.httpStatus,
    errorCode: t.update.lastErrorCode,
    reasons: state === 'dead' ? (t.update.lastError ?? '') : c.details,
    finishedAt: new Date(t.update.finishedAt ?? t.update.now).toISOString(),
  };
}
