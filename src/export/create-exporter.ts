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
 * No file holds up the others of its channel. Each file has its own name, so the order in which
 * they are written does not matter, and a failed file is skipped for the next:
 * - a transient failure (rights, space, a locked file) leaves its rows pending, retried next pass;
 * - a permanent one (`classify-write-error.ts`: the name itself is refused) moves the rows to a
 *   plain fallback name, stored like the first, written on the next pass; if that fails for good
 *   too, the rows are set aside (`set_aside`, with the reason) and logged as `EXPORT_SET_ASIDE`.
 * A folder that cannot be written at all is checked once per pass, so it costs one log line, not
 * one per file.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { scrubDeep, scrubSecrets, type Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Db } from '../store/open-store.js';
import type { ExportFormat } from '../config/export-format-schema.js';
import { ConnectorError, describeError } from '../errors.js';
import {
  isExportFileNameTaken,
  listNamedPendingExports,
  nameUnnamedExports,
  markExportsWritten,
  moveExportsToFallbackName,
  setExportsAside,
  type ExportRow,
} from '../store/exports.js';
import { renderExportFile, type ExportMode } from './render-file.js';
import { errnoCode, isPermanentNameError } from './classify-write-error.js';
import { fallbackFileName, flowOfChannel, renderFileName, withSuffix } from './file-name.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { alreadyDurable, systemClock, type Clock, type WaitDurable } from '../shared/types.js';

/** One export channel and where and how its files are written. */
export interface ExportTarget {
  /** `STATUS_CHANNEL`, or `ackChannel(flow.name)`. */
  channel: string;
  /** The ERP import folder; created when missing. */
  folder: string;
  format: ExportFormat;
  mode: ExportMode;
}

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
  /** Write what is pending (perEvent targets, and files named before a restart), then keep polling. Idempotent. */
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

/** Rows named per pass of a perEvent target (the rest waits for the next pass). */
const NAME_LIMIT = 500;
/** Rows gathered into one batch file; beyond this a flush writes several files. */
const BATCH_LIMIT = 50_000;

export function createExporter(deps: ExporterDeps): Exporter {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ component: 'exporter' });
  const pollIntervalMs = deps.pollIntervalMs ?? 1_000;
  const durable = deps.durable ?? alreadyDurable;
  // Own copies: `reload()` swaps a target's format without touching the caller's objects.
  const targets: ExportTarget[] = deps.targets.map((target) => ({ ...target }));

  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeScheduled = false;
  /** Serialises passes: a tick, a flush and stop never overlap. */
  let chain: Promise<unknown> = Promise.resolve();
  let tickQueued = false;

  /** Choose names for the target's unnamed rows: one per row (perEvent) or one for all (batch). */
  const nameRows = (target: ExportTarget, includeBatch: boolean): void => {
    if (target.mode === 'batch' && !includeBatch) return;
    const now = clock();
    nameUnnamedExports(db, target.channel, target.mode === 'batch' ? BATCH_LIMIT : NAME_LIMIT, {
      group: (rows) => (target.mode === 'batch' ? [rows] : rows.map((row) => [row])),
      name: (group) => {
        const first = group[0]!;
        return chooseFreeName(
          target,
          renderFileName(target.format.fileName, { now, exportId: first.id, flow: flowOfChannel(target.channel), record: recordOf(first) }),
        );
      },
    });
  };

  /** The template's name, or `name-2.csv`, `name-3.csv`… when another row or an existing entry (of any kind) holds it. */
  const chooseFreeName = (target: ExportTarget, base: string): string => {
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? base : withSuffix(base, n);
      if (!isExportFileNameTaken(db, candidate) && !entryExists(path.join(target.folder, candidate))) return candidate;
    }
  };

  /** The folder exists (made if missing) and takes writes; else one EXPORT_WRITE_FAILED line for the whole target. */
  const folderIsWritable = async (target: ExportTarget): Promise<boolean> => {
    try {
      await fsp.mkdir(target.folder, { recursive: true });
      await fsp.access(target.folder, fs.constants.W_OK);
      return true;
    } catch (error) {
      const failure = new ConnectorError('EXPORT_WRITE_FAILED', `Cannot write into ${target.folder}: ${describeError(error)}`, {
        cause: error,
        details: { channel: target.channel, folder: target.folder },
      });
      log.error({ channel: target.channel, code: failure.code, err: failure }, `${failure.message}; its files are retried on the next pass`);
      return false;
    }
  };

  /**
   * A file whose name failed for good: move its rows to the fallback name (written next pass),
   * or, when they already carry one (`error` is set), set them aside with the reason.
   */
  const handlePermanentFailure = (target: ExportTarget, name: string, group: readonly ExportRow[], error: unknown): void => {
    const ids = group.map((row) => row.id);
    const reason = scrubSecrets(`${errnoCode(error)}: cannot write ${path.join(target.folder, name)}: ${describeError(error)}`);
    const fileLog = log.child({ channel: target.channel, file: name, rows: group.length });
    if (group.some((row) => row.error !== null)) {
      setExportsAside(db, ids, reason);
      fileLog.error({ code: 'EXPORT_SET_ASIDE', reason, firstError: group[0]!.error }, `export rows ${ids.join(', ')} set aside: ${reason}`);
      return;
    }
    const fallback = chooseFreeName(target, fallbackFileName(target.channel, ids[0]!, target.format.format));
    moveExportsToFallbackName(db, ids, fallback, reason);
    fileLog.warn({ code: 'EXPORT_WRITE_FAILED', reason, fallback }, `${reason}; written as ${fallback} instead`);
  };

  /** Write every named pending file of the target; a failed file is skipped, never stops the others. */
  const writeNamed = async (target: ExportTarget): Promise<number> => {
    const rows = listNamedPendingExports(db, target.channel);
    if (rows.length === 0 || !(await folderIsWritable(target))) return 0;
    await durable();
    const files = new Map<string, ExportRow[]>();
    for (const row of rows) files.set(row.file_name!, [...(files.get(row.file_name!) ?? []), row]);
    let written = 0;
    for (const [name, group] of files) {
      const fileLog = log.child({ channel: target.channel, file: name, rows: group.length });
      try {
        const bytes = renderExportFile(group.map(recordOf), target.format, target.mode);
        await writeFileAtomic(target.folder, name, bytes);
      } catch (error) {
        let cause = error;
        try {
          if (isPermanentNameError(error)) {
            handlePermanentFailure(target, name, group, error);
            continue;
          }
        } catch (fallbackError) {
          cause = fallbackError; // the fallback could not be chosen or stored: retried like any transient failure
        }
        const failure = new ConnectorError('EXPORT_WRITE_FAILED', `Cannot write ${path.join(target.folder, name)}: ${describeError(cause)}`, {
          cause,
          details: { channel: target.channel, file: name },
        });
        fileLog.error({ code: failure.code, err: failure }, `${failure.message}; retried on the next pass`);
        continue;
      }
      written += markExportsWritten(
        db,
        group.map((row) => row.id),
        clock(),
      );
      fileLog.info({ folder: target.folder }, 'export file written');
      deps.metrics?.exportFiles.inc({ channel: target.channel });
    }
    return written;
  };

  /** One pass over every target; catches everything so no error leaves a background loop. */
  const pass = async (includeBatch: boolean): Promise<number> => {
    let written = 0;
    for (const target of targets) {
      try {
        nameRows(target, includeBatch);
        written += await writeNamed(target);
      } catch (error) {
        log.error({ channel: target.channel, err: error, code: 'EXPORT_WRITE_FAILED' }, `export pass failed: ${describeError(error)}`);
      }
    }
    return written;
  };

  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  /** A background pass; a tick already waiting covers this one (overlapping ticks are skipped). */
  const tick = (): void => {
    if (!running || tickQueued) return;
    tickQueued = true;
    void enqueue(async () => {
      tickQueued = false;
      if (running) await pass(false);
    });
  };

  return {
    name: 'exporter',
    async start() {
      if (running) return;
      running = true;
      timer = setInterval(tick, pollIntervalMs);
      timer.unref();
      await enqueue(() => pass(false));
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      await chain;
    },
    flush() {
      return enqueue(() => pass(true));
    },
    reload(formats) {
      for (const target of targets) target.format = formats.get(target.channel) ?? target.format;
    },
    wake() {
      if (!running || wakeScheduled) return;
      wakeScheduled = true;
      setImmediate(() => {
        wakeScheduled = false;
        tick();
      });
    },
  };
}

/**
 * Whether anything (a file, a folder, a link, dangling or not) holds `file`. A name the file system
 * refuses outright holds nothing: the write then fails for good and the row moves to its fallback.
 */
function entryExists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // ENOTDIR: the folder's path is broken, so nothing is there; the write will say so.
    if (isPermanentNameError(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}

/**
 * The record as names and files may show it: secrets scrubbed. Producers scrub what they store,
 * but this is the last point before bytes reach a folder ERP users read, so it is done here too.
 */
function recordOf(row: ExportRow): Record<string, unknown> {
  return scrubDeep(parseRecord(row));
}

function parseRecord(row: ExportRow): Record<string, unknown> {
  try {
    const value = JSON.parse(row.record) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { record: row.record };
  }
}
