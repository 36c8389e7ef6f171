/**
 * The moves of a scan's recorded files out of `processing/`, in groups. A recorded file must not
 * leave `processing/` before its commit is durable (`finishMove`), and on this store that is a
 * WAL fsync by the group commit: a scan that waited for it file by file spent most of a small
 * file's time waiting. So the scan hands each recorded file here and goes on with the next; a
 * group waits once for the commit of every row in it, then its files are moved (and their reports
 * written) in order. Nothing is promised earlier than before: a file still in `processing/` when
 * the process dies is moved by recovery from its row, as after any crash.
 *
 * The scan drains the moves before it ends, so recovery, a retake or the next scan never meets a
 * move in progress; and a scan that runs ahead of the disk waits once `MAX_WAITING` files are
 * queued, so the queue stays small.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import type { FileRecord } from '../store/files.js';
import { createSerialLane } from '../shared/serial-lane.js';
import { fileLogger, type FileMoves, type IntakeContext } from './intake-context.js';
import { moveRecordedFile } from './record-and-move.js';

/** Files queued before `add` waits for the group in progress: about what a commit covers while the next group is mapped. */
const MAX_WAITING = 256;

export function createFileMoves(ctx: IntakeContext): FileMoves {
  let waiting: FileRecord[] = [];
  let failed = 0;
  const lane = createSerialLane();
  /** The group job not yet started: rows queued meanwhile join it. */
  let next: Promise<void> | null = null;

  const moveGroup = async (): Promise<void> => {
    next = null;
    const group = waiting;
    waiting = [];
    try {
      // One wait covers every row of the group: each was committed before it was queued.
      await ctx.durable();
      const folders = new Set(group.flatMap((row) => (row.currentPath ? [path.dirname(row.currentPath)] : [])));
      for (const folder of folders) await fs.mkdir(folder, { recursive: true });
    } catch (error) {
      failed += group.length;
      ctx.logger.error({ flow: ctx.flow.name, err: error, files: group.length }, 'recorded files could not be moved; recovery moves them at the next scan');
      return;
    }
    for (const row of group) {
      try {
        await moveRecordedFile(ctx, row);
      } catch (error) {
        failed += 1;
        fileLogger(ctx, row.originalName).error({ err: error, fileId: row.id }, 'moving the recorded file failed; recovery moves it at the next scan');
      }
    }
  };

  return {
    async add(row) {
      waiting.push(row);
      next ??= lane.run(moveGroup);
      if (waiting.length >= MAX_WAITING) await next;
    },
    async drain() {
      await lane.idle();
      const count = failed;
      failed = 0;
      return count;
    },
  };
}
