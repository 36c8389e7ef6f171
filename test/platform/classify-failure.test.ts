import { describe, expect, it } from 'vitest';
import { classifyOutcome, type AttemptOutcome } from '../../src/platform/classify-failure.js';
import { PROBLEM_TYPES } from '../../src/platform/contract.js';

const now = Date.parse('2026-06-12T10:00:00Z');
const REQUEST = { kind: 'request', correction: false, earlierAttempts: 0 } as const;
const problem = (status: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: PROBLEM_TYPES.internal, title: 'x', status, detail: `detail ${status}`, ...extra });
const response = (status: number, body: string, headers: Record<string, string> = {}): AttemptOutcome => ({
  kind: 'response',
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const created = JSON.stringify({ id: 'PRC-REQ-000001', externalId: 'E1', status: 'accepted', createdAt: '2026-06-12T10:00:00+03:00' });
const order = JSON.stringify({ id: 'ORD-2026-000001', status: 'confirmed', supplierOrderId: 'S1', updatedAt: '2026-06-12T10:00:00Z' });

describe('a 409 duplicate externalId', () => {
  const duplicate = (existingRequestId: string) => response(409, problem(409, { type: PROBLEM_TYPES.duplicateExternalId, existingRequestId }));

  it('is held, not delivered, for a correction: the platform holds the earlier version, not the corrected one', () => {
    const c = classifyOutcome({ kind: 'request', correction: true, earlierAttempts: 0 }, duplicate('PRC-REQ-000007'), now);
    expect(c).toMatchObject({ outcome: 'held', code: 'PLATFORM_CONFLICT' });
    expect(c.reason).toMatch(/PRC-REQ-000007.*correction was not applied/);
    expect(c.platformId).toBeUndefined();
  });

  it('is held as uncertain for a correction whose earlier attempt got no answer: the platform may hold either version', () => {
    const c = classifyOutcome({ kind: 'request', correction: true, earlierAttempts: 2 }, duplicate('PRC-REQ-000007'), now);
    expect(c).toMatchObject({ outcome: 'held', code: 'PLATFORM_CONFLICT' });
    expect(c.reason).toMatch(/may hold the correction or the earlier version: check PRC-REQ-000007/);
  });

  it('is held for a confirmation, which has no externalId of its own on the platform', () => {
    expect(classifyOutcome({ kind: 'confirmation', correction: false, earlierAttempts: 0 }, duplicate('PRC-REQ-000007'), now)).toMatchObject({
      outcome: 'held',
      code: 'PLATFORM_CONFLICT',
    });
  });

  it('takes only a request id as the existing id: anything else is held, and is never kept as the platform id', () => {
    for (const id of ['=HYPERLINK("http://evil","x")', 'PRC-REQ-000007\u0007', '', 'ORD-2026-000001', 'x'.repeat(5_000)]) {
      const c = classifyOutcome(REQUEST, duplicate(id), now);
      expect(c, id).toMatchObject({ outcome: 'held', code: 'PLATFORM_CONFLICT' });
      expect(c.platformId, id).toBeUndefined();
      expect(c.reason.length, id).toBeLessThan(400);
    }
  });
});

describe('classifyOutcome', () => {
  it.each<[string, 'request' | 'confirmation', AttemptOutcome, string, string | null]>([
    ['201 created', 'request', response(201, created), 'accepted', null],
    ['201 replayed', 'request', response(201, created, { 'idempotent-replayed': 'true' }), 'accepted', null],
    ['200 confirmed', 'confirmation', response(200, order), 'accepted', null],
    ['201 with a broken body', 'request', response(201, '{"id":"nope"}'), 'held', 'PLATFORM_RESPONSE_INVALID'],
    ['200 not JSON', 'confirmation', response(200, '<html>'), 'held', 'PLATFORM_RESPONSE_INVALID'],
    ['409 in progress', 'request', response(409, problem(409, { type: PROBLEM_TYPES.idempotencyInProgress })), 'retry', 'PLATFORM_UNAVAILABLE'],
    [
      '409 duplicate with existing id',
      'request',
      response(409, problem(409, { type: PROBLEM_TYPES.duplicateExternalId, existingRequestId: 'PRC-REQ-000007' })),
      'accepted',
      null,
    ],
    ['409 duplicate without id', 'request', response(409, problem(409, { type: PROBLEM_TYPES.duplicateExternalId })), 'held', 'PLATFORM_CONFLICT'],
    ['409 other', 'confirmation', response(409, problem(409, { type: 'urn:problem:order-shipped' })), 'held', 'PLATFORM_CONFLICT'],
    ['408', 'request', response(408, ''), 'retry', 'PLATFORM_UNAVAILABLE'],
    ['429', 'request', response(429, problem(429), { 'retry-after': '3' }), 'retry', 'PLATFORM_UNAVAILABLE'],
    ['500', 'request', response(500, problem(500)), 'retry', 'PLATFORM_UNAVAILABLE'],
    ['502 html', 'request', response(502, '<html>bad gateway</html>'), 'retry', 'PLATFORM_UNAVAILABLE'],
    ['503', 'request', response(503, problem(503), { 'retry-after': '1' }), 'retry', 'PLATFORM_UNAVAILABLE'],
    ['400', 'request', response(400, problem(400)), 'rejected', 'PLATFORM_REJECTED'],
    ['404', 'confirmation', response(404, problem(404)), 'rejected', 'PLATFORM_REJECTED'],
    ['413', 'request', response(413, problem(413)), 'rejected', 'PLATFORM_REJECTED'],
    ['415', 'request', response(415, problem(415)), 'rejected', 'PLATFORM_REJECTED'],
    ['422', 'request', response(422, problem(422)), 'rejected', 'PLATFORM_REJECTED'],
    ['401', 'request', response(401, problem(401)), 'paused', 'PLATFORM_UNAUTHORIZED'],
    ['403', 'confirmation', response(403, problem(403)), 'paused', 'PLATFORM_UNAUTHORIZED'],
    [
      'connection reset',
      'request',
      { kind: 'error', error: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) },
      'retry',
      'PLATFORM_UNAVAILABLE',
    ],
    [
      'headers timeout',
      'request',
      { kind: 'error', error: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) },
      'retry',
      'PLATFORM_UNAVAILABLE',
    ],
  ])('%s → %s', (_name, kind, attempt, outcome, code) => {
    const c = classifyOutcome({ kind, correction: false, earlierAttempts: 0 }, attempt, now);
    expect(c.outcome).toBe(outcome);
    expect(c.code).toBe(code);
    expect(c.reason.length).toBeGreaterThan(0);
  });

  it('keeps id, status and timestamps of an accepted request and marks a replay', () => {
    const c = classifyOutcome(REQUEST, response(201, created, { 'idempotent-replayed': 'true' }), now);
    expect(c.platformId).toBe('PRC-REQ-000001');
    expect(c.platformStatus).toBe('accepted');
    expect(c.result).toEqual({ id: 'PRC-REQ-000001', externalId: 'E1', status: 'accepted', createdAt: '2026-06-12T10:00:00+03:00', replayed: true });
  });

  it('names the existing request of a duplicate externalId as the platform id', () => {
    const body = problem(409, { type: PROBLEM_TYPES.duplicateExternalId, existingRequestId: 'PRC-REQ-000007' });
    expect(classifyOutcome(REQUEST, response(409, body), now)).toMatchObject({ platformId: 'PRC-REQ-000007', platformStatus: 'accepted' });
  });

  it('keeps the problem details of a rejection and lists each field error in the reason', () => {
    const body = problem(422, {
      type: PROBLEM_TYPES.validation,
      detail: 'The request is invalid',
      errors: [
        { path: '$.customer.inn', message: 'must be 10 or 12 digits' },
        { path: '$.items[0].quantity', message: 'must be greater than zero' },
      ],
    });
    const c = classifyOutcome(REQUEST, response(422, body), now);
    expect(c.result).toMatchObject({ type: PROBLEM_TYPES.validation, errors: [{ path: '$.customer.inn' }, { path: '$.items[0].quantity' }] });
    expect(c.reason).toContain('The request is invalid; $.customer.inn: must be 10 or 12 digits; $.items[0].quantity: must be greater than zero');
  });

  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(classifyOutcome(REQUEST, response(503, problem(503), { 'retry-after': '7' }), now).retryAfterMs).toBe(7_000);
    const date = new Date(now + 20_000).toUTCString();
    expect(classifyOutcome(REQUEST, response(429, problem(429), { 'retry-after': date }), now).retryAfterMs).toBe(20_000);
  });

  it('counts outages toward the circuit breaker, but not in-progress, verdicts or auth failures', () => {
    expect(classifyOutcome(REQUEST, response(503, ''), now).countsAsPlatformFailure).toBe(true);
    expect(classifyOutcome(REQUEST, { kind: 'error', error: new Error('ECONNREFUSED') }, now).countsAsPlatformFailure).toBe(true);
    expect(classifyOutcome(REQUEST, response(409, problem(409, { type: PROBLEM_TYPES.idempotencyInProgress })), now).countsAsPlatformFailure).toBe(false);
    expect(classifyOutcome(REQUEST, response(422, problem(422)), now).countsAsPlatformFailure).toBe(false);
    expect(classifyOutcome(REQUEST, response(401, problem(401)), now).countsAsPlatformFailure).toBe(false);
  });

  it('never carries a token from an error message into the reason', () => {
    const error = new Error('connect ECONNREFUSED for http://h/api-gateway/api/v1/secret-token-123/requests');
    expect(classifyOutcome(REQUEST, { kind: 'error', error }, now).reason).not.toContain('secret-token-123');
  });
});
