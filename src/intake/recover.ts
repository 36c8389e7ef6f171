/**
 * Restart after a crash: the `files` row is the truth. First the rows a recording interrupted by
 * the crash left staged are settled by their file's row: deleted when it is still `processing`
 * (they were never visible; the file is recorded again whole), released when it was recorded
 * `archived`. Then each entry found in `processing/` is matched to its row by its name (`storedName`):
 * - recorded (row archived/rejected): only the move is missing; finish it, record nothing again;
 * - claimed but not recorded (row processing): map and record it again (nothing was committed),
 *   read from one descriptor opened without following a symlink; an entry that is not a regular
 *   file (someone else can write `processing/`) is rejected unread, so the row is not stuck;
 * - no row (an orphan): examine a regular file as a new file; leave anything else alone.
 * Stale done-markers (a marker whose file is gone, left by a crash after the move) are removed so
 * that a later file of the same name is not taken half-written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeEntry, openRegularFile } from '../shared/input-file.js';
import { FILE_STATE, getFile, listFilesInState, type FileRecord } from '../store/files.js';
import { settleUnfinishedRecordings } from './settle-staged.js';
import { isReservedName, markedNameOf, parseStoredName, storedName } from './inbox-names.js';
import { ensureInboxDirs, entryExists, fileLogger, processingPathOf, type IntakeContext } from './intake-context.js';
import { processClaimedFile, rejectClaimedUnread, survivedRead } from './process-file.js';
import { finishMove } from './record-and-move.js';
import { takeFile } from './take-file.js';
import { hashFile } from './hash-file.js';

/** What `recover()` did, for the start-up log. */
export interface RecoveryReport {
  /** Staged rows of interrupted recordings: deleted (file not recorded) and released (file recorded archived). */
  stagedDiscarded: number;
  stagedReleased: number;
  /** Recorded files whose move into archive/rejected was finished. */
  movesFinished: number;
  /** Claimed files mapped and recorded again. */
  reprocessed: number;
  /** Files in processing/ without a row, examined as new. */
  orphansTaken: number;
  /** Claimed rows whose file is not in processing/ (it may still be in the inbox; the scan adopts it). */
  claimsWithoutFile: number;
  staleMarkersRemoved: number;
  /** Files that failed to recover (logged); they are tried again at the next start. */
  failures: number;
}

export async function recoverIntake(ctx: IntakeContext): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    stagedDiscarded: 0,
    stagedReleased: 0,
    movesFinished: 0,
    reprocessed: 0,
    orphansTaken: 0,
    claimsWithoutFile: 0,
    staleMarkersRemoved: 0,
    failures: 0,
  };
  await ensureInboxDirs(ctx.dirs);
  const settled = await settleUnfinishedRecordings(ctx.db, ctx.flow.name, ctx.clock);
  report.stagedDiscarded = settled.discarded;
  report.stagedReleased = settled.released;
  const names = (await fs.readdir(ctx.dirs.processing)).sort();
  const seen = new Set<number>();

  for (const name of names) {
    const filePath = path.join(ctx.dirs.processing, name);
    const log = fileLogger(ctx, name);
    try {
      const parsed = parseStoredName(name);
      const row = parsed ? getFile(ctx.db, parsed.id) : undefined;
      if (row && row.flow === ctx.flow.name && storedName(row.id, row.originalName) === name) {
        seen.add(row.id);
        if (row.state === FILE_STATE.processing) {
          log.info({ fileId: row.id }, 'recovery: file was claimed but not recorded; processing it again');
          await reprocessClaimed(ctx, row, filePath);
          report.reprocessed += 1;
        } else {
          log.info({ fileId: row.id, state: row.state }, 'recovery: file was recorded; finishing its move');
          await finishMove(ctx, row);
          report.movesFinished += 1;
        }
        continue;
      }
      const stat = await fs.lstat(filePath);
      if (!stat.isFile()) {
        log.warn({ entry: describeEntry(stat) }, 'recovery: entry in processing/ has no row and is not a regular file; left alone');
        continue;
      }
      log.warn('recovery: file in processing/ has no row; examining it as new');
      const originalName = parsed?.originalName ?? name;
      const outcome = await takeFile(ctx, { path: filePath, name: originalName, size: stat.size, mtimeMs: stat.mtimeMs });
      if (outcome !== 'changed') report.orphansTaken += 1;
    } catch (error) {
      report.failures += 1;
      log.error({ err: error }, 'recovery of the file failed; it stays in processing/');
    }
  }

  for (const row of listFilesInState(ctx.db, ctx.flow.name, FILE_STATE.processing)) {
    if (seen.has(row.id)) continue;
    if (!(await entryExists(processingPathOf(ctx.dirs, row.id, row.originalName)))) report.claimsWithoutFile += 1;
  }

  report.staleMarkersRemoved = await removeStaleMarkers(ctx);
  return report;
}

/**
 * Reads of a claimed file the daemon may begin: a file still `processing` after this many was being
 * read each time the daemon died (an out-of-memory kill, a bug it trips), and reading it once more
 * would only stop the daemon again, every restart, and every flow with it.
 */
export const MAX_READ_ATTEMPTS = 2;

/** Map and record a claimed file again, from one descriptor; anything but a regular file is rejected unread. */
async function reprocessClaimed(ctx: IntakeContext, row: FileRecord, filePath: string): Promise<void> {
  // A read this run survived, whose count the store would not take back, is no read the daemon died in.
  const died = row.readAttempts - (survivedRead(ctx.db, row.id) ? 1 : 0);
  if (died >= MAX_READ_ATTEMPTS) {
    fileLogger(ctx, row.originalName).error(
      { fileId: row.id, code: 'FILE_UNREADABLE', readAttempts: died },
      'recovery: the daemon stopped while reading this file each time it tried; rejected unread',
    );
    await rejectClaimedUnread(
      ctx,
      row,
      `${row.originalName}: the daemon stopped (crashed or was killed) while reading this file ${died} times; it was not read again. Check the log of those runs, then retake it`,
      'FILE_UNREADABLE',
      { key: 'readAttemptsSpent', params: { n: died } },
    );
    return;
  }
  const opened = await openRegularFile(filePath);
  if (!opened.ok && opened.reason === 'missing') return;
  if (!opened.ok && opened.reason === 'not-regular') {
    fileLogger(ctx, row.originalName).error(
      { fileId: row.id, code: 'FILE_NOT_REGULAR', entry: opened.what },
      'recovery: the entry in processing/ is not a regular file; rejected unread',
    );
    await rejectClaimedUnread(ctx, row, `${row.originalName}: what is in processing/ under its name is ${opened.what}; it was not read`, 'FILE_NOT_REGULAR', {
      key: 'notRegularFile',
    });
    return;
  }
  try {
    // The entry must still be the content that was claimed: someone may have rewritten it (the
    // same size, even) while the daemon was down, and a claim names its content by SHA-256.
    const digest = await hashFile(opened.handle);
    const stat = await opened.handle.stat();
    if (digest.sha256 !== row.sha256) {
      fileLogger(ctx, row.originalName).error(
        { fileId: row.id, code: 'FILE_CHANGED' },
        'recovery: the file in processing/ is not the content that was claimed; rejected unread',
      );
      await rejectClaimedUnread(
        ctx,
        row,
        `${row.originalName}: what is in processing/ under its name is not the content that was claimed (its SHA-256 differs); it was not read`,
        'FILE_CHANGED',
        { key: 'claimedContentChanged' },
      );
      return;
    }
    await processClaimedFile(ctx, row, opened.handle, { size: digest.size, mtimeMs: stat.mtimeMs });
  } finally {
    await opened.handle.close();
  }
}

async function removeStaleMarkers(ctx: IntakeContext): Promise<number> {
  const mode = ctx.flow.intake.doneMarker;
  if (mode === 'none') return 0;
  const names = await fs.readdir(ctx.dirs.inbox);
  const present = new Set(names);
  let removed = 0;
  for (const name of names) {
    if (isReservedName(name)) continue;
    const marked = markedNameOf(name, mode);
    if (marked === null || present.has(marked)) continue;
    await fs.rm(path.join(ctx.dirs.inbox, name), { force: true });
    removed += 1;
  }
  return removed;
}
