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
 * Files go in groups (`GROUP_FILES`, `export-pass.ts`): a group is named in one transaction, waits once for the
 * store's group commit, is written with one folder fsync and marked in one transaction
 * (`write-export-files.ts`). A pass (`export-pass.ts`) goes on, a group of each target in turn, until nothing is
 * left, so a burst is written at the pace of the disk rather than a group per wake-up; between
 * groups it awaits file system work, so the event loop (the webhook listener) is never held for
 * more than one group's naming, rendering or marking.
 *
 * No file holds up the others of its channel: each file has its own name, so the order in which
 * they are written does not matter, and a failed file is skipped (retried next pass, or moved to
 * a fallback name and then set aside: `write-export-files.ts`). A folder that cannot be written at
 * all is checked once per pass, so it costs one log line, not one per file.
 */
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Db } from '../store/open-store.js';
import type { ExportFormat } from '../config/export-format-schema.js';
import type { ExportTarget } from './export-target.js';
import { createExportPass, TICK, FLUSH, type PassKind } from './export-pass.js';
import { createExportWriter } from './write-export-files.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { createSerialLane } from '../shared/serial-lane.js';
import { createStartStop } from '../shared/start-stop.js';
import { alreadyDurable, systemClock, type WaitDurable, type Clock } from '../shared/types.js';
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
 * Groups per target that `start()` waits for (about the 500 rows the exporter used to name per
 * pass): a backlog left by a long outage is written after start, in the background, so that it
 * does not hold up the stages that start after the exporter.
 */
const START: PassKind = { ...TICK, groupLimit: 16 };
/** A temp file of ours this old in an export folder was left by a crash (a write takes milliseconds). */
const STALE_TEMP_MS = 10 * 60_000;

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
  /** Aborted by `stop()`, so that a pass giving way ends at once. */
  let stopSignal = new AbortController();
  const pass = createExportPass({ db, targets, writer, clock, log, running: () => running, stopSignal: () => stopSignal.signal });

  /** A background pass (it ends early when stopped); a tick already waiting covers this one. */
  const tick = (): void => {
    if (!running || tickQueued) return;
    tickQueued = true;
    void lane.run(async () => {
      tickQueued = false;
      if (running) await pass.run(TICK);
    });
  };

  const lifecycle = createStartStop({
    async start() {
      running = true;
      stopSignal = new AbortController();
      for (const target of targets) {
        const removed = await removeStaleTempFiles(target.folder, STALE_TEMP_MS);
        if (removed > 0) log.info({ channel: target.channel, folder: target.folder, removed }, 'temp files left by an earlier run removed');
      }
      // Stopped while the temp files were removed: no poll to leave behind.
      if (!running) return;
      timer = setInterval(tick, pollIntervalMs);
      timer.unref();
      const { more } = await lane.run(() => pass.run(START));
      if (more) tick();
    },
    // At once, before waiting for the start: a pass giving way ends, and no poll is left behind.
    interrupt() {
      running = false;
      stopSignal.abort();
      if (timer) clearInterval(timer);
      timer = null;
    },
    stop: () => lane.idle(),
    afterStop: 'restart',
  });

  return {
    name: 'exporter',
    start: lifecycle.start,
    stop: lifecycle.stop,
    flush() {
      return lane.run(async () => (await pass.run(FLUSH)).written);
    },
    reload(formats) {
      for (const target of targets) target.format = formats.get(target.channel) ?? target.format;
    },
    wake() {
      if (!running) return;
      pass.noteWake();
      if (wakeScheduled) return;
      wakeScheduled = true;
      setImmediate(() => {
        wakeScheduled = false;
        tick();
      });
    },
  };
}
