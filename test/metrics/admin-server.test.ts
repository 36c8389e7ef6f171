import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAdminServer } from '../../src/metrics/admin-server.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { openStore } from '../../src/store/open-store.js';
import { insertSubmission } from '../../src/store/submissions.js';
import { enqueueExport } from '../../src/store/exports.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';

describe('admin server', () => {
  it('serves metrics read from the store, health and readiness', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const now = 1_000_000;
      insertSubmission(db, {
        flow: 'requests',
        kind: 'request',
        dedupeKey: 'A',
        externalId: 'A',
        payload: '{}',
        payloadHash: 'h',
        idempotencyKey: 'k',
        now: now - 30_000,
      });
      enqueueExport(db, { channel: 'status', sourceKey: 'EVT-000001', record: {}, now: now - 5_000 });
      const metrics = createMetrics({ db, clock: () => now, defaultMetrics: false });
      metrics.files.inc({ flow: 'requests', outcome: 'archived' });
      let ready = true;
      const server = createAdminServer({
        host: '127.0.0.1',
        port: 0,
        metrics,
        logger: silentLogger,
        readiness: async () => ({ ready, reasons: ready ? [] : ['store: read-only'] }),
      });
      const { url } = await server.start();
      try {
        const text = await (await fetch(`${url}/metrics`)).text();
        expect(text).toContain('connector_queue_depth{flow="requests",state="pending"} 1');
        expect(text).toContain('connector_oldest_pending_age_seconds{flow="requests"} 30');
        expect(text).toContain('connector_export_lag_seconds{channel="status"} 5');
        expect(text).toContain('connector_files_total{flow="requests",outcome="archived"} 1');
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect((await fetch(`${url}/readyz`)).status).toBe(200);
        ready = false;
        const notReady = await fetch(`${url}/readyz`);
        expect(notReady.status).toBe(503);
        expect(await notReady.json()).toMatchObject({ ready: false, reasons: ['store: read-only'] });
        expect((await fetch(`${url}/nope`)).status).toBe(404);
      } finally {
        await server.stop();
        db.close();
      }
    });
  });
});
