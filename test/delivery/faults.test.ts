import { describe, expect, it } from 'vitest';
import { getSubmission } from '../../src/store/submissions.js';
import { listAttempts } from '../../src/store/outbox.js';
import { keysByExternalId, withSandbox } from '../helpers/with-sandbox.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ackRecords, fastDelivery, flowConfig, platformConfig, rowsByState, withDispatcher } from '../helpers/with-dispatcher.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

/** Each externalId the sandbox saw, with the set of Idempotency-Keys it came under. */
describe('delivery under faults', () => {
  it('30 % faults (500, 503/429 with Retry-After, drops, drop-after-commit): every request accepted exactly once', () =>
    withTempDir((dir) =>
      withSandbox(
        {
          seed: 7,
          faults: { create: { status500: 0.06, status503: 0.06, status429: 0.06, drop: 0.06, dropAfterCommit: 0.06, retryAfterSeconds: 1 } },
        },
        (sandbox) =>
          withStore(dir, async (db) => {
            const flow = flowConfig(dir);
            const count = 40;
            const ids = Array.from({ length: count }, (_, i) => addRequestRow(db, flow.name, validRequest(`ERP-F${i}`)));
            await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() }, () =>
              waitUntil(() => rowsByState(db, flow.name).accepted === count, 'all accepted', 25_000),
            );
            expect(sandbox.requests()).toHaveLength(count);
            expect(new Set(sandbox.requests().map((r) => r.externalId)).size).toBe(count);
            const outcomes = sandbox.calls().map((c) => c.status);
            // The faults really happened, including the dangerous one.
            expect(outcomes).toContain('dropped-after-commit');
            expect(outcomes).toContain(503);
            expect(outcomes).toContain(429);
            const keys = keysByExternalId(sandbox);
            expect(keys.size).toBe(count);
            for (const [externalId, set] of keys) expect(set.size, externalId).toBe(1);
            for (const id of ids) {
              const row = getSubmission(db, id)!;
              expect(row.idempotencyKey).toBe([...keys.get(row.externalId)!][0]);
              expect(listAttempts(db, id).length).toBe(row.attempts);
            }
            expect(ackRecords(db, flow.name)).toHaveLength(count);
          }),
      ),
    ));

  it('stop(0) mid-flight, then a new dispatcher on the reopened store: nothing lost, nothing duplicated', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { latencyMs: 200 } } }, async (sandbox) => {
        const flow = flowConfig(dir);
        const platform = platformConfig(sandbox.url, sandbox.token);
        const count = 12;
        await withStore(dir, async (db) => {
          for (let i = 0; i < count; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-S${i}`));
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery({ concurrency: 4 }), stopTimeoutMs: 0 }, () =>
            waitUntil(() => sandbox.calls().length >= 4, 'requests in flight', 15_000),
          );
          // Aborted rows are pending again (due now) with their attempts untouched; none is left in flight.
          expect(rowsByState(db, flow.name).in_flight).toBeUndefined();
          const aborted = db.prepare(`SELECT COUNT(*) AS n FROM submission_attempts WHERE outcome = 'aborted'`).get() as { n: number };
          expect(aborted.n).toBeGreaterThan(0);
        });
        await withStore(dir, async (db) => {
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery({ concurrency: 4 }) }, () =>
            waitUntil(() => rowsByState(db, flow.name).accepted === count, 'all accepted after restart', 30_000),
          );
          expect(ackRecords(db, flow.name)).toHaveLength(count);
        });
        // The sandbox finished what the aborted requests started; the retries replayed or took over.
        await waitUntil(() => sandbox.calls().every((c) => c.status !== null), 'sandbox idle', 10_000);
        expect(sandbox.requests()).toHaveLength(count);
        const keys = keysByExternalId(sandbox);
        for (const [externalId, set] of keys) expect(set.size, externalId).toBe(1);
      }),
    ));

  it('rows left in flight by a crash (expired or not) are taken up again on start', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-CRASH'));
          db.prepare(`UPDATE submissions SET state = 'in_flight', lease_until = ? WHERE id = ?`).run(Date.now() + 3_600_000, id);
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000),
          );
          expect(sandbox.requests()).toHaveLength(1);
        }),
      ),
    ));

  it('dead-letters after backoff.maxAttempts when the platform always fails, with an ack and SUBMISSION_DEAD', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { status500: 1 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-DEAD'));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery({ backoff: { maxAttempts: 3 } }) },
            () => waitUntil(() => getSubmission(db, id)?.state === 'dead', `getSubmission(db, id)?.state === 'dead'`, 15_000),
          );
          const row = getSubmission(db, id)!;
          expect(row).toMatchObject({ state: 'dead', attempts: 3, lastStatus: 500, lastErrorCode: 'SUBMISSION_DEAD' });
          expect(row.lastError).toMatch(/Gave up after 3 attempt/);
          expect(sandbox.calls()).toHaveLength(3);
          expect(listAttempts(db, id).map((a) => a.outcome)).toEqual(['retry', 'retry', 'dead']);
          expect(ackRecords(db, flow.name)).toEqual([
            expect.objectContaining({ outcome: 'dead', status: 'dead', errorCode: 'SUBMISSION_DEAD', httpStatus: 500 }),
          ]);
        }),
      ),
    ));

  it('opens the circuit after consecutive failures, probes one row at a time, closes on the first success', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { status503: 1, retryAfterSeconds: 0 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          for (let i = 0; i < 6; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-C${i}`));
          const delivery = fastDelivery({ concurrency: 1, circuit: { failureThreshold: 3, probeIntervalMs: 30 } });
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery }, async ({ dispatcher }) => {
            await waitUntil(() => dispatcher.gate(flow.name)?.mode === 'open', 'circuit open', 15_000);
            const calls = sandbox.calls().length;
            await waitUntil(() => sandbox.calls().length >= calls + 2, 'two probes', 15_000);
            expect(dispatcher.gate(flow.name)?.probeIntervalMs).toBeGreaterThan(30);
            sandbox.setFaults({});
            await waitUntil(() => rowsByState(db, flow.name).accepted === 6, 'all accepted', 15_000);
            expect(dispatcher.gate(flow.name)?.mode).toBe('closed');
          });
        }),
      ),
    ));
});
