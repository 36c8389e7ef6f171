/**
 * The exporter writes files in groups: a burst is written in one pass (not a slice per wake-up),
 * a group's rows are marked in one transaction, no file exists before its name is durable, and
 * one channel's backlog does not hold up another channel. Real folders, a real SQLite store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Metrics } from '../../src/metrics/metrics.js';
import { countExports, enqueueExport } from '../../src/store/exports.js';
import { csvFormat, enqueueStatus, withExportStore } from '../helpers/with-exporter.js';
import { listFiles } from '../helpers/files.js';
import { waitUntil } from '../helpers/wait-until.js';

/** The export counter, as a list of the channels of the files written, in order. */
function fileLog(): { metrics: Pick<Metrics, 'exportFiles'>; channels: string[] } {
  const channels: string[] = [];
  const metrics = { exportFiles: { inc: (labels: { channel: string }) => void channels.push(labels.channel) } } as unknown as Pick<Metrics, 'exportFiles'>;
  return { metrics, channels };
}

describe('exporter groups', () => {
  it('writes a backlog of 1,200 rows without waiting for the poll: start() waits for the first groups only, the rest follows at once', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      db.transaction(() => {
        for (let n = 1; n <= 1_200; n += 1) enqueueStatus(db, `ORD-${n}`);
      })();
      await makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 60_000 }).start();
      // A backlog left by a long outage must not hold up the stages the daemon starts after the exporter.
      expect(countExports(db, { state: 'written' })).toBeLessThan(1_200);
      await waitUntil(() => countExports(db, { state: 'pending' }) === 0, 'the rest of the backlog, before the next poll', 30_000);
      expect(listFiles(folder)).toHaveLength(1_200);
    });
  });

  it("marks the rows of a group's files written in one transaction (one written_at for the group)", async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      for (let n = 1; n <= 5; n += 1) enqueueStatus(db, `ORD-${n}`);
      let now = Date.UTC(2026, 5, 12, 7, 0, 0);
      const clock = () => (now += 1_000); // every reading of the clock is a second later
      await makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { clock, pollIntervalMs: 60_000 }).start();
      const marks = db.prepare("SELECT DISTINCT written_at FROM exports WHERE state = 'written'").all();
      expect(countExports(db, { state: 'written' })).toBe(5);
      expect(marks).toHaveLength(1);
    });
  });

  it('writes no file before the rows and their names are durable (the store group commit resolved)', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      enqueueStatus(db, 'ORD-2');
      let release: () => void = () => undefined;
      let asked = 0;
      const durable = () => {
        asked += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      };
      const started = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { durable, pollIntervalMs: 60_000 }).start();
      await waitUntil(() => asked === 1, 'the exporter to wait for the group commit');
      // Named already (the names are what must be durable), but nothing is in the folder.
      expect(db.prepare('SELECT count(*) AS n FROM exports WHERE file_name IS NOT NULL').get()).toEqual({ n: 2 });
      expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([]);
      release();
      await started;
      expect(listFiles(folder)).toEqual(['status-000001.csv', 'status-000002.csv']);
    });
  });

  it('names the next group while this one waits and is written, so the wait for its names runs meanwhile; none of its files exists before that wait resolves', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      db.transaction(() => {
        for (let n = 1; n <= 40; n += 1) enqueueStatus(db, `ORD-${n}`);
      })();
      const named = () => (db.prepare('SELECT count(*) AS n FROM exports WHERE file_name IS NOT NULL').get() as { n: number }).n;
      const files = () => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => !name.startsWith('.')) : []);
      const waits: { named: number; files: number; release: () => void }[] = [];
      const durable = () => new Promise<void>((release) => waits.push({ named: named(), files: files().length, release }));
      const started = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { durable, pollIntervalMs: 60_000 }).start();
      await waitUntil(() => waits.length === 2, 'the waits of both groups');
      // Both asked for before any file was written: the first covers 32 names, the second all 40.
      expect(waits.map(({ named, files }) => ({ named, files }))).toEqual([
        { named: 32, files: 0 },
        { named: 40, files: 0 },
      ]);
      waits[0]!.release();
      await waitUntil(() => files().length === 32, 'the first group written');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(files()).toHaveLength(32); // the second group waits for its own names
      waits[1]!.release();
      await started;
      await waitUntil(() => files().length === 40, 'the second group written');
      expect(waits).toHaveLength(2);
    });
  });

  it("does not let one channel's backlog hold up another's file: targets take turns, a group each", async () => {
    await withExportStore(async ({ db, dir, folder, makeExporter }) => {
      const acks = path.join(dir, 'erp', 'acks');
      db.transaction(() => {
        for (let n = 1; n <= 200; n += 1) enqueueStatus(db, `ORD-${n}`);
      })();
      enqueueExport(db, { channel: 'ack:requests', sourceKey: 'R-1:accepted:1', record: { externalId: 'R-1', outcome: 'accepted' }, now: 1 });
      const { metrics, channels } = fileLog();
      await makeExporter(
        [
          { channel: 'status', folder, format: csvFormat(), mode: 'perEvent' },
          { channel: 'ack:requests', folder: acks, format: csvFormat({ fileName: 'ack-{id}.csv' }), mode: 'perEvent' },
        ],
        { metrics, pollIntervalMs: 60_000 },
      ).start();
      expect(channels).toHaveLength(201);
      // The acknowledgement went out with the status channel's first group, not after its 200 files.
      expect(channels.indexOf('ack:requests')).toBeLessThan(100);
      expect(listFiles(acks)).toEqual(['ack-201.csv']);
    });
  });

  it('looks a candidate name up through the exports_file_name index (migration 3), not by reading the whole table', async () => {
    await withExportStore(async ({ db }) => {
      // The query of isExportFileNameTaken, asked for its plan.
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT 1 FROM exports WHERE file_name = ? LIMIT 1').all('status-000001.csv') as { detail: string }[];
      expect(plan.map((step) => step.detail).join('; ')).toMatch(/USING (COVERING )?INDEX exports_file_name/);
    });
  });

  it('keeps writing while wake-ups never stop (a storm): giving way to producers slows the files, never stops them', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const exporter = makeExporter([{ channel: 'status', folder, format: csvFormat(), mode: 'perEvent' }], { pollIntervalMs: 60_000 });
      await exporter.start();
      db.transaction(() => {
        for (let n = 1; n <= 100; n += 1) enqueueStatus(db, `ORD-${n}`);
      })();
      const storm = setInterval(() => exporter.wake(), 2);
      try {
        await waitUntil(() => countExports(db, { state: 'written' }) === 100, 'every file written during the storm', 20_000);
      } finally {
        clearInterval(storm);
      }
      expect(listFiles(folder)).toHaveLength(100);
    });
  });
});
