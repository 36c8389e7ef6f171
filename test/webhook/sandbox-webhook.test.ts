/** The listener against the sandbox's real signed webhooks (independent sender, signer and retry loop). */
import path from 'node:path';
import iconv from 'iconv-lite';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createExporter } from '../../src/export/create-exporter.js';
import { loadExportFormat } from '../../src/export/load-export-format.js';
import { countExports } from '../../src/store/exports.js';
import { getOrderStatus } from '../../src/store/events.js';
import { silentLogger } from '../../src/log.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { createAccepted } from '../helpers/sandbox-calls.js';
import { countRows, withListener, SECRET } from '../helpers/with-listener.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

describe('sandbox webhooks → listener', () => {
  it('answers 503 while the store fails, takes the sandbox retry, and exports exactly once', async () => {
    await withListener({}, async ({ url, db, dir }) => {
      const folder = path.join(dir, 'erp', 'import');
      const exporter = createExporter({
        db,
        targets: [{ channel: 'status', folder, format: loadExportFormat(path.resolve('config/mappings/status-export.yaml')), mode: 'perEvent' }],
        logger: silentLogger,
        pollIntervalMs: 20,
      });
      await exporter.start();
      try {
        await withSandbox({ webhookUrl: url, webhookSecret: SECRET, timeScale: 0.001 }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          db.exec('ALTER TABLE events RENAME TO events_away'); // the store fails
          sandbox.setOrderStatus(orderId, 'shipped');
          await waitUntil(() => sandbox.webhookAttempts().some((a) => a.httpStatus === 503), 'a 503 answer');
          db.exec('ALTER TABLE events_away RENAME TO events'); // the store recovers
          await sandbox.webhooksIdle();

          const attempts = sandbox.webhookAttempts();
          expect(attempts[0]).toMatchObject({ httpStatus: 503, attempt: 1, orderId, status: 'shipped' });
          expect(attempts.at(-1)).toMatchObject({ httpStatus: 200, outcome: 'delivered' });
          expect(new Set(attempts.map((a) => a.eventId)).size).toBe(1);
          expect(countRows(db, 'events')).toBe(1);
          expect(countExports(db)).toBe(1);
          expect(getOrderStatus(db, orderId)).toMatchObject({ status: 'shipped', eventId: attempts[0]!.eventId });

          await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the status file');
          const files = listFiles(folder);
          expect(files).toHaveLength(1);
          const text = iconv.decode(fs.readFileSync(path.join(folder, files[0]!)), 'win1251');
          expect(text.split('\r\n')[1]).toMatch(new RegExp(`^${orderId};shipped;\\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2};${attempts[0]!.eventId}$`));
        });
      } finally {
        await exporter.stop();
      }
    });
  });

  it('stores each status change of an order in order, and the last one wins', async () => {
    await withListener({}, async ({ url, db }) => {
      await withSandbox({ webhookUrl: url, webhookSecret: SECRET, timeScale: 0.001 }, async (sandbox) => {
        const { orderId } = await createAccepted(sandbox);
        sandbox.setOrderStatus(orderId, 'confirmed');
        sandbox.setOrderStatus(orderId, 'shipped');
        sandbox.setOrderStatus(orderId, 'delivered');
        await sandbox.webhooksIdle();
        expect(sandbox.webhookAttempts().every((a) => a.httpStatus === 200)).toBe(true);
        expect(countRows(db, 'events')).toBe(3);
        expect(countExports(db)).toBe(3);
        expect(getOrderStatus(db, orderId)).toMatchObject({ status: 'delivered' });
      });
    });
  });

  it('refuses every attempt signed with another secret and stores nothing', async () => {
    await withListener({}, async ({ url, db }) => {
      await withSandbox({ webhookUrl: url, webhookSecret: 'some-other-secret', webhookRetryScheduleMs: [0, 1, 1], timeScale: 1 }, async (sandbox) => {
        const { orderId } = await createAccepted(sandbox);
        sandbox.setOrderStatus(orderId, 'shipped');
        await sandbox.webhooksIdle();
        const attempts = sandbox.webhookAttempts();
        expect(attempts).toHaveLength(3);
        expect(attempts.every((a) => a.httpStatus === 401)).toBe(true);
        expect(countRows(db, 'events')).toBe(0);
      });
    });
  });
});
