import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { FAST_DELIVERY, REPO, REQUESTS_FLOW, withDaemon, writeConfig } from '../helpers/with-daemon.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

/** The whole daemon on the in-process sandbox: the requests flow, the webhook listener, the status export. */
function cycleConfig(dir: string) {
  return writeConfig(
    dir,
    `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: cycle-token-123, sourceSystem: erp-test }
flows:${REQUESTS_FLOW}
${FAST_DELIVERY}
webhook: { port: 0, secrets: [cycle-secret-456] }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { port: 0 }
sandbox: { enabled: true, port: 0, demo: false }
`,
  );
}

describe('the daemon, whole cycle in one process', () => {
  it('takes a file, gets it accepted, acknowledges it, and turns a shipped order into a status file', async () => {
    await withTempDir(async (dir) => {
      const config = cycleConfig(dir);
      await withDaemon(config, async (daemon) => {
        const sandbox = daemon.sandbox!;
        fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
        fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));

        await waitUntil(() => sandbox.requests().length === 3, 'three requests accepted by the platform', 20_000);
        await waitUntil(() => listFiles(path.join(dir, 'import')).filter((n) => n.startsWith('ack-')).length === 3, 'three acknowledgements', 20_000);
        // The file is moved to the archive after its requests are released, so possibly after the acks.
        await waitUntil(() => listFiles(path.join(dir, 'inbox/archive')).length === 1, 'the file archived', 20_000);
        expect(listFiles(path.join(dir, 'inbox/processing'))).toEqual([]);

        const ack = fs.readFileSync(
          path.join(
            dir,
            'import',
            listFiles(path.join(dir, 'import')).find((n) => n.startsWith('ack-'))!,
          ),
        );
        expect(iconv.decode(ack, 'windows-1251')).toMatch(/accepted/);

        const order = sandbox.requests()[0]!.order!;
        sandbox.setOrderStatus(order.id, 'shipped');
        await waitUntil(() => listFiles(path.join(dir, 'import')).some((n) => n.startsWith('order-status-')), 'a status file', 20_000);
        const statusFile = listFiles(path.join(dir, 'import')).find((n) => n.startsWith('order-status-'))!;
        const text = iconv.decode(fs.readFileSync(path.join(dir, 'import', statusFile)), 'windows-1251');
        expect(text).toContain(order.id);
        expect(text).toContain('shipped');
        expect(text.split(/\r?\n/)[0]).toBe('Заказ;Статус;Дата;Событие');

        // The file exists a moment before its row is marked written (and counted): wait for the count.
        const scrape = async () => (await fetch(`${daemon.urls.admin}/metrics`)).text();
        await waitUntil(async () => /connector_export_files_total\{channel="status"\} 1/.test(await scrape()), 'the status file counted', 20_000);
        const metrics = await scrape();
        expect(metrics).toContain('connector_queue_depth{flow="requests",state="accepted"} 3');
        expect(metrics).toContain('connector_files_total{flow="requests",outcome="archived"} 1');
        expect(metrics).toContain('connector_submissions_total{flow="requests",outcome="accepted"} 3');
        expect(metrics).toContain('connector_webhook_events_total{outcome="applied"} 1');
        expect(metrics).toMatch(/connector_export_files_total\{channel="status"\} 1/);
      });
    });
  });

  it('wakes the exporter as soon as an acknowledgement or a status change is committed, without its poll', async () => {
    await withTempDir(async (dir) => {
      const config = cycleConfig(dir);
      // The exporter's own look for pending rows comes after a minute: only the wake-ups that delivery
      // and the webhook listener send can write these files within the test's bound.
      await withDaemon(
        config,
        async (daemon) => {
          const sandbox = daemon.sandbox!;
          fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
          // The exporter's first pass at start found nothing; from here on only wake-ups write.
          fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));
          await waitUntil(() => listFiles(path.join(dir, 'import')).filter((n) => n.startsWith('ack-')).length === 3, 'three acknowledgements', 10_000);

          const order = sandbox.requests()[0]!.order!;
          sandbox.setOrderStatus(order.id, 'shipped');
          await waitUntil(() => listFiles(path.join(dir, 'import')).some((n) => n.startsWith('order-status-')), 'a status file', 10_000);
        },
        { exporterPollIntervalMs: 60_000 },
      );
    });
  });
});
