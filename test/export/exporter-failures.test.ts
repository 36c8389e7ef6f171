/**
 * The exporter against names and folders it cannot use: hostile placeholder values, a folder
 * planted at a file's name, a read-only folder and a locked file. Real folders, the real exporter,
 * a real SQLite store; what is checked is what reached the folder and what the rows say.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/log.js';
import { MAX_NAME_BYTES, utf8Length } from '../../src/shared/file-name.js';
import { TEMP_NAME_EXTRA_BYTES } from '../../src/shared/write-file-atomic.js';
import { assignExportFileName, countExports, deleteWrittenExportsOlderThan, enqueueExport, listNamedPendingExports } from '../../src/store/exports.js';
import type { Db } from '../../src/store/open-store.js';
import { pendingExportsByChannel } from '../../src/store/stats.js';
import { csvFormat, enqueueStatus, withExportStore } from '../helpers/with-exporter.js';
import { listFiles } from '../helpers/files.js';
import { canMakeReadOnly, isRoot, whileReadOnly } from '../helpers/read-only.js';

/** A logger whose lines the test reads back, parsed. */
function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

const withCode = (lines: Record<string, unknown>[], code: string) => lines.filter((line) => line.code === code);

/** An acknowledgement row like delivery enqueues one. */
function enqueueAck(db: Db, externalId: string, n: number): void {
  enqueueExport(db, {
    channel: 'ack:requests',
    sourceKey: `${externalId}:accepted:${n}`,
    record: { flow: 'requests', externalId, outcome: 'accepted', platformId: `PRC-REQ-${n}` },
    now: n,
  });
}

const rowState = (db: Db, id: number) =>
  db.prepare('SELECT state, file_name, error FROM exports WHERE id = ?').get(id) as { state: string; file_name: string; error: string | null };

describe('export names from hostile values', () => {
  it('writes an acknowledgement with a 100-character Chinese externalId under a name of at most 255 bytes, and the next one too', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const externalId = '采购申请'.repeat(25); // 100 characters, 300 bytes of UTF-8
      enqueueAck(db, externalId, 1);
      enqueueAck(db, 'ЗК-000102', 2);
      const { logger, lines } = capturingLogger();
      const format = csvFormat({ fileName: 'ack-{externalId}-{id}.csv', columns: { id: { field: 'externalId' }, outcome: { field: 'outcome' } } });
      await makeExporter([{ channel: 'ack:requests', folder, format, mode: 'perEvent' }], { logger, pollIntervalMs: 60_000 }).start();

      expect(countExports(db, { state: 'written' })).toBe(2);
      const files = listFiles(folder, { hidden: true });
      expect(files).toHaveLength(2);
      expect(files).toContain('ack-ЗК-000102-2.csv');
      const long = files.find((name) => name.startsWith('ack-采购申请'))!;
      expect(utf8Length(long) + TEMP_NAME_EXTRA_BYTES).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(long).toMatch(/~[0-9a-f]{8}\.csv$/);
      expect(fs.readFileSync(path.join(folder, long), 'utf8')).toBe(`id;outcome\n${externalId};accepted\n`);
      expect(lines).toEqual([]);
    });
  });

  it.each(['CON', 'nul', 'Com1', 'LPT3'])('writes a file whose name would be the Windows device name %s under a safe one', async (device) => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, device);
      await makeExporter([{ channel: 'status', folder, format: csvFormat({ fileName: '{orderId}.csv' }), mode: 'perEvent' }], {
        pollIntervalMs: 60_000,
      }).start();
      expect(listFiles(folder)).toEqual([`_${device}.csv`]);
    });
  });
});

describe('a file that can never be written', () => {
  const target = (folder: string) => ({ channel: 'status', folder, format: csvFormat({ fileName: 'order-{orderId}.csv' }), mode: 'perEvent' as const });

  it('falls back to a plain name when a folder holds its own, and the other files are written meanwhile', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.csv'); // named (by a run that then stopped) …
      fs.mkdirSync(path.join(folder, 'order-ORD-1.csv'), { recursive: true }); // … and a folder planted at the name
      enqueueStatus(db, 'ORD-2');
      const { logger, lines } = capturingLogger();
      const exporter = makeExporter([target(folder)], { logger, pollIntervalMs: 60_000 });
      await exporter.start();

      expect(listFiles(folder)).toEqual(['order-ORD-1.csv', 'order-ORD-2.csv']);
      expect(rowState(db, 1)).toMatchObject({ state: 'pending', file_name: 'status-000001.csv', error: expect.stringContaining('EEXIST') });
      expect(withCode(lines, 'EXPORT_WRITE_FAILED')).toMatchObject([{ level: 'warn', fallback: 'status-000001.csv' }]);

      expect(await exporter.flush()).toBe(1);
      expect(listFiles(folder)).toEqual(['order-ORD-1.csv', 'order-ORD-2.csv', 'status-000001.csv']);
      expect(fs.readFileSync(path.join(folder, 'status-000001.csv'), 'utf8')).toBe('order;status\nORD-1;shipped\n');
      expect(fs.readdirSync(path.join(folder, 'order-ORD-1.csv'))).toEqual([]);
    });
  });

  it('never replaces a file someone else put at a chosen name before it was written: the rows go to a plain name', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.csv'); // named (by a run that then stopped, or waited on EACCES for hours) …
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'order-ORD-1.csv'), 'the ERP operator wrote this'); // … and someone else's file there since
      const { logger, lines } = capturingLogger();
      const exporter = makeExporter([target(folder)], { logger, pollIntervalMs: 60_000 });
      await exporter.start();
      expect(await exporter.flush()).toBe(1);

      expect(fs.readFileSync(path.join(folder, 'order-ORD-1.csv'), 'utf8')).toBe('the ERP operator wrote this');
      expect(fs.readFileSync(path.join(folder, 'status-000001.csv'), 'utf8')).toBe('order;status\nORD-1;shipped\n');
      expect(rowState(db, 1)).toMatchObject({ state: 'written', file_name: 'status-000001.csv', error: expect.stringContaining('EEXIST') });
      expect(withCode(lines, 'EXPORT_WRITE_FAILED')).toMatchObject([{ level: 'warn', fallback: 'status-000001.csv' }]);
    });
  });

  it('counts a file with exactly its bytes at its name as its own earlier write (the written mark lost): no second file', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.csv');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'order-ORD-1.csv'), 'order;status\nORD-1;shipped\n'); // written, then the power went before the mark
      const exporter = makeExporter([target(folder)], { pollIntervalMs: 60_000 });
      await exporter.start();
      await exporter.flush();
      expect(listFiles(folder)).toEqual(['order-ORD-1.csv']);
      expect(rowState(db, 1)).toMatchObject({ state: 'written', file_name: 'order-ORD-1.csv', error: null });
    });
  });

  it('sets the rows aside with the reason when the fallback name fails for good too, and the channel goes on', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.csv');
      fs.mkdirSync(path.join(folder, 'order-ORD-1.csv'), { recursive: true });
      const { logger, lines } = capturingLogger();
      const exporter = makeExporter([target(folder)], { logger, pollIntervalMs: 60_000 });
      await exporter.start();
      const [fellBack] = listNamedPendingExports(db, 'status');
      expect(fellBack?.fileName).toBe('status-000001.csv');
      fs.mkdirSync(path.join(folder, 'status-000001.csv')); // the fallback name is taken by a folder as well
      enqueueStatus(db, 'ORD-2');

      expect(await exporter.flush()).toBe(1);
      expect(rowState(db, 1)).toMatchObject({ state: 'set_aside', error: expect.stringMatching(/^EEXIST: cannot write .*status-000001\.csv/) });
      expect(withCode(lines, 'EXPORT_SET_ASIDE')).toMatchObject([{ level: 'error', file: 'status-000001.csv', reason: expect.stringContaining('EEXIST') }]);
      expect(listFiles(folder)).toEqual(['order-ORD-1.csv', 'order-ORD-2.csv', 'status-000001.csv']);

      // Not pending any more: not counted, not retried, and kept by housekeeping.
      expect(pendingExportsByChannel(db)).toEqual([]);
      expect(countExports(db, { state: 'pending' })).toBe(0);
      expect(await exporter.flush()).toBe(0);
      expect(withCode(lines, 'EXPORT_SET_ASIDE')).toHaveLength(1);
      expect(deleteWrittenExportsOlderThan(db, Number.MAX_SAFE_INTEGER)).toBe(1);
      expect(countExports(db, { state: 'set_aside' })).toBe(1);
    });
  });
});

describe('a file that cannot be written for now', () => {
  // As root only the immutable flag stops a write; skipped where root may not set it (some containers).
  it.skipIf(!canMakeReadOnly)(
    'a read-only folder costs one EXPORT_WRITE_FAILED line, does not hold up other targets, and is written once it works',
    async () => {
      await withExportStore(async ({ db, dir, folder, makeExporter }) => {
        const acks = path.join(dir, 'erp', 'acks');
        fs.mkdirSync(folder, { recursive: true });
        enqueueStatus(db, 'ORD-1');
        enqueueStatus(db, 'ORD-2');
        enqueueAck(db, 'ЗК-1', 3);
        const { logger, lines } = capturingLogger();
        const exporter = makeExporter(
          [
            { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' },
            { channel: 'ack:requests', folder: acks, format: csvFormat({ fileName: 'ack-{id}.csv' }), mode: 'perEvent' },
          ],
          { logger, pollIntervalMs: 60_000 },
        );
        await whileReadOnly(folder, async (restore) => {
          await exporter.start();
          expect(listFiles(acks)).toEqual(['ack-3.csv']);
          expect(listFiles(folder, { hidden: true })).toEqual([]);
          expect(countExports(db, { channel: 'status', state: 'pending' })).toBe(2);
          expect(withCode(lines, 'EXPORT_WRITE_FAILED')).toMatchObject([{ level: 'error', channel: 'status' }]);
          restore();
          expect(await exporter.flush()).toBe(2);
        });
        expect(listFiles(folder)).toEqual(['status-000001.csv', 'status-000002.csv']);
      });
    },
  );

  // Needs the immutable flag (root, and not in every container): an ordinary user cannot make one
  // name in a writable folder refuse a rename, so this case is skipped when not run as root.
  it.skipIf(!isRoot || !canMakeReadOnly)(
    'a locked file holding other bytes at its name is left alone, and the files after it in its channel are written',
    async () => {
      await withExportStore(async ({ db, folder, makeExporter }) => {
        enqueueStatus(db, 'ORD-1');
        assignExportFileName(db, [1], 'status-000001.csv');
        fs.mkdirSync(folder, { recursive: true });
        const locked = path.join(folder, 'status-000001.csv');
        fs.writeFileSync(locked, 'an older copy the ERP holds');
        enqueueStatus(db, 'ORD-2');
        enqueueStatus(db, 'ORD-3');
        const { logger, lines } = capturingLogger();
        const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { logger, pollIntervalMs: 60_000 });
        await whileReadOnly(locked, async () => {
          await exporter.start();
          expect(await exporter.flush()).toBe(1);
        });
        expect(fs.readFileSync(locked, 'utf8')).toBe('an older copy the ERP holds');
        expect(listFiles(folder)).toEqual(['status-000001-2.csv', 'status-000001.csv', 'status-000002.csv', 'status-000003.csv']);
        expect(fs.readFileSync(path.join(folder, 'status-000001-2.csv'), 'utf8')).toBe('order;status\nORD-1;shipped\n');
        expect(withCode(lines, 'EXPORT_WRITE_FAILED')).toMatchObject([{ level: 'warn', file: 'status-000001.csv', fallback: 'status-000001-2.csv' }]);
        expect(countExports(db, { state: 'written' })).toBe(3);
      });
    },
  );
});
