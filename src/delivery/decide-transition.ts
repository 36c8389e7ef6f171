/**
 * What a classified attempt does to an outbox row: its next state, schedule and error, and the
 * acknowledgement record of a final state. Pure (the clock and the random source come in), so
 * the dead-letter rules and the pause rule are table-testable without a platform.
 */
import { computeRetryDelay, type RandomSource } from '../platform/backoff.js';
import type { Classification } from '../platform/classify-failure.js';
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { SubmissionUpdate } from '../store/outbox.js';
import type { ClaimedSubmission, SubmissionState } from '../store/submissions.js';

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

export function decideTransition(row: ClaimedSubmission, classification: Classification, ctx: TransitionContext): Transition {
  const { now } = ctx;
  const attempts = row.attempts + 1;
  const firstAttemptAt = row.firstAttemptAt ?? ctx.startedAt;
  const counted: SubmissionUpdate = {
    state: 'pending',
    attempts,
    nextAttemptAt: row.nextAttemptAt,
    firstAttemptAt,
    lastAttemptAt: ctx.startedAt,
    lastStatus: classification.httpStatus,
    lastErrorCode: classification.code,
    lastError: classification.code ? classification.reason : null,
    result: classification.result ? JSON.stringify(classification.result) : row.result,
    platformId: classification.platformId ?? row.platformId,
    finishedAt: null,
    now,
  };

  switch (classification.outcome) {
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
          firstAttemptAt: row.firstAttemptAt,
          lastAttemptAt: row.lastAttemptAt,
          result: row.result,
          platformId: row.platformId,
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
            lastError: `Gave up after ${attempts} attempt(s), ${limit}: ${classification.reason}`,
            finishedAt: now,
          },
          finalState: 'dead',
          attemptOutcome: 'dead',
        };
      }
      const delay = computeRetryDelay(attempts, classification.retryAfterMs, ctx.backoff, ctx.random);
      return { update: { ...counted, nextAttemptAt: now + delay }, finalState: null, attemptOutcome: 'retry' };
    }
  }
}

/** The update for an attempt we abandoned ourselves (stop): back to pending, due now, nothing counted. */
export function abandonedUpdate(row: ClaimedSubmission, now: number): SubmissionUpdate {
  return {
    state: 'pending',
    attempts: row.attempts,
    nextAttemptAt: now,
    firstAttemptAt: row.firstAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    lastStatus: row.lastStatus,
    lastErrorCode: row.lastErrorCode,
    lastError: row.lastError,
    result: row.result,
    platformId: row.platformId,
    finishedAt: null,
    now,
  };
}

/** The acknowledgement written back to the ERP for a final state. */
export function buildAckRecord(flow: string, row: ClaimedSubmission, classification: Classification, transition: Transition): Record<string, unknown> {
  const result = classification.result ?? {};
  const state = transition.finalState ?? transition.update.state;
  const asText = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    flow,
    kind: row.kind,
    externalId: row.externalId,
    orderId: row.orderId ?? (row.kind === 'request' ? null : row.externalId),
    status: state === 'accepted' ? (classification.platformStatus ?? 'accepted') : state,
    outcome: state,
    platformId: transition.update.platformId,
    createdAt: asText(result.createdAt),
    updatedAt: asText(result.updatedAt),
    httpStatus: classification.httpStatus,
    errorCode: transition.update.lastErrorCode,
    reasons: state === 'dead' ? (transition.update.lastError ?? '') : classification.details,
    finishedAt: new Date(transition.update.finishedAt ?? transition.update.now).toISOString(),
  };
}
