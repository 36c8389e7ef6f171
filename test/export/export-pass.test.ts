/**
 * The exporter's pass on its own: what a tick, a flush and a start's bounded pass each may do.
 * Real folders, a real SQLite store, the real writer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExportPass, FLUSH, TICK } from '../../src/export/export-pass.js';
import type { ExportTarget } from '../../src/export/export-target.js';
import { createExportWriter } from '../../src/export/write-export-files.js';
import { createLogger, silentLogger, type Logger } from '../../src/log.js';
import { alreadyDurable, systemClock } from '../../src/shared/types.js';
import { countExports } from '../../src/store/exports.js';
import type { Db } from '../../src/store/open-store.js';
import { listFiles } from '../helpers/files.js';
import { waitUntil } from '../helpers/wait-until.js';
import { csvFormat, enqueueStatus, withExportStore } from '../helpers/with-exporter.js';

function passOver(db: Db, targets: ExportTarget[], running = () => true, log: Logger = silentLogger) {
  const writer = createExportWriter({ db, log, clock: systemClock, durable: alreadyDurable });
  return createExportPass({ db, targets, writer, clock: systemClock, log, running, stopSignal: () => new AbortController().signal });
}

function linesLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { log, lines };
}

/** `count` status rows (ORD-1…) enqueued in one transaction. */
function enqueueOrders(db: Db, count: number): void {
  db.transaction(() => {
    for (let n = 1; n <= count; n += 1) enqueueStatus(db, `ORD-${n}`);
  })();
}

const statusPass = (db: Db, folder: string, log: Logger) =>
  passOver(db, [{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], () => true, log);

const writeFailures = (lines: readonly Record<string, unknown>[]) => lines.filter((line) => line.code === 'EXPORT_WRITE_FAILED').map((line) => line.msg);

const stateOf = (db: Db) =>
  db.prepare('SELECT state, count(*) AS n, count(file_name) AS named FROM exports GROUP BY state ORDER BY state').all() as {
    state: string;
    n: number;
    named: number;
  }[];

describe('createExportPass', () => {
  it('a tick writes perEvent rows and leaves batch rows unnamed; a flush gathers them into one file', async () => {
    await withExportStore(async ({ db, dir }) => {
      const perEvent = path.join(dir, 'per-event');
      const batch = path.join(dir, 'batch');
      enqueueStatus(db, 'ORD-1', 'shipped', 'status');
      enqueueStatus(db, 'ORD-2', 'shipped', 'daily');
      enqueueStatus(db, 'ORD-3', 'shipped', 'daily');
      const pass = passOver(db, [
        { channel: 'status', folder: perEvent, format: csvFormat(), mode: 'perEvent' },
        { channel: 'daily', folder: batch, format: csvFormat({ fileName: 'daily-{seq}.csv' }), mode: 'batch' },
      ]);
      expect(await pass.run(TICK)).toEqual({ written: 1, more: false });
      expect(listFiles(perEvent)).toHaveLength(1);
      expect(fs.existsSync(batch)).toBe(false);
      expect(await pass.run(FLUSH)).toEqual({ written: 2, more: false });
      expect(listFiles(batch)).toHaveLength(1);
    });
  });

  it('stops at groupLimit groups per target and says more is left', async () => {
    await withExportStore(async ({ db, folder }) => {
      enqueueOrders(db, 40);
      const pass = passOver(db, [{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }]);
      expect(await pass.run({ ...TICK, groupLimit: 1 })).toEqual({ written: 32, more: true });
      expect(await pass.run(TICK)).toEqual({ written: 8, more: false });
    });
  });

  it('a background pass writes nothing once the exporter stopped; a flush still writes', async () => {
    await withExportStore(async ({ db, folder }) => {
      enqueueStatus(db, 'ORD-1');
      const pass = passOver(db, [{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], () => false);
      expect(await pass.run(TICK)).toEqual({ written: 0, more: true });
      expect(countExports(db, { state: 'pending' })).toBe(1);
      expect(await pass.run(FLUSH)).toEqual({ written: 1, more: false });
    });
  });

  it('a folder that cannot be written holds up no other target', async () => {
    await withExportStore(async ({ db, dir, folder }) => {
      const blocked = path.join(dir, 'not-a-folder');
      fs.writeFileSync(blocked, 'a file where the folder should be');
      enqueueStatus(db, 'ORD-1', 'shipped', 'blocked');
      enqueueStatus(db, 'ORD-2', 'shipped', 'status');
      const pass = passOver(db, [
        { channel: 'blocked', folder: blocked, format: csvFormat(), mode: 'perEvent' },
        { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' },
      ]);
      expect(await pass.run(TICK)).toEqual({ written: 1, more: false });
      expect(listFiles(folder)).toHaveLength(1);
    });
  });

  describe('the next group is prepared while a group is written', () => {
    it('a store failure while naming the next group: the group being written is still written and marked, the failure is logged, and the rows left are written once the store works', async () => {
      await withExportStore(async ({ db, folder }) => {
        enqueueOrders(db, 40);
        // Naming the first group works; naming any row after it fails, as a full disk would.
        db.exec("CREATE TRIGGER fail_naming BEFORE UPDATE OF file_name ON exports WHEN NEW.id > 32 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
        const { log, lines } = linesLogger();
        const pass = statusPass(db, folder, log);
        expect(await pass.run(TICK)).toEqual({ written: 32, more: false });
        expect(listFiles(folder)).toHaveLength(32);
        expect(stateOf(db)).toEqual([
          { state: 'pending', n: 8, named: 0 },
          { state: 'written', n: 32, named: 32 },
        ]);
        expect(writeFailures(lines)).toEqual(['export pass failed: database or disk is full']);
        db.exec('DROP TRIGGER fail_naming');
        expect(await pass.run(TICK)).toEqual({ written: 8, more: false });
        expect(listFiles(folder)).toHaveLength(40);
      });
    });

    it('a store failure marking a group written while the next one is written: both groups are in the folder, their rows pending under their names, the failure logged; the next pass finds the files and marks them', async () => {
      await withExportStore(async ({ db, folder }) => {
        enqueueOrders(db, 40);
        db.exec("CREATE TRIGGER fail_marking BEFORE UPDATE OF state ON exports WHEN NEW.state = 'written' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
        const { log, lines } = linesLogger();
        const pass = statusPass(db, folder, log);
        expect(await pass.run(TICK)).toEqual({ written: 0, more: false });
        expect(listFiles(folder)).toHaveLength(40);
        expect(stateOf(db)).toEqual([{ state: 'pending', n: 40, named: 40 }]);
        expect(writeFailures(lines)).toEqual([
          'export pass failed: disk I/O error',
          'export files written but not marked: disk I/O error; the next pass finds them and marks them',
        ]);
        const before = listFiles(folder).map((name) => fs.readFileSync(path.join(folder, name), 'utf8'));
        db.exec('DROP TRIGGER fail_marking');
        // The next pass finds its own files, byte for byte: none is written twice or under another name.
        expect(await pass.run(TICK)).toEqual({ written: 40, more: false });
        expect(listFiles(folder).map((name) => fs.readFileSync(path.join(folder, name), 'utf8'))).toEqual(before);
        expect(stateOf(db)).toEqual([{ state: 'written', n: 40, named: 40 }]);
      });
    });

    it('marks a group written before giving way to busy producers, not after the wait', async () => {
      await withExportStore(async ({ db, folder }) => {
        enqueueOrders(db, 40);
        const pass = passOver(db, [{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }]);
        const running = pass.run(TICK);
        // Producers turn busy once the first group is on its way: the second group waits up to a second.
        pass.noteWake();
        const wakes = setInterval(() => pass.noteWake(), 10);
        try {
          await waitUntil(() => listFiles(folder).length >= 32, 'the first group written');
          await waitUntil(
            () => stateOf(db).some((row) => row.state === 'written' && row.n === 32),
            'the first group marked while the pass gives way (a second)',
            { timeoutMs: 600, intervalMs: 5 },
          );
          expect(listFiles(folder)).toHaveLength(32);
        } finally {
          clearInterval(wakes);
        }
        expect(await running).toEqual({ written: 40, more: false });
      });
    });

    it("marks a target's last group when that target is done, not when the other targets' pass ends", async () => {
      await withExportStore(async ({ db, dir, folder }) => {
        const acks = path.join(dir, 'acks');
        db.transaction(() => {
          for (let n = 1; n <= 3; n += 1) enqueueStatus(db, `ACK-${n}`, 'shipped', 'acks');
          for (let n = 1; n <= 200; n += 1) enqueueStatus(db, `ORD-${n}`);
        })();
        const pass = passOver(db, [
          { channel: 'acks', folder: acks, format: csvFormat(), mode: 'perEvent' },
          { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' },
        ]);
        const acksWritten = () => (db.prepare("SELECT count(*) AS n FROM exports WHERE channel = 'acks' AND state = 'written'").get() as { n: number }).n;
        pass.noteWake();
        const wakes = setInterval(() => pass.noteWake(), 10); // busy producers: 'status' writes a group a second
        try {
          const running = pass.run(TICK);
          await waitUntil(() => acksWritten() === 3, 'the acks marked while status still has groups to write', { timeoutMs: 1_500, intervalMs: 5 });
          expect(listFiles(folder).length).toBeLessThan(200);
          clearInterval(wakes);
          expect(await running).toEqual({ written: 203, more: false });
        } finally {
          clearInterval(wakes);
        }
      });
    });
  });
});
