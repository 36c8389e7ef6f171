import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAdminServer } from '../../src/admin/admin-server.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { openStore, type Db } from '../../src/store/open-store.js';
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

  it('answers 503 with the reason when the readiness check throws, and 400 to a target that is not a URL', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const server = serverOver(db, () => Promise.reject(new Error('disk gone')));
      const { url } = await server.start();
      try {
        const res = await fetch(`${url}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ ready: false, reasons: ['readiness check failed: disk gone'] });
        expect(await rawStatusLine(new URL(url).port, 'GET //[/ HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
      } finally {
        await server.stop();
        db.close();
      }
    });
  });

  it('starts once for two concurrent calls, stops, and listens again on a restart', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const server = serverOver(db, async () => ({ ready: true, reasons: [] }));
      try {
        // Both callers get the one listening address (the second used to read it before the listen).
        const [first, second] = await Promise.all([server.start(), server.start()]);
        expect(second.url).toBe(first.url);
        expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
        await Promise.all([server.stop(), server.stop()]);
        await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();
        const again = await server.start();
        expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
      } finally {
        await server.stop();
        db.close();
      }
    });
  });
});

/** An admin server without a console over `db`, on a free port, with metrics at a fixed clock. */
function serverOver(db: Db, readiness: () => Promise<{ ready: boolean; reasons: string[] }>) {
  return createAdminServer({
    host: '127.0.0.1',
    port: 0,
    metrics: createMetrics({ db, clock: () => 0, defaultMetrics: false }),
    logger: silentLogger,
    readiness,
  });
}

/** Send raw bytes and return the answer's status line. */
function rawStatusLine(port: string, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.once('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}
