/** End to end inside the daemon's half: a signed webhook in, a windows-1251 status file out. */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { createExporter, type Exporter } from '../../src/export/create-exporter.js';
import { loadExportFormat } from '../../src/export/load-export-format.js';
import { countExports } from '../../src/store/exports.js';
import { silentLogger } from '../../src/log.js';
import type { Db } from '../../src/store/open-store.js';
import { buildEvent, postWebhook, withListener } from '../helpers/with-listener.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

const format = loadExportFormat(path.resolve('config/mappings/status-export.yaml'));

async function withPipeline(fn: (ctx: { url: string; folder: string; db: Db }) => Promise<void>): Promise<void> {
  let exporter: Exporter | null = null;
  await withListener({ deps: { onStored: () => exporter?.wake() } }, async ({ url, db, dir }) => {
    const folder = path.join(dir, 'erp', 'import');
    exporter = createExporter({
      db,
      targets: [
        {
          channel: 'status',
          folder,
          format: { ...format, columns: { ...format.columns, Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' } } },
          mode: 'perEvent',
        },
      ],
      logger: silentLogger,
      pollIntervalMs: 60_000,
    });
    await exporter.start();
    try {
      await fn({ url, folder, db });
    } finally {
      await exporter.stop();
    }
  });
}

describe('webhook → status file', () => {
  it('writes one windows-1251 file with the mapped columns for a valid event', async () => {
    await withPipeline(async ({ url, folder, db }) => {
      const event = buildEvent({ eventDate: '2026-06-12T07:15:00Z', orderId: 'ORD-2026-000042', status: 'shipped' });
      expect((await postWebhook(url, event)).status).toBe(200);
      await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the status file');
      const files = listFiles(folder);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^order-status-\d{14}-000001\.csv$/);
      const bytes = fs.readFileSync(path.join(folder, files[0]!));
      expect(bytes.includes(Buffer.from('Заказ', 'utf8'))).toBe(false);
      expect(iconv.decode(bytes, 'win1251')).toBe(`Заказ;Статус;Дата;Событие\r\nORD-2026-000042;shipped;12.06.2026 10:15;${String(event.eventId)}\r\n`);
    });
  });

  it('writes one file for the same event sent five times, in a row and at once', async () => {
    await withPipeline(async ({ url, folder, db }) => {
      const event = buildEvent();
      for (let i = 0; i < 5; i += 1) expect((await postWebhook(url, event)).status).toBe(200);
      const other = buildEvent({ orderId: 'ORD-2026-000043' });
      const answers = await Promise.all(Array.from({ length: 5 }, () => postWebhook(url, other)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      await waitUntil(() => countExports(db, { state: 'written' }) === 2, 'two status files');
      expect(countExports(db)).toBe(2);
      expect(listFiles(folder, { hidden: true })).toHaveLength(2);
    });
  });
});
