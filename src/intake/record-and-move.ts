/**
 * Recording a claimed file and moving it on: the mapper's items recorded (in chunks, made real in
 * one last transaction: `record-mapped-file.ts`), then the move to the archive or to `rejected/`
 * with its report. The move comes after the commit; if the process dies between the two,
 * `finishMove` completes it on restart from the row alone.
 */
import type { Premapped } from '../mapping/map-thread.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { InputHandle } from '../shared/input-file.js';
import type { MappedItem } from '../mapping/types.js';
import { FILE_STATE, type FileRecord } from '../store/files.js';
import type { RecordFileResult } from '../store/record-file.js';
import { archiveDayFolder } from '../shared/inbox-layout.js';
import type { DiskCalls } from '../shared/disk-calls.js';
import type { MappingProblem } from '../shared/types.js';
import { storedName, uniquePath } from './inbox-names.js';
import { fileLogger, isMissing, processingPathOf, type IntakeContext } from './intake-context.js';
import { writeFileReport } from './pending-reports.js';
import { recordMappedFile, type MessageOutcome } from './record-mapped-file.js';

/** What the file looked like when it was judged complete and hashed. */
export interface SeenFile {
  size: number;
  mtimeMs: number;
  /** Its whole content as hashed, when one read took it (`FileDigest.bytes`): mapped from here. */
  bytes?: Buffer | undefined;
  /** Those bytes as the mapping thread mapped them ahead of the file's turn (`IntakeContext.premap`). */
  premapped?: Premapped | undefined;
}

/**
 * The mapper's items, then one file-level `FILE_CHANGED` problem when the file's size or mtime is
 * no longer what was hashed: a writer still holding it open (or a hard link) may have appended to
 * it or cut it after the claim, and then what was mapped is not the content the claim's SHA-256
 * names. A file-level problem rejects the whole file, so nothing of such a read is submitted.
 */
export async function* unlessChanged(
  items: AsyncIterable<MappedItem>,
  handle: InputHandle,
  seen: SeenFile,
  name: string,
  disk: DiskCalls,
): AsyncGenerator<MappedItem> {
  yield* items;
  const now = await disk.fstat(handle);
  if (now.size === seen.size && now.mtimeMs === seen.mtimeMs) return;
  yield {
    kind: 'problem',
    problem: {
      row: null,
      field: null,
      code: 'FILE_CHANGED',
      message: `${name}: changed while it was read (${seen.size} → ${now.size} bytes${now.mtimeMs === seen.mtimeMs ? '' : ', modified again'}); nothing in it was submitted, export it again`,
      text: { key: 'fileChanged', params: { before: seen.size, after: now.size } },
    },
  };
}

export async function* oneItem(item: MappedItem): AsyncGenerator<MappedItem> {
  yield item;
}

/**
 * Record a claimed file from its mapped items, then move it (and write its report); an exchange
 * message adds its own rules. `grouped`: a small file mapped from its hashed bytes, recorded with
 * the scan's group (`recording-group.ts`); any other recording flushes that group first, so that
 * files are recorded in the order they were taken.
 */
export async function recordAndMove(
  ctx: IntakeContext,
  row: FileRecord,
  items: AsyncIterable<MappedItem>,
  options: { exchange?: MessageOutcome | undefined; grouped?: boolean } = {},
): Promise<RecordFileResult> {
  const { exchange } = options;
  const log = fileLogger(ctx, row.originalName);
  const name = storedName(row.id, row.originalName);
  const group = options.grouped && !exchange ? ctx.recordings : undefined;
  if (!group) ctx.recordings?.flush();
  const result = await recordMappedFile(ctx.db, {
    group,
    ...(exchange ? { exchange } : {}),
    onReaderFault: (error) => ctx.onReaderFault?.(error, row.originalName),
    flow: ctx.flow.name,
    fileId: row.id,
    knownState: row.state,
    fileLabel: row.originalName,
    rows: ctx.rowNumbering?.(row.originalName),
    items,
    sourceSystem: ctx.sourceSystem,
    rejectWholeFile: ctx.flow.intake.rejectWholeFile,
    clock: ctx.clock,
    destinationFor: (state) => uniquePath(state === 'archived' ? archiveDayFolder(ctx.dirs.inbox, ctx.clock()) : ctx.dirs.rejected, name),
  });
  if (result.alreadyRecorded) log.info({ fileId: row.id }, 'file was recorded before; finishing its move');
  else
    // A rejected file is something to fix (in the export or the mapping): a warning, as every other rejection is.
    log[result.state === FILE_STATE.archived ? 'info' : 'warn'](
      {
        fileId: row.id,
        state: result.state,
        recorded: result.recorded,
        corrected: result.corrected,
        duplicates: result.duplicates,
        problems: result.report.problems.length,
        // The first few, each naming its row and its cell (a sheet) or line and column (XML), as the report does.
        ...(result.report.problems.length > 0 ? { firstProblems: result.report.problems.slice(0, LOGGED_PROBLEMS).map(loggedProblem) } : {}),
      },
      result.state === FILE_STATE.archived ? 'file recorded' : 'file rejected',
    );
  const recorded = result.file;
  // In a scan, moved with the scan's other files once their commits are durable (`file-moves.ts`).
  if (ctx.moves) await ctx.moves.add(recorded);
  else await finishMove(ctx, recorded);
  const count = result.recorded + result.corrected;
  if (count > 0) ctx.onRecorded?.(count);
  return result;
}

/** Problems named in the file's log line; the report has them all. */
const LOGGED_PROBLEMS = 3;

function loggedProblem(problem: MappingProblem): Record<string, unknown> {
  const { code, row, cell, line, column, field, message } = problem;
  return { code, row, ...(cell === undefined ? {} : { cell }), ...(line === undefined ? {} : { line, column }), field, message };
}

/**
 * Move a recorded file from `processing/` to the place its row names (a rename: whatever is there
 * is moved, never read), and write its report there. Safe to repeat: a file already moved is left
 * alone, its reports are rewritten. A report that cannot be written does not fail the move: the
 * row keeps `report_pending` and the next scan writes it.
 */
export async function finishMove(ctx: IntakeContext, row: FileRecord): Promise<void> {
  if (row.state === FILE_STATE.processing || !row.currentPath) return;
  // The row says where the file goes; if the move outran the commit and the power failed, the file
  // would sit in archive/ while the store still says `processing`: lost. So the commit first.
  await ctx.durable();
  await fs.mkdir(path.dirname(row.currentPath), { recursive: true });
  await moveRecordedFile(ctx, row);
}

/** `finishMove` once the row's commit is durable and its folder exists (`file-moves.ts` does both once for a group). */
export async function moveRecordedFile(ctx: IntakeContext, row: FileRecord): Promise<void> {
  if (row.state === FILE_STATE.processing || !row.currentPath) return;
  const log = fileLogger(ctx, row.originalName);
  const from = processingPathOf(ctx.dirs, row.id, row.originalName);
  try {
    await ctx.disk.rename(from, row.currentPath);
  } catch (error) {
    if (!isMissing(error)) throw error;
    // Already moved by an earlier run (the crash came after the rename): nothing to do but the report.
  }
  log.info({ fileId: row.id, to: row.currentPath }, row.state === FILE_STATE.archived ? 'file archived' : 'file moved to rejected');
  ctx.metrics?.files.inc({ flow: ctx.flow.name, outcome: row.state });
  await writeFileReport(ctx, row);
}
