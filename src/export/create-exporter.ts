/**
 * The exporter: pending rows of the export outbox → files in ERP import folders.
 *
 * A row stays `pending` in SQLite until its file exists, so a pending export survives a restart.
 * Two steps per file, in this order:
 * 1. name: choose the file name once and store it on the row(s) in a transaction;
 * 2. write: render the named rows, write atomically (temp, fsync, rename, fsync folder), then mark
 *    the rows written in one transaction.
 * A crash between 2's write and its marking rewrites the same name with the same bytes, never a
 * second file. `perEvent` targets are written whenever woken (and on a 1 s poll); `batch` targets
 * gather every pending row into one file on `flush()` (the daemon calls it on `export.batchCron`).
 *
 * Files go in groups (`GROUP_FILES`): a group is named in one transaction, waits once for the
 * store's group commit, is written with one folder fsync and marked in one transaction
 * (`write-export-files.ts`). A pass goes on, a group of each target in turn, until nothing is
 * left, so a burst is written at the pace of the disk rather than a group per wake-up; between
 * groups it awaits file system work, so the event loop (the webhook listener) is never held for
 * more than one group's naming, rendering or marking.
 *
 * No file holds up the others of its channel: each file has its own name, so the order in which
 * they are written does not matter, and a failed file is skipped (retried next pass, or moved to
 * a fallback name and then set aside: `write-export-files.ts`). A folder that cannot be written at
 * all is checked once per pass, so it costs one log line, not one per file.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Db } from '../store/open-store.js';
import type { ExportFormat } from '../config/export-format-schema.js';
import { describeError } from '../errors.js';
import { listNamedPendingExports, nameUnnamedExports, type ExportRow, type NamedExportFile } from '../store/exports.js';
import type { ExportTarget } from './export-target.js';
import { chooseFreeName } from './choose-name.js';
import { recordOf } from './export-record.js';
import { flowOfChannel, renderFileName } from './file-name.js';
import { createExportWriter } from './write-export-files.js';
import { GIVE_WAY, giveWayMs, writeConcurrency } from './give-way.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { createSerialLane } from '../shared/serial-lane.js';
import { alreadyDurable, systemClock, type Clock, type WaitDurable } from '../shared/types.js';
import { removeStaleTempFiles } from '../shared/write-file-atomic.js';

export type { ExportTarget };

export interface ExporterDeps {
  db: Db;
  targets: readonly ExportTarget[];
  logger: Logger;
  clock?: Clock;
  /** Fallback poll when nobody calls `wake()`. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'exportFiles'>;
  /**
   * The store's group commit, awaited before files are written: a file must never exist for a row
   * (or a name) that a power cut could take back, or the next run would write it again under
   * another name. Default: commits are durable already (a FULL store).
   */
  durable?: WaitDurable;
}

export interface Exporter extends Component, Reloadable<ReadonlyMap<string, ExportFormat>> {
  /**
   * Write what is pending (perEvent targets, and files named before a restart), then keep polling.
   * Resolves once the first groups of each target are written; a larger backlog goes on in the
   * background. Idempotent.
   */
  start(): Promise<void>;
  /** Stop polling and wait for the pass in progress. Idempotent. */
  stop(): Promise<void>;
  /** Write every pending row of every target, batch targets included. Resolves with rows written; never rejects. */
  flush(): Promise<number>;
  /** Something was enqueued: run a pass soon (coalesced). */
  wake(): void;
  /** New formats by channel (SIGHUP, already validated); files not yet written use them. */
  reload(formats: ReadonlyMap<string, ExportFormat>): void;
}

/**
 * Files per group: named in one transaction, written with one folder fsync, marked in one
 * transaction. Bounds the work done on the event loop between two waits (naming, rendering and
 * marking a group take a few milliseconds), so that the listener's requests are not held up.
 */
const GROUP_FILES = 32;
/** Rows gathered into one batch file; beyond this a flush writes several files. */
const BATCH_LIMIT = 50_000;
/**
 * Groups per target that `start()` waits for (about the 500 rows the exporter used to name per
 * pass): a backlog left by a long outage is written after start, in the background, so that it
 * does not hold up the stages that start after the exporter.
 */
const START_GROUPS = 16;
/** A temp file of ours this old in an export folder was left by a crash (a write takes milliseconds). */
const STALE_TEMP_MS = 10 * 60_000;

/** One target's work in a pass: files named before it, then the rows it names as it goes. */
interface TargetPass {
  target: ExportTarget;
  /** Named files waiting to be written in this pass. */
  queue: NamedExportFile[];
  started: boolean;
  done: boolean;
  /** Groups written (or tried) in this pass. */
  groups: number;
}

export function createExporter(deps: ExporterDeps): Exporter {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ component: 'exporter' });
  const pollIntervalMs = deps.pollIntervalMs ?? 1_000;
  const writer = createExportWriter({ db, log, clock, durable: deps.durable ?? alreadyDurable, metrics: deps.metrics });
  // Own copies: `reload()` swaps a target's format without touching the caller's objects.
  const targets: ExportTarget[] = deps.targets.map((target) => ({ ...target }));

  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeScheduled = false;
  /** Serialises passes: a tick, a flush and stop never overlap. */
  const lane = createSerialLane();
  let tickQueued = false;
  /** Monotonic times (not `clock`, which tests may stop) of the last wake-up and the last group written. */
  let lastWakeAt = Number.NEGATIVE_INFINITY;
  let lastGroupAt = Number.NEGATIVE_INFINITY;

  /** Aborted by `stop()`, so that a pass giving way ends at once. */
  let stopSignal = new AbortController();

  /** Wait while producers are busy, as `give-way.ts` decides. */
  const giveWay = async (): Promise<void> => {
    const { signal } = stopSignal;
    for (let wait = giveWayMs(GIVE_WAY, performance.now(), lastWakeAt, lastGroupAt); wait > 0 && !signal.aborted;) {
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      wait = giveWayMs(GIVE_WAY, performance.now(), lastWakeAt, lastGroupAt);
    }
  };

  /** Name the target's next unnamed rows in one transaction: a group of one-row files (perEvent) or one batch file. */
  const nameNext = (target: ExportTarget): NamedExportFile[] => {
    const batch = target.mode === 'batch';
    const now = clock();
    return nameUnnamedExports(db, target.channel, batch ? BATCH_LIMIT : GROUP_FILES, {
      group: (rows) => (batch ? [rows] : rows.map((row) => [row])),
      name: (group) => {
        const first = group[0]!;
        const base = renderFileName(target.format.fileName, { now, exportId: first.id, flow: flowOfChannel(target.channel), record: recordOf(first) });
        return chooseFreeName(db, target.folder, base);
      },
    });
  };

  /**
   * One step of a target's pass: write the next group of named files, naming the next rows when
   * none are waiting. The first step takes the files named before the pass (a restart, a file
   * that failed for now, a fallback name) and checks the folder once. In a background pass the
   * group first gives way to busy producers (`give-way.ts`). Returns rows written.
   */
  const step = async (work: TargetPass, includeBatch: boolean, background: boolean): Promise<number> => {
    const { target } = work;
    const mayName = target.mode === 'perEvent' || includeBatch;
    if (!work.started) {
      work.started = true;
      work.queue = groupByName(listNamedPendingExports(db, target.channel));
      if (mayName) work.queue.push(...nameNext(target));
      if (work.queue.length === 0 || !(await writer.folderIsWritable(target))) {
        work.done = true;
        return 0;
      }
    } else if (work.queue.length === 0 && mayName) {
      work.queue = nameNext(target);
    }
    if (work.queue.length === 0) {
      work.done = true;
      return 0;
    }
    if (background) {
      await giveWay();
      if (!running) return 0; // stopped meanwhile: the named files are written on the next start
    }
    try {
      const concurrency = writeConcurrency(GIVE_WAY, performance.now(), lastWakeAt);
      return await writer.writeFiles(target, work.queue.splice(0, GROUP_FILES), concurrency);
    } finally {
      lastGroupAt = performance.now();
    }
  };

  /**
   * One pass: a group of each target in turn, so that no channel waits for another's backlog,
   * until every target has nothing left. A background pass (a tick) ends early when stopped and
   * gives way to busy producers; a flush does neither. Catches everything so no error leaves a
   * background loop; a failed target is left for the next pass.
   */
  const pass = async (includeBatch: boolean, background: boolean, groupLimit = Number.POSITIVE_INFINITY): Promise<{ written: number; more: boolean }> => {
    const work: TargetPass[] = targets.map((target) => ({ target, queue: [], started: false, done: false, groups: 0 }));
    let written = 0;
    const open = () => work.filter((w) => !w.done && w.groups < groupLimit);
    while (open().length > 0 && (running || !background)) {
      for (const w of open()) {
        try {
          written += await step(w, includeBatch, background);
        } catch (error) {
          w.done = true;
          log.error({ channel: w.target.channel, err: error, code: 'EXPORT_WRITE_FAILED' }, `export pass failed: ${describeError(error)}`);
        }
        w.groups += 1;
      }
    }
    return { written, more: work.some((w) => !w.done) };
  };

  /** A background pass (it ends early when stopped); a tick already waiting covers this one. */
  const tick = (): void => {
    if (!running || tickQueued) return;
    tickQueued = true;
    void lane.run(async () => {
      tickQueued = false;
      if (running) await pass(false, true);
    });
  };

  return {
    name: 'exporter',
    async start() {
      if (running) return;
      running = true;
      for (const target of targets) {
        const removed = await removeStaleTempFiles(target.folder, STALE_TEMP_MS);
        if (removed > 0) log.info({ channel: target.channel, folder: target.folder, removed }, 'temp files left by an earlier run removed');
      }
      stopSignal = new AbortController();
      timer = setInterval(tick, pollIntervalMs);
      timer.unref();
      const { more } = await lane.run(() => pass(false, true, START_GROUPS));
      if (more) tick();
    },
    async stop() {
      running = false;
      stopSignal.abort();
      if (timer) clearInterval(timer);
      timer = null;
      await lane.idle();
    },
    flush() {
      return lane.run(async () => (await pass(true, false)).written);
    },
    reload(formats) {
      for (const target of targets) target.format = formats.get(target.channel) ?? target.format;
    },
    wake() {
      if (!running) return;
      lastWakeAt = performance.now();
      if (wakeScheduled) return;
      wakeScheduled = true;
      setImmediate(() => {
        wakeScheduled = false;
        tick();
      });
    },
  };
}

/** Named pending rows (oldest first) as files: one pass over the rows, a file's rows in their order. */
function groupByName(rows: readonly ExportRow[]): NamedExportFile[] {
  const files = new Map<string, ExportRow[]>();
  for (const row of rows) {
    const name = row.file_name!;
    const group = files.get(name);
    if (group) group.push(row);
    else files.set(name, [row]);
  }
  return [...files].map(([fileName, group]) => ({ fileName, rows: group }));
}
