/** What the daemon hands an intake, and the context its steps run with, built from it. */
import type { FlowConfig } from '../config/flow-schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { formatOf, mapFile, rowNumberingOf, type MappingSpec } from '../mapping/index.js';
import type { Db } from '../store/open-store.js';
import { POOLED_DISK } from '../shared/disk-calls.js';
import { alreadyDurable, systemClock, type Clock, type WaitDurable } from '../shared/types.js';
import type { FileGate } from './file-gate.js';
import { inboxDirs, type IntakeContext } from './intake-context.js';

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

/**
 * The context of the intake's steps. Files are mapped with `mapping()` as it is when each file
 * starts (a reload takes effect between files); a reader's own fault is logged and counted; an
 * `onRecorded` that throws is logged and never fails the file.
 */
export function intakeContextOf(deps: IntakeDeps, mapping: () => MappingSpec, logger: Logger): IntakeContext {
  const { flow } = deps;
  const clock = deps.clock ?? systemClock;
  const rules = flow.intake;
  const ctx: IntakeContext = {
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...(deps.fileGate ? { fileGate: deps.fileGate } : {}),
    db: deps.db,
    flow,
    sourceSystem: deps.sourceSystem,
    dirs: inboxDirs(flow.inbox),
    logger: deps.logger,
    clock,
    // Until `start()` has looked at the inbox's file system (`inbox-disk.ts`).
    disk: POOLED_DISK,
    durable: deps.durable ?? alreadyDurable,
    mapItems: (input, fileLabel) =>
      mapFile(input, mapping(), {
        now: new Date(clock()),
        rejectPastDates: rules.rejectPastDates,
        fileLabel,
        archivePassword: flow.enterpriseData?.password,
        onFault: (error) => ctx.onReaderFault?.(error, fileLabel),
      }),
    rowNumbering: (fileName) => rowNumberingOf(formatOf(fileName, mapping())),
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
  return ctx;
}
