/**
 * `createIntake`: one flow's inbox, watched and scanned. chokidar's events only bring the next scan
 * forward; the full scan (at start, every `rescanIntervalMs`, and when a waiting file may have
 * become complete) is the truth, because SMB/NFS shares lose events. Each scan first writes the
 * error reports still pending in the store. Scans, recovery and file
 * processing run one at a time; a tick that finds one running is folded into the next.
 */
import type { MappingSpec } from '../mapping/index.js';
import { createSerialLane } from '../shared/serial-lane.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';
import { createInboxScan } from './inbox-scan.js';
import { watchInbox, type InboxWatcher } from './inbox-watcher.js';
import { ensureInboxDirs } from './intake-context.js';
import { inboxDiskOf } from './inbox-disk.js';
import { intakeContextOf, type IntakeDeps } from './intake-deps.js';
import { recoverIntake, type RecoveryReport } from './recover.js';
import { retakeRejectedFile, type RetakeOutcome } from './retake-file.js';
import { createScanScheduler } from './scan-scheduler.js';
import { createStabilityTracker } from './stability.js';

export type { IntakeDeps } from './intake-deps.js';
export type { RecoveryReport } from './recover.js';
export type { RetakeOutcome } from './retake-file.js';

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

export function createIntake(deps: IntakeDeps): Intake {
  const { flow } = deps;
  const rules = flow.intake;
  const logger = deps.logger.child({ component: 'intake', flow: flow.name });
  let mapping = deps.mapping;
  const ctx = intakeContextOf(deps, () => mapping, logger);
  // One lane: recovery, scans and files never run side by side.
  const lane = createSerialLane();
  // Aborted by stop(): ends the scan between files, and a wait for the file gate.
  let stopController = new AbortController();
  const scan = createInboxScan(ctx, createStabilityTracker(rules), logger);
  const scans = createScanScheduler({
    lane,
    clock: ctx.clock,
    rescanIntervalMs: rules.rescanIntervalMs,
    scan: () => scan.run(stopController.signal),
    stopping: () => lifecycle.stopping,
  });
  let watcher: InboxWatcher | null = null;

  async function recover(): Promise<RecoveryReport> {
    await ensureInboxDirs(ctx.dirs);
    const report = await lane.run(() => recoverIntake(ctx));
    if (report.failures > 0) scan.recoveryFailed();
    logger.info({ recovery: report }, 'intake recovery done');
    return report;
  }

  const lifecycle = createStartStop({
    async start() {
      stopController = new AbortController();
      await recover();
      const disk = await inboxDiskOf(ctx.dirs.inbox, rules);
      ctx.disk = disk.calls;
      scans.resume();
      watcher = await watchInbox({
        inbox: ctx.dirs.inbox,
        usePolling: rules.usePolling,
        pollIntervalMs: rules.pollIntervalMs,
        onChange: () => void scans.request(),
        logger,
      });
      await scans.request();
      logger.info({ inbox: ctx.dirs.inbox, usePolling: rules.usePolling, inboxDisk: disk.disk, inboxDiskWhy: disk.why }, 'intake started');
    },
    // Before waiting for the start: its first scan may be waiting for the file gate.
    interrupt: () => stopController.abort(),
    async stop() {
      scans.pause();
      const closing = watcher;
      watcher = null;
      await closing?.close();
      await lane.idle();
      logger.info('intake stopped');
    },
    afterStop: 'restart',
  });

  return {
    name: `intake ${flow.name}`,
    start: lifecycle.start,
    stop: lifecycle.stop,
    scanNow: scans.request,
    recover,
    async retake(fileId) {
      const outcome = await lane.run(() => retakeRejectedFile(ctx, fileId));
      void scans.request();
      return outcome;
    },
    reload(next) {
      mapping = next;
    },
  };
}
