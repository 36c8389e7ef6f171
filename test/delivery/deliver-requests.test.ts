import { describe, expect, it } from 'vitest';
import type { PlatformConfig } from '../../src/config/platform-schema.js';
import { PROBLEM_TYPES, type CreateRequest } from '../../src/platform/contract.js';
import { createPlatformClient } from '../../src/platform/client.js';
import { idempotencyKeyOf, requestKeyOf } from '../../src/platform/idempotency-key.js';
import { getSubmission, releaseStagedSubmissions } from '../../src/store/submissions.js';
import { listAttempts, requeueSubmissions } from '../../src/store/outbox.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ackRecords, fastDelivery, flowConfig, platformConfig, rowsByState, withDispatcher } from '../helpers/with-dispatcher.js';
import { addRequestRow, stageRequestRows, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Create `request` on the platform under `key` with a client of its own, as an earlier attempt would have; resolves with its id there. */
async function createdEarlier(platform: PlatformConfig, token: string, request: CreateRequest, key: string): Promise<string> {
  const client = createPlatformClient(platform);
  try {
    const answer = await client.createRequest(token, request, { idempotencyKey: key });
    return (JSON.parse(answer.body) as { id: string }).id;
  } finally {
    await client.close();
  }
}

describe('delivery of requests against the sandbox', () => {
  it('201: the row is accepted with the platform id, one attempt, one ack; headers as the contract shows', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-1'));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() },
            async ({ dispatcher }) => {
              await waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000);
              await dispatcher.drain();
            },
          );
          const row = getSubmission(db, id)!;
          expect(row).toMatchObject({ state: 'accepted', attempts: 1, lastStatus: 201, platformId: 'PRC-REQ-000001', lastErrorCode: null });
          expect(JSON.parse(row.result!)).toMatchObject({ id: 'PRC-REQ-000001', externalId: 'ERP-1', status: 'accepted' });
          expect(sandbox.requests()).toHaveLength(1);

          const [call] = sandbox.calls();
          expect(call!.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(call!.headers.accept).toBe('application/json');
          expect(call!.headers['idempotency-key']).toBe(row.idempotencyKey);
          expect(call!.headers['x-request-id']).toMatch(UUID);
          expect(listAttempts(db, id)).toEqual([{ request_id: call!.headers['x-request-id'], http_status: 201, outcome: 'accepted', error: null }]);

          expect(ackRecords(db, flow.name)).toEqual([
            expect.objectContaining({
              flow: 'requests',
              kind: 'request',
              externalId: 'ERP-1',
              status: 'accepted',
              outcome: 'accepted',
              platformId: 'PRC-REQ-000001',
              httpStatus: 201,
              errorCode: null,
              reasons: '',
              createdAt: expect.any(String),
            }),
          ]);
        }),
      ),
    ));

  it('replay: a key already answered is replayed and counted as accepted, without a second request', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const platform = platformConfig(sandbox.url, sandbox.token);
          const id = addRequestRow(db, flow.name, validRequest('ERP-R'));
          const row = getSubmission(db, id)!;
          // An earlier run sent it and crashed before recording the answer.
          const client = createPlatformClient(platform);
          const first = await client.createRequest(sandbox.token, row.payload, { idempotencyKey: row.idempotencyKey });
          await client.close();
          expect(first.status).toBe(201);

          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000),
          );
          expect(sandbox.requests()).toHaveLength(1);
          expect(sandbox.calls().at(-1)!.replayed).toBe(true);
          expect(JSON.parse(getSubmission(db, id)!.result!)).toMatchObject({ id: 'PRC-REQ-000001', replayed: true });
        }),
      ),
    ));

  it('409 in progress: retried later with the same key, then accepted once', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { latencyMs: 300 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const platform = platformConfig(sandbox.url, sandbox.token);
          const id = addRequestRow(db, flow.name, validRequest('ERP-P'));
          const row = getSubmission(db, id)!;
          const client = createPlatformClient(platform);
          // Another sender holds the key in progress while the dispatcher tries.
          const other = client.createRequest(sandbox.token, row.payload, { idempotencyKey: row.idempotencyKey });
          await waitUntil(() => sandbox.calls().length === 1, 'sandbox.calls().length === 1', 15_000);
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000),
          );
          expect((await other).status).toBe(201);
          await client.close();

          const attempts = listAttempts(db, id);
          expect(attempts[0]).toMatchObject({ http_status: 409, outcome: 'retry' });
          expect(attempts.at(-1)).toMatchObject({ outcome: 'accepted' });
          expect(sandbox.requests()).toHaveLength(1);
          expect(new Set(sandbox.calls().map((c) => c.headers['idempotency-key']))).toEqual(new Set([row.idempotencyKey]));
        }),
      ),
    ));

  it('409 duplicate externalId naming the existing request: accepted with that id', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const platform = platformConfig(sandbox.url, sandbox.token);
          const existingId = await createdEarlier(platform, sandbox.token, validRequest('ERP-D'), 'some-other-key');
          const id = addRequestRow(db, flow.name, validRequest('ERP-D'));
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000),
          );
          expect(getSubmission(db, id)).toMatchObject({ state: 'accepted', lastStatus: 409, platformId: existingId });
          expect(sandbox.requests()).toHaveLength(1);
          expect(ackRecords(db, flow.name)[0]).toMatchObject({ outcome: 'accepted', status: 'accepted', platformId: existingId, httpStatus: 409 });
        }),
      ),
    ));

  it('409 duplicate externalId to a correction: held, since the platform holds the earlier version, not the corrected one', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const platform = platformConfig(sandbox.url, sandbox.token);
          // The first version reached the platform although its row never learnt it (say, the answer was lost until it went dead).
          await createdEarlier(platform, sandbox.token, validRequest('ERP-K'), requestKeyOf('erp-test', 'ERP-K'));
          const id = addRequestRow(db, flow.name, validRequest('ERP-K', { comment: 'corrected' }));
          db.prepare('UPDATE submissions SET idempotency_key = ? WHERE id = ?').run(idempotencyKeyOf('erp-test', 'ERP-K', '0123456789abcdef'), id);
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'held', 'the correction held', 15_000),
          );
          expect(getSubmission(db, id)).toMatchObject({ state: 'held', lastStatus: 409, lastErrorCode: 'PLATFORM_CONFLICT', platformId: null });
          expect(getSubmission(db, id)?.lastError).toMatch(/correction was not applied/);
          expect(ackRecords(db, flow.name)[0]).toMatchObject({ outcome: 'held', httpStatus: 409 });
        }),
      ),
    ));

  it('a requeued request that ends the same way again gets a second acknowledgement: the ERP hears of every outcome', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-AGAIN', { customer: { inn: '12345', name: 'X' } }));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() },
            async ({ dispatcher }) => {
              await waitUntil(() => getSubmission(db, id)?.state === 'rejected', 'rejected once', 15_000);
              // The operator retries it (after, say, a platform fix that did not help): attempts start again from 0.
              expect(requeueSubmissions(db, { externalId: 'ERP-AGAIN' }, Date.now(), flow.name)).toBe(1);
              dispatcher.wake();
              await waitUntil(() => listAttempts(db, id).length === 2 && getSubmission(db, id)?.state === 'rejected', 'rejected again', 15_000);
            },
          );
          expect(ackRecords(db, flow.name).map((r) => r.outcome)).toEqual(['rejected', 'rejected']);
        }),
      ),
    ));

  it('422: rejected for good, problem details kept on the row and in the ack reasons', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const bad = validRequest('ERP-BAD', { customer: { inn: '12345', name: 'X' } });
          const id = addRequestRow(db, flow.name, bad);
          const good = addRequestRow(db, flow.name, validRequest('ERP-GOOD'));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() },
            async ({ dispatcher }) => {
              await waitUntil(
                () => getSubmission(db, id)?.state === 'rejected' && getSubmission(db, good)?.state === 'accepted',
                `getSubmission(db, id)?.state === 'rejected' && getSubmission(db, good)?.state === 'accepted'`,
                15_000,
              );
              await dispatcher.drain();
            },
          );
          const row = getSubmission(db, id)!;
          expect(row).toMatchObject({ state: 'rejected', attempts: 1, lastStatus: 422, lastErrorCode: 'PLATFORM_REJECTED' });
          expect(row.lastError).toContain('$.customer.inn');
          const problem = JSON.parse(row.result!) as { type: string; errors: { path: string }[] };
          expect(problem.type).toBe(PROBLEM_TYPES.validation);
          expect(problem.errors.map((e) => e.path)).toContain('$.customer.inn');
          const ack = ackRecords(db, flow.name).find((r) => r.externalId === 'ERP-BAD');
          expect(ack).toMatchObject({ outcome: 'rejected', status: 'rejected', httpStatus: 422, errorCode: 'PLATFORM_REJECTED' });
          expect(ack!.reasons).toMatch(/\$\.customer\.inn: /);
          expect(listAttempts(db, id)).toHaveLength(1);
        }),
      ),
    ));

  it('401 pauses the flow: rows stay pending with no attempt burned; the right token then delivers them', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const ids = ['ERP-A1', 'ERP-A2', 'ERP-A3'].map((e) => addRequestRow(db, flow.name, validRequest(e)));
          const lines: string[] = [];
          const { pino } = await import('pino');
          const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
          const delivery = fastDelivery({ concurrency: 1, circuit: { probeIntervalMs: 50 } });
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, 'wrong-token-value'), delivery, logger }, async ({ dispatcher }) => {
            await waitUntil(() => sandbox.calls().length >= 3, 'a few probes', 15_000);
            expect(dispatcher.gate(flow.name)?.mode).toBe('paused');
          });
          for (const id of ids) expect(getSubmission(db, id)).toMatchObject({ state: 'pending', attempts: 0, firstAttemptAt: null });
          // Only the probe row was sent (and says why it waits); the others were never tried.
          expect(getSubmission(db, ids[0]!)!.lastErrorCode).toBe('PLATFORM_UNAUTHORIZED');
          expect(listAttempts(db, ids[0]!).every((a) => a.outcome === 'paused')).toBe(true);
          expect(listAttempts(db, ids[1]!)).toEqual([]);
          expect(sandbox.calls().every((c) => c.status === 401)).toBe(true);
          const pausedLogs = lines.filter((l) => l.includes('PLATFORM_UNAUTHORIZED') && l.includes('"level":50'));
          expect(pausedLogs).toHaveLength(1);
          expect(lines.join('\n')).not.toContain('wrong-token-value');

          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery }, () =>
            waitUntil(() => rowsByState(db, flow.name).accepted === 3, 'rowsByState(db, flow.name).accepted === 3', 15_000),
          );
          expect(sandbox.requests()).toHaveLength(3);
          for (const id of ids) expect(getSubmission(db, id)).toMatchObject({ state: 'accepted', attempts: 1 });
        }),
      ),
    ));

  it('wakes the exporter once per final outcome that enqueued an acknowledgement, not per retry', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { status500: 1 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-WAKE'));
          let wakes = 0;
          await withDispatcher(
            {
              db,
              flows: [flow],
              platform: platformConfig(sandbox.url, sandbox.token),
              delivery: fastDelivery({ backoff: { maxAttempts: 3 } }),
              onAcknowledged: () => (wakes += 1),
            },
            () => waitUntil(() => getSubmission(db, id)?.state === 'dead', 'the request dead-lettered after three 500s'),
          );
          expect(sandbox.calls()).toHaveLength(3);
          expect(ackRecords(db, flow.name)).toHaveLength(1);
          expect(wakes).toBe(1);
        }),
      ),
    ));

  it('logs each outcome with the X-Request-Id, the externalId and the flow, never the token; start and stop are idempotent, a stopped dispatcher does not start again', () =>
    withTempDir((dir) =>
      withSandbox({ token: 'buyer-token-very-secret' }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-LOG'));
          const lines: string[] = [];
          const { pino } = await import('pino');
          const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery(), logger },
            async ({ dispatcher }) => {
              await dispatcher.start();
              await waitUntil(() => getSubmission(db, id)?.state === 'accepted', `getSubmission(db, id)?.state === 'accepted'`, 15_000);
              await Promise.all([dispatcher.stop(), dispatcher.stop()]);
              // One-shot, as the webhook listener: a stopped dispatcher says so instead of sending again.
              await expect(dispatcher.start()).rejects.toThrow(/dispatcher was stopped/);
            },
          );
          const requestId = sandbox.calls()[0]!.headers['x-request-id'];
          const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.outcome === 'accepted');
          expect(line).toMatchObject({ flow: 'requests', externalId: 'ERP-LOG', requestId, httpStatus: 201 });
          expect(lines.join('\n')).not.toContain('buyer-token-very-secret');
          expect(sandbox.calls()).toHaveLength(1);
        }),
      ),
    ));

  it('ratePerSecond spaces the starts of a flow', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          for (let i = 0; i < 3; i += 1) addRequestRow(db, flow.name, validRequest(`ERP-RATE${i}`));
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery({ ratePerSecond: 5 }) }, () =>
            waitUntil(() => rowsByState(db, flow.name).accepted === 3, 'rowsByState(db, flow.name).accepted === 3', 15_000),
          );
          // The spacing is the clock's decision: each start is recorded at the clock time it was
          // allowed, so the gaps are checked exactly, without slack for a slow machine.
          const starts = (db.prepare('SELECT started_at FROM submission_attempts ORDER BY started_at').all() as { started_at: number }[]).map(
            (r) => r.started_at,
          );
          expect(starts).toHaveLength(3);
          for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(200);
        }),
      ),
    ));

  it('never sends a staged row (a file still being recorded), older and due as it is; sends it once the file is recorded', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const fileId = stageRequestRows(db, flow.name, ['STAGED-1'], Date.now() - 60_000);
          const pending = addRequestRow(db, flow.name, validRequest('PENDING-1'));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() },
            async ({ dispatcher }) => {
              await waitUntil(() => getSubmission(db, pending)?.state === 'accepted', 'the pending row accepted', 15_000);
              // The staged row is older and was due at the same claim: a claim that took staged rows took it first.
              await dispatcher.drain();
              expect(sandbox.requests().map((r) => r.externalId)).toEqual(['PENDING-1']);
              expect(rowsByState(db, flow.name)).toEqual({ accepted: 1, staged: 1 });

              // The file is recorded: its row is released, and only now sent.
              db.prepare(`UPDATE files SET state = 'archived' WHERE id = ?`).run(fileId);
              expect(releaseStagedSubmissions(db, fileId, 10, Date.now())).toBe(1);
              await waitUntil(() => rowsByState(db, flow.name).accepted === 2, 'the released row accepted', 15_000);
            },
          );
          expect(sandbox.requests().map((r) => r.externalId)).toEqual(['PENDING-1', 'STAGED-1']);
        }),
      ),
    ));
});
