import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countExports } from '../../src/store/exports.js';
import { createLogger } from '../../src/log.js';
import { csvFormat, enqueueStatus, withExportStore } from '../helpers/with-exporter.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

describe('createExporter', () => {
  it('perEvent: writes one file per pending row on start, and new rows when woken', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002', 'delivered');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 60_000 });
      await exporter.start();
      expect(listFiles(folder)).toEqual(['status-000001.csv', 'status-000002.csv']);
      expect(fs.readFileSync(path.join(folder, 'status-000002.csv'), 'utf8')).toBe('order;status\nORD-2026-000002;delivered\n');
      expect(countExports(db, { state: 'pending' })).toBe(0);

      enqueueStatus(db, 'ORD-2026-000003');
      exporter.wake();
      await waitUntil(() => listFiles(folder).length === 3, 'the woken write');
      await waitUntil(() => countExports(db, { state: 'pending' }) === 0, 'the row to be marked');
      expect(listFiles(folder, { hidden: true })).toEqual(['status-000001.csv', 'status-000002.csv', 'status-000003.csv']);
    });
  });

  it('reload: the next files are written in the new format, the targets passed in stay untouched', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const target = { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' as const };
      const exporter = makeExporter([target], { pollIntervalMs: 60_000 });
      await exporter.start();
      exporter.reload(
        new Map([
          ['status', csvFormat({ csv: { encoding: 'utf-8', delimiter: '|', lineEnding: 'lf' } })],
          ['ack:other', csvFormat()],
        ]),
      );
      enqueueStatus(db, 'ORD-2026-000001');
      exporter.wake();
      await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the write after the reload');
      expect(fs.readFileSync(path.join(folder, 'status-000001.csv'), 'utf8')).toBe('order|status\nORD-2026-000001|shipped\n');
      expect(target.format.csv.delimiter).toBe(';');
    });
  });

  it('perEvent: the fallback poll picks up rows nobody woke it for', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 20 });
      await exporter.start();
      enqueueStatus(db, 'ORD-2026-000001');
      await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the polled write');
      expect(listFiles(folder)).toEqual(['status-000001.csv']);
    });
  });

  it('batch: gathers every pending row into one file on flush, not on wake', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat({ fileName: 'batch-{seq}.csv' }), mode: 'batch' }], { pollIntervalMs: 20 });
      await exporter.start();
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002');
      exporter.wake();
      // A perEvent-only pass after the wake must leave the batch alone: the flush below is serialised after it.
      expect(await exporter.flush()).toBe(2);
      expect(listFiles(folder)).toEqual(['batch-000001.csv']);
      expect(fs.readFileSync(path.join(folder, 'batch-000001.csv'), 'utf8')).toBe('order;status\nORD-2026-000001;shipped\nORD-2026-000002;shipped\n');
      enqueueStatus(db, 'ORD-2026-000003');
      expect(await exporter.flush()).toBe(1);
      expect(await exporter.flush()).toBe(0);
      expect(listFiles(folder)).toEqual(['batch-000001.csv', 'batch-000003.csv']);
    });
  });

  it('batch: rows stay pending until a flush', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-2026-000001');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'batch' }], { pollIntervalMs: 60_000 });
      await exporter.start();
      expect(listFiles(folder)).toEqual([]);
      expect(countExports(db, { state: 'pending' })).toBe(1);
    });
  });

  it('removes the temp files a crash left in its folders when it starts, and only those', async () => {
    await withExportStore(async ({ folder, makeExporter }) => {
      fs.mkdirSync(folder, { recursive: true });
      const left = path.join(folder, '.status-1.csv.0123456789ab.tmp');
      fs.writeFileSync(left, 'half');
      const hourAgo = new Date(Date.now() - 3_600_000);
      fs.utimesSync(left, hourAgo, hourAgo);
      fs.writeFileSync(path.join(folder, 'erp-file.csv'), 'theirs');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 60_000 });
      await exporter.start();
      expect(listFiles(folder, { hidden: true })).toEqual(['erp-file.csv']);
    });
  });

  it('keeps one file and one name when a crash hits between writing the file and marking the rows', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const target = { channel: 'status', folder, format: csvFormat({ fileName: 'status-{timestamp}.csv' }), mode: 'perEvent' as const };
      enqueueStatus(db, 'ORD-2026-000001');
      let now = new Date(2026, 5, 12, 10, 0, 0).getTime();
      const first = makeExporter([target], { clock: () => now, pollIntervalMs: 60_000 });
      await first.start();
      await first.stop();
      expect(listFiles(folder)).toEqual(['status-20260612100000.csv']);
      // The crash: the file exists (whole: it was renamed into place after its fsync), but the
      // marking transaction never committed.
      db.prepare("UPDATE exports SET state = 'pending', written_at = NULL").run();
      const inode = fs.statSync(path.join(folder, 'status-20260612100000.csv')).ino;

      now += 3_600_000; // a later restart must not pick a new timestamp
      const second = makeExporter([target], { clock: () => now, pollIntervalMs: 60_000 });
      await second.start();
      expect(listFiles(folder, { hidden: true })).toEqual(['status-20260612100000.csv']);
      expect(fs.readFileSync(path.join(folder, 'status-20260612100000.csv'), 'utf8')).toBe('order;status\nORD-2026-000001;shipped\n');
      // Its own earlier write, byte for byte: counted as written, not written again.
      expect(fs.statSync(path.join(folder, 'status-20260612100000.csv')).ino).toBe(inode);
      expect(countExports(db, { state: 'written' })).toBe(1);
    });
  });

  it('a batch named before a crash is written on start, with the same name and rows', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const target = { channel: 'status', folder, format: csvFormat({ fileName: 'batch-{seq}.csv' }), mode: 'batch' as const };
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002');
      db.prepare("UPDATE exports SET file_name = 'batch-000001.csv'").run(); // named, then the process died
      enqueueStatus(db, 'ORD-2026-000003'); // arrived after the crash: not part of that file
      const exporter = makeExporter([target], { pollIntervalMs: 60_000 });
      await exporter.start();
      expect(listFiles(folder)).toEqual(['batch-000001.csv']);
      expect(fs.readFileSync(path.join(folder, 'batch-000001.csv'), 'utf8')).toBe('order;status\nORD-2026-000001;shipped\nORD-2026-000002;shipped\n');
      expect(countExports(db, { state: 'pending' })).toBe(1);
    });
  });

  it('never overwrites a file it did not write: a taken name gets a suffix', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'fixed.csv'), 'the ERP left this');
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat({ fileName: 'fixed.csv' }), mode: 'perEvent' }], {
        pollIntervalMs: 60_000,
      });
      await exporter.start();
      expect(listFiles(folder)).toEqual(['fixed-2.csv', 'fixed-3.csv', 'fixed.csv']);
      expect(fs.readFileSync(path.join(folder, 'fixed.csv'), 'utf8')).toBe('the ERP left this');
    });
  });

  it('logs EXPORT_WRITE_FAILED, keeps the rows pending, and writes them once the folder works', async () => {
    await withExportStore(async ({ db, dir, makeExporter }) => {
      const blocker = path.join(dir, 'not-a-folder');
      fs.writeFileSync(blocker, 'x');
      const folder = path.join(blocker, 'import');
      const lines: string[] = [];
      const logger = createLogger({ level: 'error', destination: { write: (line: string) => lines.push(line) } });
      enqueueStatus(db, 'ORD-2026-000001');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { logger, pollIntervalMs: 20 });
      await exporter.start();
      expect(countExports(db, { state: 'pending' })).toBe(1);
      expect(lines.some((line) => line.includes('EXPORT_WRITE_FAILED'))).toBe(true);
      fs.rmSync(blocker);
      await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the retried write');
      expect(listFiles(folder)).toEqual(['status-000001.csv']);
    });
  });

  it('keeps channels apart, each in its own folder and format', async () => {
    await withExportStore(async ({ db, dir, folder, makeExporter }) => {
      const acks = path.join(dir, 'erp', 'acks');
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002', 'accepted', 'ack:requests');
      const exporter = makeExporter(
        [
          { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' },
          { channel: 'ack:requests', folder: acks, format: csvFormat({ format: 'json', fileName: 'ack-{flow}-{orderId}.json' }), mode: 'perEvent' },
        ],
        { pollIntervalMs: 60_000 },
      );
      await exporter.start();
      expect(listFiles(folder)).toEqual(['status-000001.csv']);
      expect(listFiles(acks)).toEqual(['ack-requests-ORD-2026-000002.json']);
      expect(JSON.parse(fs.readFileSync(path.join(acks, 'ack-requests-ORD-2026-000002.json'), 'utf8'))).toEqual({
        order: 'ORD-2026-000002',
        status: 'accepted',
      });
    });
  });

  it('a second start while the first runs waits for the same start: the pending files are written when it resolves', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-2026-000001');
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 60_000 });
      const first = exporter.start();
      await exporter.start();
      expect(listFiles(folder)).toEqual(['status-000001.csv']);
      await first;
      await exporter.stop();
    });
  });

  it('stops idempotently, and wake after stop does nothing', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 20 });
      await exporter.start();
      await exporter.start();
      await Promise.all([exporter.stop(), exporter.stop()]);
      enqueueStatus(db, 'ORD-2026-000001');
      exporter.wake();
      // A working wake would queue its pass on this same setImmediate turn, ahead of the flush below,
      // and the flush would then find nothing left to write.
      await new Promise((resolve) => setImmediate(resolve));
      expect(listFiles(folder)).toEqual([]);
      expect(await exporter.flush()).toBe(1); // an explicit flush still works (the CLI may use it)
    });
  });
});
