/**
 * `drain()` resolves only when the flow has nothing left to do on its own. It once resolved with
 * 3,904 rows pending (docs/performance.md): every row had been tried and was waiting out a backoff,
 * none was due at that instant, and "nothing due" was taken for "nothing left".
 */
import { describe, expect, it } from 'vitest';
import { claimGroupFor } from '../../src/delivery/slot-filler.js';
import { listAttempts } from '../../src/store/outbox.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { fastDelivery, flowConfig, platformConfig, rowsByState, withDispatcher } from '../helpers/with-dispatcher.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('dispatcher.drain()', () => {
  it('waits for rows that are waiting out a backoff, not only for rows due now', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { status503: 1, retryAfterSeconds: 1 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const ids = ['ERP-D1', 'ERP-D2', 'ERP-D3'].map((id) => addRequestRow(db, flow.name, validRequest(id)));
          // Retry-After: 1 s is above the backoff cap, so every row waits a full second after its 503.
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery({ backoff: { capMs: 2_000 } }) },
            async ({ dispatcher }) => {
              await waitUntil(() => ids.every((id) => listAttempts(db, id).length >= 1), 'every row answered 503 once');
              const drained = dispatcher.drain().then(() => rowsByState(db, flow.name));
              sandbox.setFaults({});
              expect(await drained).toEqual({ accepted: 3 });
            },
          );
        }),
      ),
    ));

  it('waits while the circuit is open (the platform is down): the flow probes on its own and sends once it is back', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { status503: 1 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          ['ERP-O1', 'ERP-O2', 'ERP-O3'].forEach((id) => addRequestRow(db, flow.name, validRequest(id)));
          await withDispatcher(
            {
              db,
              flows: [flow],
              platform: platformConfig(sandbox.url, sandbox.token),
              delivery: fastDelivery({ circuit: { failureThreshold: 1, probeIntervalMs: 100 } }),
            },
            async ({ dispatcher }) => {
              await waitUntil(() => dispatcher.gate(flow.name)?.mode === 'open', 'the circuit opens');
              let drained = false;
              const drain = dispatcher.drain().then(() => (drained = true));
              await new Promise((resolve) => setTimeout(resolve, 300));
              expect(drained).toBe(false);
              sandbox.setFaults({});
              await drain;
              expect(rowsByState(db, flow.name)).toEqual({ accepted: 3 });
            },
          );
        }),
      ),
    ));

  it('resolves for a paused flow (its token refused): only a person can move it on', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          addRequestRow(db, flow.name, validRequest('ERP-P1'));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, 'a-wrong-token'), delivery: fastDelivery() },
            async ({ dispatcher }) => {
              await dispatcher.drain();
              expect(dispatcher.gate(flow.name)?.mode).toBe('paused');
              expect(rowsByState(db, flow.name)).toEqual({ pending: 1 });
            },
          );
        }),
      ),
    ));

  it('hands rows claimed as a group but not yet sent back to pending on stop, with no attempt counted', () =>
    withTempDir((dir) =>
      withSandbox({ faults: { create: { latencyMs: 300 } } }, (sandbox) =>
        withStore(dir, async (db) => {
          const flow = flowConfig(dir);
          const ids = Array.from({ length: 20 }, (_, i) => addRequestRow(db, flow.name, validRequest(`ERP-Q${i}`)));
          await withDispatcher(
            { db, flows: [flow], platform: platformConfig(sandbox.url, sandbox.token), delivery: fastDelivery({ concurrency: 1 }) },
            async () => {
              await waitUntil(() => sandbox.calls().length >= 1, 'the first request on its way');
              // One slot, one group claim: the other rows were claimed with it and wait in flight,
              // sixteen in all at one slot (a flow with four slots claims 64).
              expect(rowsByState(db, flow.name).in_flight).toBe(claimGroupFor(1));
            },
          );
          // Everything is pending again: the one row that was sent was aborted by the stop (an
          // `aborted` attempt, same key), the others were never tried.
          expect(rowsByState(db, flow.name)).toEqual({ pending: 20 });
          expect(ids.filter((id) => listAttempts(db, id).length === 0)).toHaveLength(19);
        }),
      ),
    ));
});
