import { describe, expect, it } from 'vitest';
import {
  claimDueSubmissions,
  claimDueToSend,
  DUE_IDS_SQL,
  OLDEST_PENDING_SQL,
  oldestPendingByFlow,
  recordAttempt,
  recordAttempts,
  releaseInFlight,
  requeueSubmissions,
} from '../../src/store/outbox.js';
import { getSubmission } from '../../src/store/submissions.js';
import { readOutboxStatus, formatOutboxStatus } from '../../src/delivery/outbox-status.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';

const T = 1_000_000;

/** A row's new state after a first attempt the platform accepted. */
function acceptedUpdate(platformId: string) {
  return {
    state: 'accepted' as const,
    attempts: 1,
    nextAttemptAt: T,
    firstAttemptAt: T,
    lastAttemptAt: T,
    lastStatus: 201,
    lastErrorCode: null,
    lastError: null,
    result: '{}',
    platformId,
    finishedAt: T,
    now: T,
  };
}

describe('outbox queries', () => {
  it('hands delivery a claimed row with its payload as the UTF-8 bytes the store holds, and nothing delivery does not read', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const payload = validRequest('ЗК-1', { comment: 'кавычки "так", эмодзи 📦, обратная косая \\' });
        const id = addRequestRow(db, 'f', payload, 'ЗК-1', T);
        const [row, ...others] = claimDueToSend(db, { flow: 'f', now: T, leaseMs: 100, limit: 10 });
        expect(others).toEqual([]);
        expect(row!.payload).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(row!.payload).equals(Buffer.from(JSON.stringify(payload), 'utf8'))).toBe(true);
        expect(Object.keys(row!).sort()).toEqual(
          [
            'attempts',
            'externalId',
            'firstAttemptAt',
            'id',
            'idempotencyKey',
            'kind',
            'lastAttemptAt',
            'lastError',
            'lastErrorCode',
            'lastStatus',
            'nextAttemptAt',
            'orderId',
            'payload',
            'platformId',
            'result',
          ].sort(),
        );
        expect(row).toMatchObject({ id, kind: 'request', externalId: 'ЗК-1', idempotencyKey: getSubmission(db, id)!.idempotencyKey, attempts: 0 });
        expect(getSubmission(db, id)).toMatchObject({ state: 'in_flight', leaseUntil: T + 100 });
      }),
    ));

  it('claims only due rows, each once, under a lease; an expired lease makes a row claimable again', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const a = addRequestRow(db, 'f', validRequest('A'), 'A', T);
        const b = addRequestRow(db, 'f', validRequest('B'), 'B', T);
        addRequestRow(db, 'other', validRequest('C'), 'C', T);
        db.prepare('UPDATE submissions SET next_attempt_at = ? WHERE id = ?').run(T + 500, b);

        const first = claimDueSubmissions(db, { flow: 'f', now: T, leaseMs: 100, limit: 10 });
        expect(first.map((r) => r.id)).toEqual([a]);
        expect(first[0]).toMatchObject({ state: 'in_flight', leaseUntil: T + 100 });
        expect(claimDueSubmissions(db, { flow: 'f', now: T + 50, leaseMs: 100, limit: 10 })).toEqual([]);
        // The lease of A ran out and B came due.
        expect(
          claimDueSubmissions(db, { flow: 'f', now: T + 600, leaseMs: 100, limit: 10, excludeIds: [] })
            .map((r) => r.id)
            .sort(),
        ).toEqual([a, b]);
        // …but rows this process still sends are never taken twice.
        expect(claimDueSubmissions(db, { flow: 'f', now: T + 2_000, leaseMs: 100, limit: 10, excludeIds: [a, b] })).toEqual([]);
        expect(claimDueSubmissions(db, { flow: 'f', now: T + 2_000, leaseMs: 100, limit: 1 })).toHaveLength(1);
      }),
    ));

  it('claims the rows due at one moment (a file recorded at once) in id order, a row due later after them, reading only as much of the due index as it takes', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const retried = addRequestRow(db, 'f', validRequest('R1'), 'R1', T);
        const file = ['F1', 'F2', 'F3', 'F4', 'F5'].map((e) => addRequestRow(db, 'f', validRequest(e), e, T + 5));
        db.prepare('UPDATE submissions SET next_attempt_at = ? WHERE id = ?').run(T + 7, retried);
        const claimed = [1, 2, 3].map(() => claimDueToSend(db, { flow: 'f', now: T + 9, leaseMs: 100, limit: 2 }).map((row) => row.id));
        expect(claimed).toEqual([file.slice(0, 2), file.slice(2, 4), [file[4], retried]]);
        // Ordered as the index is, the LIMIT ends the walk; ordered by id right after the due time,
        // SQLite sorted every row due at that moment on every claim (O(n) a claim for a file of n).
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${DUE_IDS_SQL}`).all({ flow: 'f', now: T, limit: 2 }) as { detail: string }[]).map((row) => row.detail);
        expect(plan).toContain('SEARCH submissions USING COVERING INDEX submissions_due (flow=? AND state=? AND next_attempt_at<?)');
        expect(plan.filter((detail) => detail.includes('TEMP B-TREE'))).toEqual([]);
      }),
    ));

  it('fills a claim past the rows it is told to leave out, and takes no row twice, without a temporary table', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((e) => addRequestRow(db, 'f', validRequest(e), e, T)) as [number, number, number, number];
        expect(claimDueToSend(db, { flow: 'f', now: T, leaseMs: 100, limit: 2 }).map((row) => row.id)).toEqual([a, b]);
        // Both leases ran out; A is still being sent here. B (its lease out) and C fill the claim.
        const again = claimDueToSend(db, { flow: 'f', now: T + 200, leaseMs: 100, limit: 2, excludeIds: [a] });
        expect(again.map((row) => row.id).sort()).toEqual([b, c]);
        expect(claimDueToSend(db, { flow: 'f', now: T + 200, leaseMs: 100, limit: 5, excludeIds: [a, b, c] }).map((row) => row.id)).toEqual([d]);
        expect(getSubmission(db, a)).toMatchObject({ state: 'in_flight', leaseUntil: T + 100 });
        // A query that fills a temporary table (an id list, `json_each` of the ids to leave out)
        // allocates and frees a page cache of its own on every run: the claim's one UPDATE with its
        // ids' query inside did, 0.3–0.9 ms a claim.
        const opcodes = (db.prepare(`EXPLAIN ${DUE_IDS_SQL}`).all({ flow: 'f', now: T, limit: 2 }) as { opcode: string }[]).map((row) => row.opcode);
        expect(opcodes).not.toContain('OpenEphemeral');
      }),
    ));

  it('records nothing when the row is no longer in flight', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const id = addRequestRow(db, 'f', validRequest('A'), 'A', T);
        const row = getSubmission(db, id)!;
        const update = acceptedUpdate('PRC-REQ-000001');
        const attempt = { requestId: 'r1', startedAt: T, finishedAt: T, httpStatus: 201, outcome: 'accepted', error: null };
        expect(row.state).toBe('pending');
        expect(recordAttempt(db, id, attempt, update, { channel: 'ack:f', sourceKey: 'x', record: {}, now: T })).toBe(false);
        expect(db.prepare('SELECT COUNT(*) AS n FROM exports').get()).toEqual({ n: 0 });
        claimDueSubmissions(db, { flow: 'f', now: T, leaseMs: 100, limit: 1 });
        expect(recordAttempt(db, id, attempt, update, { channel: 'ack:f', sourceKey: 'x', record: {}, now: T })).toBe(true);
        expect(getSubmission(db, id)).toMatchObject({ state: 'accepted', leaseUntil: null, platformId: 'PRC-REQ-000001' });
        expect(db.prepare('SELECT COUNT(*) AS n FROM exports').get()).toEqual({ n: 1 });
      }),
    ));

  it('records a turn of attempts in one transaction; one that fails leaves the others written and its row in flight', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const ids = ['A', 'B', 'C'].map((x) => addRequestRow(db, 'f', validRequest(x), x, T));
        claimDueSubmissions(db, { flow: 'f', now: T, leaseMs: 100, limit: 3 });
        const item = (id: number, record: Record<string, unknown>) => ({
          submissionId: id,
          attempt: { requestId: `r${id}`, startedAt: T, finishedAt: T, httpStatus: 201, outcome: 'accepted', error: null },
          update: acceptedUpdate(`PRC-${id}`),
          ack: { channel: 'ack:f', sourceKey: `k${id}`, record, now: T },
        });
        // B's acknowledgement cannot be serialised: its write throws after its UPDATE ran.
        const results = recordAttempts(db, [item(ids[0]!, {}), item(ids[1]!, { n: 1n }), item(ids[2]!, {})]);
        expect(results[0]).toEqual({ written: true });
        expect(results[1]).toMatchObject({ error: expect.any(TypeError) });
        expect(results[2]).toEqual({ written: true });
        expect(ids.map((id) => getSubmission(db, id)!.state)).toEqual(['accepted', 'in_flight', 'accepted']);
        expect(db.prepare('SELECT submission_id FROM submission_attempts ORDER BY submission_id').all()).toEqual([
          { submission_id: ids[0] },
          { submission_id: ids[2] },
        ]);
        expect(db.prepare('SELECT source_key FROM exports ORDER BY source_key').all()).toEqual([{ source_key: `k${ids[0]}` }, { source_key: `k${ids[2]}` }]);
      }),
    ));

  it('releases in-flight rows of one flow back to pending without touching attempts', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const id = addRequestRow(db, 'f', validRequest('A'), 'A', T);
        const other = addRequestRow(db, 'g', validRequest('B'), 'B', T);
        db.prepare(`UPDATE submissions SET state = 'in_flight', attempts = 2, lease_until = ?`).run(T + 10_000);
        expect(releaseInFlight(db, 'f', T + 5)).toBe(1);
        expect(getSubmission(db, id)).toMatchObject({ state: 'pending', attempts: 2, leaseUntil: null, nextAttemptAt: T });
        expect(getSubmission(db, other)!.state).toBe('in_flight');
        expect(releaseInFlight(db, 'g', T + 5, [12345])).toBe(0);
        expect(releaseInFlight(db, 'g', T + 5, [other])).toBe(1);
      }),
    ));

  it('requeues by externalId, dead or rejected (optionally per flow), resetting attempts and the age clock, keeping the key', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const ids = ['D1', 'D2', 'R1', 'A1', 'H1'].map((e) => addRequestRow(db, e === 'D2' ? 'g' : 'f', validRequest(e), e, T));
        const set = db.prepare('UPDATE submissions SET state = ?, attempts = 4, first_attempt_at = ?, finished_at = ? WHERE external_id = ?');
        for (const [e, s] of [
          ['D1', 'dead'],
          ['D2', 'dead'],
          ['R1', 'rejected'],
          ['A1', 'accepted'],
          ['H1', 'held'],
        ])
          set.run(s, T, T, e);
        const keyBefore = getSubmission(db, ids[0]!)!.idempotencyKey;

        expect(requeueSubmissions(db, { dead: true }, T + 9, 'f')).toBe(1);
        expect(getSubmission(db, ids[0]!)).toMatchObject({
          state: 'pending',
          attempts: 0,
          firstAttemptAt: null,
          finishedAt: null,
          nextAttemptAt: T + 9,
          idempotencyKey: keyBefore,
        });
        expect(getSubmission(db, ids[1]!)!.state).toBe('dead');
        expect(requeueSubmissions(db, { dead: true }, T + 9)).toBe(1);
        expect(requeueSubmissions(db, { rejected: true }, T + 9)).toBe(1);
        expect(requeueSubmissions(db, { externalId: 'A1' }, T + 9)).toBe(0); // accepted stays accepted
        expect(requeueSubmissions(db, { externalId: 'H1' }, T + 9)).toBe(1);
      }),
    ));

  it('summarises counts per flow and state, oldest pending, last errors and dead letters', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        addRequestRow(db, 'f', validRequest('P1'), 'P1', T);
        addRequestRow(db, 'f', validRequest('P2'), 'P2', T + 1_000);
        const dead = addRequestRow(db, 'f', validRequest('X1'), 'X1', T);
        db.prepare(
          `UPDATE submissions SET state = 'dead', last_error_code = 'SUBMISSION_DEAD', last_error = 'Gave up', attempts = 3, updated_at = ? WHERE id = ?`,
        ).run(T + 5, dead);
        const status = readOutboxStatus(db, T + 60_000, ['f', 'empty']);
        expect(status.flows).toEqual([
          { flow: 'f', counts: { dead: 1, pending: 2 }, oldestPendingAgeMs: 60_000 },
          { flow: 'empty', counts: {}, oldestPendingAgeMs: null },
        ]);
        expect(status.lastErrors).toEqual([expect.objectContaining({ externalId: 'X1', errorCode: 'SUBMISSION_DEAD', message: 'Gave up' })]);
        expect(status.deadLetters.map((d) => d.externalId)).toEqual(['X1']);
        const text = formatOutboxStatus(status);
        expect(text).toContain('f: dead 1, pending 2; oldest pending 60 s');
        expect(text).toContain('X1 after 3 attempt(s): Gave up');
      }),
    ));

  it('finds the oldest pending or in-flight row of each flow in the due index alone, reading no row of the table', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        addRequestRow(db, 'a', validRequest('A1'), 'A1', T + 5);
        const inFlight = addRequestRow(db, 'a', validRequest('A2'), 'A2', T + 3);
        db.prepare(`UPDATE submissions SET state = 'in_flight' WHERE id = ?`).run(inFlight);
        const accepted = addRequestRow(db, 'b', validRequest('B1'), 'B1', T);
        db.prepare(`UPDATE submissions SET state = 'accepted' WHERE id = ?`).run(accepted);
        addRequestRow(db, 'b', validRequest('B2'), 'B2', T + 9);
        expect(oldestPendingByFlow(db)).toEqual([
          { flow: 'a', createdAt: T + 3 },
          { flow: 'b', createdAt: T + 9 },
        ]);
        // The overview, status, the metrics and the summary read it: a plan that reads rows costs
        // them a walk over every request (docs/performance.md, Console).
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${OLDEST_PENDING_SQL}`).all() as { detail: string }[]).map((row) => row.detail);
        expect(plan).toEqual(['SCAN submissions USING COVERING INDEX submissions_due']);
      }),
    ));
});
