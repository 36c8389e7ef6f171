/**
 * `createIntake`: one flow's inbox, watched and scanned. chokidar's events only bring the next scan
 * forward; the full scan (at start, every `rescanIntervalMs`, and when a waiting file may have
 * become complete) is the truth, because SMB/NFS shares lose events. Each scan first writes the
 * error reports still pending in the store. Scans, recovery and file
 * processing run one at a time; a tick that finds one running is folded into the next.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FlowConfig } from '../config/flow-schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { mapFile, type MappingSpec } from '../mapping/index.js';
import { type Db } from '../store/open-store.js';
import { isReservedName } from './inbox-names.js';
import { ensureInboxDirs, inboxDirs, type IntakeContext } from './intake-context.js';
import { writePendingReports } from './pending-reports.js';
import { writeDueReply } from './exchange-reply.js';
import { recoverIntake, type RecoveryReport } from './recover.js';
import { retakeRejectedFile, type RetakeOutcome } from './retake-file.js';
import type { FileGate } from './file-gate.js';
import { scanInbox } from './scan-inbox.js';
import { createStabilityTracker } from './stability.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { createSerialLane } from '../shared/serial-lane.js';
import { alreadyDurable, systemClock, type Clock, type WaitDurable } from '../shared/types.js';

export type { RecoveryReport } from './recover.js';
export type { RetakeOutcome } from './retake-file.js';

export interface IntakeDeps {
  db: Db;
  flow: FlowConfig;
  /** Prefix of idempotency keys (`<sourceSystem>:<externalId>`); the ERP's name for itself. */
  sourceSystem: string;
  /** The flow's mapping; `reload()` swaps it (SIGHUP), between files. */
  mapping: MappingSpec;
  logger: Logger;
  clock?: Clock;
  /** The store's group commit; awaited before a recorded file leaves `processing/`. Default: commits are durable already (a FULL store). */
  durable?: WaitDurable;
  /** Called after a file recorded new (or corrected) submissions, to wake the dispatcher. */
  onRecorded?: (count: number) => void;
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'files'> & Partial<Pick<Metrics, 'exchangeMessages' | 'readerFaults'>>;
  /** Shared by the daemon's intakes: at most `intake.concurrentFiles` files taken at once across flows. Default: no bound beyond this flow's one file at a time. */
  fileGate?: FileGate;
}

export interface Intake extends Component, Reloadable<MappingSpec> {
  /** Recover what a crash left in processing/, start watching, run the first scan. Idempotent. */
  start(): Promise<void>;
  /** Stop taking files and wait for the file in progress. Idempotent. */
  stop(): Promise<void>;
  /** Map the next files with this (already validated) mapping; the file in progress keeps the old one. */
  reload(mapping: MappingSpec): void;
  /** Run a full scan now (after the one in progress, if any). */
  scanNow(): Promise<void>;
  /** Finish or redo what a crash left in processing/. Also run by `start()`. */
  recover(): Promise<RecoveryReport>;
  /**
   * Move rejected file `fileId` back into the inbox (the operator fixed its mapping), between
   * files, and scan; throws `CONSOLE_ACTION_FAILED` when it is not a rejected file still in `rejected/`.
   */
  retake(fileId: number): Promise<RetakeOutcome>;
}

/**
 * Time added to a waiting file's ready time, so that the re-check lands after it (a timer and the
 * wall clock can disagree by a millisecond). Should it land early all the same, the tracker answers
 * "wait" again and the next re-check is scheduled: a scan more, never a file taken early. Every
 * millisecond here is a millisecond of every file's latency.
 */
const RECHECK_SLACK_MS = 5;
/** How long `start()` waits for the watcher's first directory read (a slow share) before going on. */
const WATCHER_READY_TIMEOUT_MS = 10_000;

export function createIntake(deps: IntakeDeps): Intake {
  const { flow } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'intake', flow: flow.name });
  const rules = flow.intake;
  let mapping = deps.mapping;
  const ctx: IntakeContext = {
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.fileGate ? { fileGate: deps.fileGate } : {}),
    db: deps.db,
    flow,
    sourceSystem: deps.sourceSystem,
    dirs: inboxDirs(flow.inbox),
    logger: deps.logger,
    clock,
    durable: deps.durable ?? alreadyDurable,
    mapItems: (input, fileLabel) =>
      mapFile(input, mapping, {
        now: new Date(clock()),
        rejectPastDates: rules.rejectPastDates,
        fileLabel,
        archivePassword: flow.enterpriseData?.password,
        onFault: (error) => ctx.onReaderFault?.(error, fileLabel),
      }),
    onReaderFault: (error, file) => {
      logger.error(
        { err: error, code: 'READER_FAULT', file },
        "a reader of the connector failed on a file for a reason of its own (a bug, not the file's): the file is rejected; report it with the file",
      );
      deps.metrics?.readerFaults?.inc({ flow: flow.name });
    },
    onRecorded: (count) => {
      try {
        deps.onRecorded?.(count);
      } catch (error) {
        logger.error({ err: error }, 'onRecorded callback failed');
      }
    },
  };
  const tracker = createStabilityTracker(rules);

  let running = false;
  let stopping = false;
  // Aborted by stop(): ends the scan between files, and a wait for the file gate.
  let stopController = new AbortController();
  let startPromise: Promise<void> | null = null;
  let stopPromise: Promise<void> | null = null;
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  // One lane: recovery, scans and files never run side by side.
  const lane = createSerialLane();
  let queuedScan: Promise<void> | null = null;
  let recoveryDue = false;

  function schedule(nextCheckAt: number | null): void {
    if (!running || stopping) return;
    if (timer) clearTimeout(timer);
    const now = clock();
    const rescanAt = now + rules.rescanIntervalMs;
    const at = nextCheckAt === null ? rescanAt : Math.min(rescanAt, nextCheckAt + RECHECK_SLACK_MS);
    timer = setTimeout(() => void requestScan(), Math.max(0, at - now));
  }

  async function scanOnce(): Promise<void> {
    let nextCheckAt: number | null = null;
    try {
      if (recoveryDue) {
        // A file failed after its claim (disk full, store busy): finish or redo it like after a crash.
        const report = await recoverIntake(ctx);
        recoveryDue = report.failures > 0;
        logger.info({ recovery: report }, 'intake recovery after a failed file done');
      }
      // Reports that failed before (REPORT_WRITE_FAILED) are kept in the store until written, and so is an exchange's reply.
      await writePendingReports(ctx);
      await writeDueReply(ctx);
      const result = await scanInbox(ctx, tracker, { signal: stopController.signal });
      nextCheckAt = result.nextCheckAt;
      if (result.failed > 0) recoveryDue = true;
    } catch (error) {
      logger.error({ err: error }, 'inbox scan failed; trying again at the next rescan');
    }
    schedule(nextCheckAt);
  }

  /** A scan after whatever runs now; requests made before it starts share it. Never rejects. */
  function requestScan(): Promise<void> {
    if (stopping) return Promise.resolve();
    if (queuedScan) return queuedScan;
    const scan = lane.run(async () => {
      queuedScan = null;
      if (!stopping) await scanOnce();
    });
    queuedScan = scan;
    return scan;
  }

  /** Events before chokidar's `ready` can be lost; the first scan runs after it, so nothing falls between. */
  function startWatcher(): Promise<void> {
    const w = watch(ctx.dirs.inbox, {
      depth: 0,
      ignoreInitial: true,
      usePolling: rules.usePolling,
      interval: rules.pollIntervalMs,
      ignored: (p: string) => {
        const rel = path.relative(ctx.dirs.inbox, p);
        const top = rel.split(path.sep)[0] ?? '';
        return rel !== '' && isReservedName(top);
      },
    });
    const hint = () => void requestScan();
    w.on('add', hint).on('change', hint).on('unlink', hint);
    w.on('error', (error) => logger.warn({ err: error }, 'inbox watcher error; the rescan still runs'));
    watcher = w;
    return new Promise<void>((resolve) => {
      const timeout = setTimeout(() => {
        logger.warn({ waitedMs: WATCHER_READY_TIMEOUT_MS }, 'inbox watcher is not ready yet; relying on rescans until it is');
        resolve();
      }, WATCHER_READY_TIMEOUT_MS);
      w.once('ready', () => {
        clearTimeout(timeout);
        resolve();
      });
    });
  }

  async function recover(): Promise<RecoveryReport> {
    await ensureInboxDirs(ctx.dirs);
    const report = await lane.run(() => recoverIntake(ctx));
    if (report.failures > 0) recoveryDue = true;
    logger.info({ recovery: report }, 'intake recovery done');
    return report;
  }

  async function doStart(): Promise<void> {
    stopping = false;
    stopController = new AbortController();
    await recover();
    running = true;
    await startWatcher();
    await requestScan();
    logger.info({ inbox: ctx.dirs.inbox, usePolling: rules.usePolling }, 'intake started');
  }

  async function doStop(): Promise<void> {
    // Before waiting for the start: its first scan may be waiting for the file gate.
    stopping = true;
    stopController.abort();
    if (startPromise) await startPromise.catch(() => undefined);
    running = false;
    if (timer) clearTimeout(timer);
    timer = null;
    const w = watcher;
    watcher = null;
    await w?.close();
    await lane.idle();
    logger.info('intake stopped');
  }

  return {
    name: `intake ${flow.name}`,
    start() {
      if (!startPromise) {
        stopPromise = null;
        startPromise = doStart();
      }
      return startPromise;
    },
    stop() {
      if (!startPromise) return Promise.resolve();
      if (!stopPromise) {
        stopPromise = doStop().finally(() => {
          startPromise = null;
        });
      }
      return stopPromise;
    },
    scanNow: requestScan,
    recover,
    async retake(fileId) {
      const outcome = await lane.run(() => retakeRejectedFile(ctx, fileId));
      void requestScan();
      return outcome;
    },
    reload(next) {
      mapping = next;
    },
  };
}
