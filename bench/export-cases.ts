/**
 * Child-side cases of the export bench.
 *
 * - `export-per-event`: the real exporter on the daemon's store (`createStore`: synchronous=NORMAL,
 *   group commit), the default status mapping, `perEvent`: `files` pending rows, enqueued at once
 *   and then woken for, until the last file is in the folder.
 * - `export-bare-loop`: the ceiling: the same number of files of the same size, written by a bare
 *   loop in a folder of the same file system: temp file, write, fsync, rename, and one folder
 *   fsync per group of files, `concurrency` files at a time on libuv's thread pool.
 * - `export-batch`: `rows` pending rows gathered into one `batch` file by `flush()`.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createExporter, renderExportFile } from '../src/export/index.js';
import { loadExportFormat } from '../src/export/load-export-format.js';
import { enqueueExport, STATUS_CHANNEL } from '../src/store/exports.js';
import { createStore, storePath, type Db } from '../src/store/open-store.js';
import { withTempRoot } from './bench-env.js';
import { daemonLikeLogger, fileCounter, STATUS_MAPPING } from './webhook-cases.js';

export interface PerEventArgs {
  files: number;
  warmupFiles: number;
}

export interface BareLoopArgs {
  files: number;
  warmupFiles: number;
  /** Files per folder fsync. */
  group: number;
  /** Files written at once. */
  concurrency: number;
}

export interface BatchArgs {
  rows: number;
  warmupRows: number;
}

export interface ExportRun {
  seconds: number;
  /** Mean bytes per file written. */
  bytesPerFile?: number;
}

const STATUSES = ['confirmed', 'shipped', 'delivered'] as const;

/** A status record as the listener enqueues one (`statusExportRecord`). */
function statusRecord(n: number): Record<string, unknown> {
  const eventDate = new Date(Date.UTC(2026, 5, 12, 7, 0, 0) + n * 1000).toISOString();
  return {
    eventId: `EVT-${String(n).padStart(7, '0')}`,
    eventType: 'order.status.changed',
    eventDate,
    orderId: `ORD-2026-${String((n % 500) + 1).padStart(6, '0')}`,
    status: STATUSES[n % STATUSES.length],
    receivedAt: eventDate,
  };
}

/** Enqueue status rows `from`..`from + count - 1` in one transaction (as a burst of events would, roughly). */
function enqueueStatusRows(db: Db, from: number, count: number): void {
  db.transaction(() => {
    for (let n = from; n < from + count; n++) enqueueExport(db, { channel: STATUS_CHANNEL, sourceKey: `EVT-${n}`, record: statusRecord(n), now: Date.now() });
  })();
}

async function exportPerEvent(args: PerEventArgs): Promise<ExportRun> {
  return withTempRoot(async (root) => {
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const folder = path.join(root, 'import');
    fs.mkdirSync(folder, { recursive: true });
    const counter = fileCounter();
    const exporter = createExporter({
      db,
      targets: [{ channel: STATUS_CHANNEL, folder, format: loadExportFormat(STATUS_MAPPING), mode: 'perEvent' }],
      logger: daemonLikeLogger(),
      metrics: counter.metrics,
      durable: () => durability.durable(),
    });
    try {
      enqueueStatusRows(db, 1, args.warmupFiles);
      await exporter.start();
      await counter.reached(args.warmupFiles);
      enqueueStatusRows(db, 1 + args.warmupFiles, args.files);
      const started = Date.now();
      exporter.wake();
      await counter.reached(args.warmupFiles + args.files);
      const seconds = (counter.lastFileAt()! - started) / 1000;
      const names = fs.readdirSync(folder);
      const bytes = names.slice(0, 100).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0);
      return { seconds, bytesPerFile: bytes / Math.min(100, names.length) };
    } finally {
      await exporter.stop();
      await store.stop();
    }
  });
}

/** Write `files` in groups: each written to a temp file, fsynced and renamed, `concurrency` at a time; one folder fsync per group. */
async function bareLoop(folder: string, files: readonly { name: string; bytes: Buffer }[], group: number, concurrency: number): Promise<void> {
  for (let start = 0; start < files.length; start += group) {
    const slice = files.slice(start, start + group);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < slice.length) {
        const file = slice[next++]!;
        const temp = path.join(folder, `.${file.name}.tmp`);
        const handle = await fsp.open(temp, 'wx');
        try {
          await handle.writeFile(file.bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.rename(temp, path.join(folder, file.name));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const dir = await fsp.open(folder, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

async function exportBareLoop(args: BareLoopArgs): Promise<ExportRun> {
  return withTempRoot(async (root) => {
    const format = loadExportFormat(STATUS_MAPPING);
    const render = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        name: `order-status-20260612100000-${String(from + i).padStart(6, '0')}.csv`,
        bytes: renderExportFile([statusRecord(from + i)], format, 'perEvent'),
      }));
    const warmupFolder = path.join(root, 'warmup');
    const folder = path.join(root, 'import');
    fs.mkdirSync(warmupFolder, { recursive: true });
    fs.mkdirSync(folder, { recursive: true });
    await bareLoop(warmupFolder, render(1, args.warmupFiles), args.group, args.concurrency);
    const files = render(1 + args.warmupFiles, args.files);
    const started = performance.now();
    await bareLoop(folder, files, args.group, args.concurrency);
    const seconds = (performance.now() - started) / 1000;
    return { seconds, bytesPerFile: files.reduce((sum, f) => sum + f.bytes.length, 0) / files.length };
  });
}

async function exportBatch(args: BatchArgs): Promise<ExportRun> {
  return withTempRoot(async (root) => {
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const folder = path.join(root, 'import');
    const exporter = createExporter({
      db,
      targets: [{ channel: STATUS_CHANNEL, folder, format: loadExportFormat(STATUS_MAPPING), mode: 'batch' }],
      logger: daemonLikeLogger(),
      durable: () => durability.durable(),
      pollIntervalMs: 3_600_000,
    });
    try {
      await exporter.start();
      enqueueStatusRows(db, 1, args.warmupRows);
      await exporter.flush();
      enqueueStatusRows(db, 1 + args.warmupRows, args.rows);
      const started = performance.now();
      const written = await exporter.flush();
      const seconds = (performance.now() - started) / 1000;
      if (written !== args.rows) throw new Error(`the batch flush wrote ${written} rows, expected ${args.rows}`);
      return { seconds };
    } finally {
      await exporter.stop();
      await store.stop();
    }
  });
}

export const exportCases = {
  'export-per-event': exportPerEvent,
  'export-bare-loop': exportBareLoop,
  'export-batch': exportBatch,
};
