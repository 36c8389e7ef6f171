/**
 * The metrics the monitoring files need beyond the store's gauges: requests recorded, each flow's
 * gate, readiness, and the configured flows' counters starting at zero (`attach`).
 */
import { describe, expect, it } from 'vitest';
import { createMetrics, type LiveState } from '../../src/metrics/metrics.js';
import { withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';

function liveState(over: Partial<LiveState> = {}): LiveState {
  return { flows: ['requests'], gateMode: () => 'closed', readiness: () => Promise.resolve({ ready: true }), ...over };
}

describe('metrics attached to the live daemon', () => {
  it('exports no gate and no readiness before attach, rather than a wrong 0', async () => {
    await withTempDir((dir) =>
      withStore(dir, async (db) => {
        const text = await createMetrics({ db, defaultMetrics: false }).registry.metrics();
        expect(text).not.toContain('connector_flow_gate');
        expect(text).not.toContain('connector_ready');
        expect(text).toContain('# TYPE connector_requests_recorded_total counter');
      }),
    );
  });

  it("exports 1 for each flow's current gate mode and 0 for the others, read at every scrape", async () => {
    await withTempDir((dir) =>
      withStore(dir, async (db) => {
        const metrics = createMetrics({ db, defaultMetrics: false });
        const modes = new Map<string, string | undefined>([
          ['requests', 'paused'],
          ['confirmations', 'closed'],
          ['unknown', undefined],
        ]);
        metrics.attach(liveState({ flows: [...modes.keys()], gateMode: (flow) => modes.get(flow) }));

        let text = await metrics.registry.metrics();
        expect(text).toContain('connector_flow_gate{flow="requests",mode="paused"} 1');
        expect(text).toContain('connector_flow_gate{flow="requests",mode="closed"} 0');
        expect(text).toContain('connector_flow_gate{flow="requests",mode="open"} 0');
        expect(text).toContain('connector_flow_gate{flow="confirmations",mode="closed"} 1');
        expect(text).toContain('connector_flow_gate{flow="confirmations",mode="paused"} 0');
        expect(text).not.toContain('connector_flow_gate{flow="unknown"');

        modes.set('requests', 'closed');
        text = await metrics.registry.metrics();
        expect(text).toContain('connector_flow_gate{flow="requests",mode="paused"} 0');
        expect(text).toContain('connector_flow_gate{flow="requests",mode="closed"} 1');
      }),
    );
  });

  it('exports readiness as 1 or 0, and 0 when the check itself fails', async () => {
    await withTempDir((dir) =>
      withStore(dir, async (db) => {
        const metrics = createMetrics({ db, defaultMetrics: false });
        let verdict: () => Promise<{ ready: boolean }> = () => Promise.resolve({ ready: true });
        metrics.attach(liveState({ readiness: () => verdict() }));

        expect(await metrics.registry.metrics()).toMatch(/^connector_ready 1$/m);
        verdict = () => Promise.resolve({ ready: false });
        expect(await metrics.registry.metrics()).toMatch(/^connector_ready 0$/m);
        verdict = () => Promise.reject(new Error('disk gone'));
        expect(await metrics.registry.metrics()).toMatch(/^connector_ready 0$/m);
      }),
    );
  });

  it("starts every configured flow's counters at zero, so that the first dead letter after a start is an increase", async () => {
    await withTempDir((dir) =>
      withStore(dir, async (db) => {
        const metrics = createMetrics({ db, defaultMetrics: false });
        metrics.attach(liveState({ flows: ['requests', 'confirmations'] }));
        const text = await metrics.registry.metrics();
        for (const flow of ['requests', 'confirmations']) {
          expect(text).toContain(`connector_submissions_total{flow="${flow}",outcome="dead"} 0`);
          expect(text).toContain(`connector_submissions_total{flow="${flow}",outcome="accepted"} 0`);
          expect(text).toContain(`connector_files_total{flow="${flow}",outcome="rejected"} 0`);
          expect(text).toContain(`connector_retries_total{flow="${flow}"} 0`);
          expect(text).toContain(`connector_requests_recorded_total{flow="${flow}"} 0`);
        }

        metrics.requestsRecorded.inc({ flow: 'requests' }, 3);
        metrics.submissions.inc({ flow: 'requests', outcome: 'dead' });
        const after = await metrics.registry.metrics();
        expect(after).toContain('connector_requests_recorded_total{flow="requests"} 3');
        expect(after).toContain('connector_submissions_total{flow="requests",outcome="dead"} 1');
        expect(after).toContain('connector_submissions_total{flow="confirmations",outcome="dead"} 0');
      }),
    );
  });
});
