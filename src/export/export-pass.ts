/**
 * The exporter's pass: a group of each target in turn, so that no channel waits for another's
 * backlog, until every target has nothing left (see `create-exporter.ts` for groups and names).
 *
 * What a pass may do is said by name (`PassKind`): a tick writes perEvent targets and files named
 * before, gives way to busy producers and ends early when stopped; a flush also names batch
 * targets' rows and does neither; the first pass of a start is a tick bounded in groups.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Clock } from '../shared/types.js';
import { listNamedPendingExports, nameUnnamedExports, type PendingExport, type NamedExportFile } from '../store/exports.js';
import type { Db } from '../store/open-store.js';
import { chooseFreeName } from './choose-name.js';
import { recordOf } from './export-record.js';
import type { ExportTarget } from './export-target.js';
import { flowOfChannel, renderFileName } from './file-name.js';
import { GIVE_WAY, giveWayMs, writeConcurrency } from './give-way.js';
import type { ExportWriter, RenderedExportFile } from './write-export-files.js';

export interface PassKind {
  /** Name the pending rows of `batch` targets too (a flush); otherwise only their files named before are written. */
  includeBatch: boolean;
  /** Give way to busy producers before each group, and end when stopped (a tick); a flush does neither. */
  background: boolean;
  /** Groups per target at most; the rest is left for the next pass. Default: no bound. */
  groupLimit?: number;
}

/** The background pass of the poll and of wake-ups. */
export const TICK: PassKind = { includeBatch: false, background: true };
/** Everything pending, batch targets included (`flush()`, on `export.batchCron`). */
export const FLUSH: PassKind = { includeBatch: true, background: false };

export interface PassResult {
  written: number;
  /** Some target still had work when the pass ended (its group limit, or a stop). */
  more: boolean;
}

export interface ExportPassDeps {
  db: Db;
  /** The exporter's own copies: a reload swaps their formats between passes. */
  targets: readonly ExportTarget[];
  writer: ExportWriter;
  clock: Clock;
  log: Logger;
  /** False once the exporter stops: a background pass ends. */
  running: () => boolean;
  /** Aborted by the exporter's stop, so that a pass giving way ends at once. */
  stopSignal: () => AbortSignal;
}

export interface ExportPass {
  /** One pass; catches everything, so no error leaves a background loop (a failed target is left for the next pass). */
  run(kind: PassKind): Promise<PassResult>;
  /** A producer enqueued rows just now: background passes give way for a while (`give-way.ts`). */
  noteWake(): void;
}

/**
 * Files per group: named in one transaction, written with one folder fsync, marked in one
 * transaction. Bounds the work done on the event loop between two waits (naming, rendering and
 * marking a group take a few milliseconds), so that the listener's requests are not held up.
 */
const GROUP_FILES = 32;
/** Rows gathered into one batch file; beyond this a flush writes several files. */
const BATCH_LIMIT = 50_000;

/** One target's work in a pass: files named before it, then the rows it names as it goes. */
interface TargetPass {
  target: ExportTarget;
  /** Named files waiting to be written in this pass. */
  queue: NamedExportFile[];
  started: boolean;
  done: boolean;
  /** Groups written (or tried) in this pass. */
  groups: number;
  /**
   * The store's wait asked for right after the queued files were named: it covers their names,
   * and runs while the group before them is written (see `step`).
   */
  namesDurable: Promise<void> | undefined;
  /** The queue's first group, rendered while the group before it was written (see `prepareNext`). */
  rendered: RenderedExportFile[] | undefined;
  /** Files of the last group written, marked once the next group's files are on their way, or when the pass ends. */
  unmarked: NamedExportFile[];
}

export function createExportPass(deps: ExportPassDeps): ExportPass {
  const { db, writer, clock, log } = deps;
  /** Monotonic times (not `clock`, which tests may stop) of the last wake-up and the last group written. */
  let lastWakeAt = Number.NEGATIVE_INFINITY;
  let lastGroupAt = Number.NEGATIVE_INFINITY;

  /** Wait while producers are busy, as `give-way.ts` decides. */
  const giveWay = async (): Promise<void> => {
    const signal = deps.stopSignal();
    for (let wait = giveWayMs(GIVE_WAY, performance.now(), lastWakeAt, lastGroupAt); wait > 0 && !signal.aborted;) {
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      wait = giveWayMs(GIVE_WAY, performance.now(), lastWakeAt, lastGroupAt);
    }
  };

  /**
   * One step of a target's pass: write the next group of named files, naming the next rows when
   * none are waiting. The first step takes the files named before the pass (a restart, a file
   * that failed for now, a fallback name) and checks the folder once. In a background pass the
   * group first gives way to busy producers (`give-way.ts`). Returns rows marked written: those of
   * the group before, marked while this one is written (see `prepareNext`).
   */
  const step = async (work: TargetPass, kind: PassKind): Promise<number> => {
    const { target } = work;
    const mayName = target.mode === 'perEvent' || kind.includeBatch;
    if (!work.started) {
      work.started = true;
      work.queue = groupByName(listNamedPendingExports(db, target.channel));
      if (mayName) work.queue.push(...nameNextFiles(db, target, clock()));
      if (work.queue.length === 0 || !(await writer.folderIsWritable(target))) {
        work.done = true;
        return 0;
      }
    } else if (work.queue.length === 0 && mayName) {
      work.queue = nameNextFiles(db, target, clock());
    }
    if (work.queue.length === 0) {
      work.done = true;
      return markGroupBefore(writer, work); // not left for the end of a pass that other targets may keep going
    }
    let written = 0;
    if (kind.background) {
      // A group written is not left unmarked while the pass waits: a crash meanwhile would leave
      // files the ERP may take before the next pass finds them.
      if (giveWayMs(GIVE_WAY, performance.now(), lastWakeAt, lastGroupAt) > 0) written += markGroupBefore(writer, work);
      await giveWay();
      if (!deps.running()) return written; // stopped meanwhile: the named files are written on the next start
    }
    const group = work.queue.splice(0, GROUP_FILES);
    const rendered = work.rendered ?? (await writer.render(target, group));
    work.rendered = undefined;
    // This group's names were covered by the wait asked for when they were named; without one
    // (the pass's first group), a wait is asked for now.
    const namesDurable = work.namesDurable ?? writer.waitForNames();
    work.namesDurable = undefined;
    const writing = writer.writeFiles(target, rendered, writeConcurrency(GIVE_WAY, performance.now(), lastWakeAt), namesDurable);
    writing.catch(() => undefined); // awaited below, after the work done meanwhile
    let meanwhileError: unknown;
    try {
      await yieldToIo(); // the group's first calls are on their way before anything else runs
      written += markGroupBefore(writer, work);
      await prepareNext(deps, work, mayName);
    } catch (error) {
      meanwhileError = error;
    }
    try {
      work.unmarked = await writing;
    } finally {
      lastGroupAt = performance.now();
    }
    if (meanwhileError !== undefined) throw meanwhileError;
    return written;
  };

  return {
    async run(kind) {
      const groupLimit = kind.groupLimit ?? Number.POSITIVE_INFINITY;
      const work = deps.targets.map(newTargetPass);
      let written = 0;
      const open = () => work.filter((w) => !w.done && w.groups < groupLimit);
      while (open().length > 0 && (deps.running() || !kind.background)) {
        for (const w of open()) {
          try {
            written += await step(w, kind);
          } catch (error) {
            w.done = true;
            log.error({ channel: w.target.channel, err: error, code: 'EXPORT_WRITE_FAILED' }, `export pass failed: ${describeError(error)}`);
          }
          w.groups += 1;
        }
      }
      written += markLeftovers(writer, log, work);
      return { written, more: work.some((w) => !w.done) };
    },
    noteWake() {
      lastWakeAt = performance.now();
    },
  };
}

function newTargetPass(target: ExportTarget): TargetPass {
  return { target, queue: [], started: false, done: false, groups: 0, namesDurable: undefined, rendered: undefined, unmarked: [] };
}

/** Mark the last group written (see `unmarked`); returns rows marked. */
function markGroupBefore(writer: ExportWriter, work: TargetPass): number {
  const files = work.unmarked;
  work.unmarked = [];
  return writer.markWritten(work.target, files);
}

/** At the end of a pass: mark what each target wrote last; a store failure is logged, and the next pass finds those files. Returns rows marked. */
function markLeftovers(writer: ExportWriter, log: Logger, work: readonly TargetPass[]): number {
  let marked = 0;
  for (const w of work) {
    try {
      marked += markGroupBefore(writer, w);
    } catch (error) {
      log.error(
        { channel: w.target.channel, err: error, code: 'EXPORT_WRITE_FAILED' },
        `export files written but not marked: ${describeError(error)}; the next pass finds them and marks them`,
      );
    }
  }
  return marked;
}

/**
 * While a group's files are written (the event loop mostly waits on their system calls), the
 * group before is marked (`markGroupBefore`), and the next group is named and rendered: done
 * between two groups' writes, as they once were, the three took a fifth of a pass during which
 * the disk had nothing to do. The wait for the new names runs meanwhile too, so the next group
 * is ready to go when this one is done. Rendering gives the event loop back after each file, so
 * that this group's calls are not held up.
 */
async function prepareNext(deps: Pick<ExportPassDeps, 'db' | 'writer' | 'clock'>, work: TargetPass, mayName: boolean): Promise<void> {
  const { db, writer, clock } = deps;
  const { target } = work;
  if (work.queue.length === 0 && mayName && target.mode === 'perEvent') {
    work.queue = nameNextFiles(db, target, clock());
    if (work.queue.length > 0) work.namesDurable = writer.waitForNames();
  }
  if (work.queue.length > 0) work.rendered = await writer.render(target, work.queue.slice(0, GROUP_FILES), true);
}

/** Name the target's next unnamed rows in one transaction: a group of one-row files (perEvent) or one batch file. */
function nameNextFiles(db: Db, target: ExportTarget, now: number): NamedExportFile[] {
  const batch = target.mode === 'batch';
  return nameUnnamedExports(db, target.channel, batch ? BATCH_LIMIT : GROUP_FILES, {
    group: (rows) => (batch ? [rows] : rows.map((row) => [row])),
    name: (group) => {
      const first = group[0]!;
      const base = renderFileName(target.format.fileName, { now, exportId: first.id, flow: flowOfChannel(target.channel), record: recordOf(first) });
      return chooseFreeName(db, target.folder, base);
    },
  });
}

/** Named pending rows (oldest first) as files: one pass over the rows, a file's rows in their order. */
function groupByName(rows: readonly PendingExport[]): NamedExportFile[] {
  const files = new Map<string, PendingExport[]>();
  for (const row of rows) {
    const name = row.fileName!;
    const group = files.get(name);
    if (group) group.push(row);
    else files.set(name, [row]);
  }
  return [...files].map(([fileName, group]) => ({ fileName, rows: group }));
}
