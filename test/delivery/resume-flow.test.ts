/**
 * The operator's "resume now" on a paused flow: the probe goes at once instead of after the probe
 * interval. And every attempt keeps the platform's own answer (migration 3), not only the last one.
 */
import { describe, expect, it } from 'vitest';
import { attemptsOf } from '../../src/store/console-submissions.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { fastDelivery, flowConfig, platformConfig, withDispatcher } from '../helpers/with-dispatcher.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('resuming a paused flow', () => {
  it('sends the probe now instead of after the probe interval, and keeps each attempt’s problem details', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const id = addRequestRow(db, flow.name, validRequest('ERP-R1'));
          addRequestRow(db, flow.name, validRequest('ERP-R2'));
          // A probe a minute: without the operator nothing more is sent during this test.
          const delivery = fastDelivery({ concurrency: 1, circuit: { probeIntervalMs: 60_000 } });
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, 'refused-token'), delivery }, async ({ dispatcher }) => {
            await waitUntil(() => dispatcher.gate(flow.name)?.mode === 'paused', 'the flow paused', 15_000);
            const before = sandbox.calls().length;
            expect(dispatcher.resume('nope')).toBe(false);
            expect(dispatcher.resume(flow.name)).toBe(true);
            await waitUntil(() => sandbox.calls().length === before + 1, 'the probe sent at once', 15_000);
            await waitUntil(() => !dispatcher.gate(flow.name)!.probeInFlight, 'the probe answered', 15_000);
            expect(dispatcher.gate(flow.name)?.mode).toBe('paused');
            expect(sandbox.calls().length).toBe(before + 1);
          });
          const attempts = attemptsOf(db, id);
          expect(attempts.length).toBeGreaterThanOrEqual(2);
          for (const attempt of attempts) {
            expect(attempt).toMatchObject({ httpStatus: 401, outcome: 'paused' });
            expect(JSON.parse(attempt.result!)).toMatchObject({ status: 401, type: 'urn:problem:unauthorized' });
          }
        }),
      ),
    ));

  it('says a flow that sends freely has nothing to resume', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          await withDispatcher({ db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery() }, ({ dispatcher }) => {
            expect(dispatcher.gate(flow.name)?.mode).toBe('closed');
            expect(dispatcher.resume(flow.name)).toBe(false);
          });
        }),
      ),
    ));
});
