/**
 * Writing a group of named export files into their target's folder, and what follows from each
 * file's outcome. One group costs one wait for the store's group commit, one folder fsync and one
 * store transaction, however many files it holds:
 * 1. `durable()`: the rows and their names are on disk before any of their files exists, so a
 *    power cut can never leave a file whose name the next run would choose again differently;
 * 2. every file written atomically (`writeFilesAtomic`: temp, fsync, then published with `link()`,
 *    which never replaces what someone else put at the name, a few at a time), then ONE fsync of
 *    the folder;
 * 3. the rows of every file that made it marked written in ONE transaction (`markWritten`, which
 *    the pass calls once the next group's files are on their way). That mark needs no wait of its
 *    own: lost in a power cut, the rows are written again under the same names with the same bytes.
 * A file that failed is skipped, never stops the others of its group:
 * - a transient failure (rights, space, a locked file) leaves its rows pending, retried next pass;
 * - a permanent one (`classify-write-error.ts`: the name itself is refused) moves the rows to a
 *   plain fallback name, stored like the first, written on the next pass; if that fails for good
 *   too, the rows are set aside (`set_aside`, with the reason) and logged as `EXPORT_SET_ASIDE`.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { ConnectorError, describeError } from '../errors.js';
import { scrubSecrets, type Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Clock, WaitDurable } from '../shared/types.js';
import { writeFilesAtomic } from '../shared/write-file-atomic.js';
import { markExportsWritten, moveExportsToFallbackName, setExportsAside, type NamedExportFile } from '../store/exports.js';
import type { Db } from '../store/open-store.js';
import { chooseFreeName } from './choose-name.js';
import { errnoCode, isPermanentNameError } from './classify-write-error.js';
import type { ExportTarget } from './export-target.js';
import { recordOf } from './export-record.js';
import { fallbackFileName } from './file-name.js';
import { renderExportBytes } from './render-file.js';

export interface ExportWriterDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  durable: WaitDurable;
  metrics?: Pick<Metrics, 'exportFiles'> | undefined;
}

/** A named file and its bytes, ready to write. */
export interface RenderedExportFile {
  file: NamedExportFile;
  bytes: Buffer;
}

export interface ExportWriter {
  /** The folder exists (made if missing) and takes writes; else one EXPORT_WRITE_FAILED line for the whole target. */
  folderIsWritable(target: ExportTarget): Promise<boolean>;
  /**
   * The bytes of a group of named files. A file that cannot be rendered is handled as a failed
   * write (see the module comment) and left out. With `paced`, the event loop is given back after
   * each file, so that a group rendered while another is written does not hold up that group's
   * system calls.
   */
  render(target: ExportTarget, files: readonly NamedExportFile[], paced?: boolean): Promise<RenderedExportFile[]>;
  /**
   * Write a group of rendered files (steps 1 and 2), `concurrency` at a time. Resolves with the
   * files written and durably named, for `markWritten`; rejects only when the wait for the names
   * fails.
   */
  writeFiles(target: ExportTarget, files: readonly RenderedExportFile[], concurrency: number, namesDurable: Promise<void>): Promise<NamedExportFile[]>;
  /** Step 3: mark the rows of files `writeFiles` wrote, in one transaction, and log each file. Returns rows marked; throws when the store fails. */
  markWritten(target: ExportTarget, files: readonly NamedExportFile[]): number;
  /**
   * The store's wait for every name committed so far (step 1), to hand to `writeFiles`; asked for
   * as soon as a group is named, it runs while the group before is written. Marked handled: a
   * failed wait rejects where it is awaited, and a pass that ends first never sees it.
   */
  waitForNames(): Promise<void>;
}

export function createExportWriter(deps: ExportWriterDeps): ExportWriter {
  const { db, log } = deps;
  const handleFailure = (target: ExportTarget, file: NamedExportFile, error: unknown): void => onWriteFailure(deps, target, file, error);

  return {
    async folderIsWritable(target) {
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
    },

    waitForNames() {
      const wait = deps.durable();
      wait.catch(() => undefined);
      return wait;
    },

    async render(target, files, paced = false) {
      const rendered: RenderedExportFile[] = [];
      for (const file of files) {
        try {
          rendered.push({ file, bytes: await renderExportBytes(file.rows.map(recordOf), target.format, target.mode) });
        } catch (error) {
          handleFailure(target, file, error);
        }
        if (paced) await yieldToIo();
      }
      return rendered;
    },

    async writeFiles(target, rendered, concurrency, namesDurable) {
      if (rendered.length === 0) return [];
      await namesDurable;
      // The folder was made by `folderIsWritable` at the start of the pass; one gone since fails
      // its files for now (ENOENT), and the next pass makes it again.
      const outcomes = await writeFilesAtomic(
        target.folder,
        rendered.map(({ file, bytes }) => ({ name: file.fileName, bytes })),
        { concurrency, noClobber: true, folderExists: true },
      );
      const done: NamedExportFile[] = [];
      outcomes.forEach((outcome, index) => {
        const { file } = rendered[index]!;
        if (outcome.ok) done.push(file);
        else handleFailure(target, file, outcome.error);
      });
      return done;
    },

    markWritten(target, files) {
      if (files.length === 0) return 0;
      const written = markExportsWritten(
        db,
        files.flatMap((file) => file.rows.map((row) => row.id)),
        deps.clock(),
      );
      for (const file of files) {
        log.info({ channel: target.channel, file: file.fileName, rows: file.rows.length, folder: target.folder }, 'export file written');
        deps.metrics?.exportFiles.inc({ channel: target.channel });
      }
      return written;
    },
  };
}

/**
 * A file whose name failed for good: move its rows to the fallback name (written next pass),
 * or, when they already carry one (`error` is set), set them aside with the reason.
 */
function onPermanentFailure({ db, log }: Pick<ExportWriterDeps, 'db' | 'log'>, target: ExportTarget, file: NamedExportFile, error: unknown): void {
  const { fileName: name, rows } = file;
  const ids = rows.map((row) => row.id);
  const reason = scrubSecrets(`${errnoCode(error)}: cannot write ${path.join(target.folder, name)}: ${describeError(error)}`);
  const fileLog = log.child({ channel: target.channel, file: name, rows: rows.length });
  if (rows.some((row) => row.error !== null)) {
    setExportsAside(db, ids, reason);
    fileLog.error({ code: 'EXPORT_SET_ASIDE', reason, firstError: rows[0]!.error }, `export rows ${ids.join(', ')} set aside: ${reason}`);
    return;
  }
  const fallback = chooseFreeName(db, target.folder, fallbackFileName(target.channel, ids[0]!, target.format.format));
  moveExportsToFallbackName(db, ids, fallback, reason);
  fileLog.warn({ code: 'EXPORT_WRITE_FAILED', reason, fallback }, `${reason}; written as ${fallback} instead`);
}

/** A file that could not be rendered or written (see the module comment): its rows are handled, and the failure logged. */
function onWriteFailure(deps: Pick<ExportWriterDeps, 'db' | 'log'>, target: ExportTarget, file: NamedExportFile, error: unknown): void {
  let cause = error;
  try {
    if (isPermanentNameError(error)) return onPermanentFailure(deps, target, file, error);
  } catch (fallbackError) {
    cause = fallbackError; // the fallback could not be chosen or stored: retried like any transient failure
  }
  const where = path.join(target.folder, file.fileName);
  const failure = new ConnectorError('EXPORT_WRITE_FAILED', `Cannot write ${where}: ${describeError(cause)}`, {
    cause,
    details: { channel: target.channel, file: file.fileName },
  });
  deps.log.error(
    { channel: target.channel, file: file.fileName, rows: file.rows.length, code: failure.code, err: failure },
    `${failure.message}; retried on the next pass`,
  );
}
