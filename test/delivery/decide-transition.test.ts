import { describe, expect, it } from 'vitest';
import { buildAckRecord, decideTransition } from '../../src/delivery/decide-transition.js';
import { classifyOutcome, type Classification } from '../../src/platform/classify-failure.js';
import type { ClaimedSubmission } from '../../src/store/submissions.js';

const T = Date.parse('2026-06-12T10:00:00Z');
const backoff = { baseMs: 100, capMs: 1_000, maxAttempts: 5, maxAgeMs: 3_600_000 };
const ctx = (over: Partial<Parameters<typeof decideTransition>[2]> = {}) => ({ backoff, startedAt: T, now: T + 10, random: () => 0.5, ...over });

function row(over: Partial<ClaimedSubmission> = {}): ClaimedSubmission {
  return {
    id: 7,
    kind: 'request',
    externalId: 'E1',
    orderId: null,
    payload: Buffer.from('{}'),
    idempotencyKey: 'k',
    attempts: 0,
    nextAttemptAt: T,
    firstAttemptAt: null,
    lastAttemptAt: null,
    lastStatus: null,
    lastErrorCode: null,
    lastError: null,
    result: null,
    platformId: null,
    ...over,
  };
}
const response = (status: number, body: unknown, headers: Record<string, string> = {}): Classification =>
  classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'response', status, headers, body: JSON.stringify(body) }, T + 10);
const created = { id: 'PRC-REQ-000009', externalId: 'E1', status: 'accepted', createdAt: '2026-06-12T13:00:00+03:00' };

describe('decideTransition', () => {
  it('accepted: final, counts the attempt, starts the age clock, keeps the platform id', () => {
    const t = decideTransition(row(), response(201, created), ctx());
    expect(t.finalState).toBe('accepted');
    expect(t.update).toMatchObject({
      state: 'accepted',
      attempts: 1,
      firstAttemptAt: T,
      finishedAt: T + 10,
      platformId: 'PRC-REQ-000009',
      lastErrorCode: null,
    });
  });

  it('retry: pending again, due after the jittered backoff, or after Retry-After capped at capMs', () => {
    expect(decideTransition(row({ attempts: 2 }), response(500, {}), ctx()).update).toMatchObject({
      state: 'pending',
      attempts: 3,
      nextAttemptAt: T + 10 + 200,
    });
    // Retry-After 0 does not skip the backoff (attempt 1: half of baseMs with random 0.5).
    expect(decideTransition(row(), response(503, {}, { 'retry-after': '0' }), ctx()).update.nextAttemptAt).toBe(T + 10 + 50);
    expect(decideTransition(row(), response(503, {}, { 'retry-after': '120' }), ctx()).update.nextAttemptAt).toBe(T + 10 + 1_000);
  });

  it('dead after maxAttempts, or when the first attempt is older than maxAgeMs', () => {
    const byCount = decideTransition(row({ attempts: 4, firstAttemptAt: T }), response(500, {}), ctx());
    expect(byCount).toMatchObject({ finalState: 'dead', attemptOutcome: 'dead', update: { state: 'dead', attempts: 5, lastErrorCode: 'SUBMISSION_DEAD' } });
    const byAge = decideTransition(row({ attempts: 1, firstAttemptAt: T - 3_600_000 }), response(500, {}), ctx());
    expect(byAge.update).toMatchObject({ state: 'dead', attempts: 2 });
    expect(byAge.update.lastError).toMatch(/age limit/);
    const young = decideTransition(
      row({ attempts: 1, firstAttemptAt: T - 1_000 }),
      response(500, {}),
      ctx({ backoff: { ...backoff, maxAttempts: undefined } }),
    );
    expect(young.update.state).toBe('pending');
  });

  it('paused: the row goes back untouched (no attempt burned, no clock started)', () => {
    const t = decideTransition(row({ attempts: 2, firstAttemptAt: null, nextAttemptAt: T - 5 }), response(401, {}), ctx());
    expect(t.finalState).toBeNull();
    expect(t.update).toMatchObject({ state: 'pending', attempts: 2, firstAttemptAt: null, nextAttemptAt: T - 5, lastErrorCode: 'PLATFORM_UNAUTHORIZED' });
  });

  it('builds the acknowledgement of a rejection with the problem detail and each field error', () => {
    const c = response(422, {
      detail: 'invalid',
      errors: [
        { path: '$.customer.inn', message: 'bad' },
        { path: '$.items[0].unit', message: 'empty' },
      ],
    });
    const t = decideTransition(row(), c, ctx());
    expect(buildAckRecord('f', row(), c, t)).toEqual({
      flow: 'f',
      kind: 'request',
      externalId: 'E1',
      orderId: null,
      status: 'rejected',
      outcome: 'rejected',
      platformId: null,
      createdAt: null,
      updatedAt: null,
      httpStatus: 422,
      errorCode: 'PLATFORM_REJECTED',
      reasons: 'invalid; $.customer.inn: bad; $.items[0].unit: empty',
      finishedAt: new Date(T + 10).toISOString(),
    });
  });
});
