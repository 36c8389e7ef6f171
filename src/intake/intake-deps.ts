/** What the daemon hands an intake, and the context its steps run with, built from it. */
import type { FlowConfig } from '../config/flow-schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { formatOf, mapFile, rowNumberingOf, type MappingSpec } from '../mapping/index.js';
import { mapsOnThread, type MapThread, type Premapped } from '../mapping/map-thread.js';
import type { MappedItem } from '../mapping/types.js';
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
  /** Shared by the daemon's intakes: small files mapped off the event loop, ahead of their turn (`mapping/map-thread.ts`). Default: every file mapped on the loop. */
  mapThread?: MapThread;
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
    mapItems: (input, fileLabel, premapped) => {
      const onLoop = () =>
        mapFile(input, mapping(), {
          now: new Date(clock()),
          rejectPastDates: rules.rejectPastDates,
          fileLabel,
          archivePassword: flow.enterpriseData?.password,
          onFault: (error) => ctx.onReaderFault?.(error, fileLabel),
        });
      // Mapped ahead with the mapping still current, under the same name: its items; else (a reload came between) on the loop.
      if (premapped?.spec !== mapping() || premapped.fileLabel !== fileLabel) return onLoop();
      return premappedItems(premapped, onLoop, (error) => ctx.onReaderFault?.(error, fileLabel));
    },
    // An exchange flow's messages are decided first (`exchange-message.ts`), then mapped on the loop.
    ...(deps.mapThread && !flow.enterpriseData ? { premap: premapOn(deps.mapThread, mapping, clock, rules.rejectPastDates) } : {}),
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

/** Hand a small CSV's bytes to the mapping thread, with the mapping as it is now; undefined for any other file. */
function premapOn(thread: MapThread, mapping: () => MappingSpec, clock: Clock, rejectPastDates: boolean): NonNullable<IntakeContext['premap']> {
  return (bytes, fileLabel) => {
    const spec = mapping();
    if (!mapsOnThread(fileLabel, spec, bytes.length)) return undefined;
    return { spec, fileLabel, outcome: thread.map({ spec, name: fileLabel, fileLabel, bytes, now: clock(), rejectPastDates }) };
  };
}

/** The items the thread mapped, its faults told first as the loop's `mapFile` tells them; the file mapped on the loop when the thread could not. */
async function* premappedItems(premapped: Premapped, onLoop: () => AsyncIterable<MappedItem>, onFault: (error: Error) => void): AsyncGenerator<MappedItem> {
  const outcome = await premapped.outcome;
  if (outcome === null) {
    yield* onLoop();
    return;
  }
  for (const fault of outcome.faults) onFault(fault);
  yield* outcome.items;
}
