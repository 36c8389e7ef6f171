/**
 * A claimed file, sitting in `processing/`: map it (from the descriptor opened when it was taken,
 * never by its name again) and record it as it is read (in chunks, made real in one last
 * transaction: `record-mapped-file.ts`), then move it to the archive or to `rejected/` with its
 * report. The move comes after the commit; if the process dies between the two, `finishMove`
 * completes it on restart from the row alone.
 */
import type { InputHandle } from '../shared/input-file.js';
import type { MessageText } from '../shared/types.js';
import { countReadAttempt, uncountReadAttempt, type FileRecord } from '../store/files.js';
import type { Db } from '../store/open-store.js';
import type { RecordFileResult } from '../store/record-file.js';
import { processExchangeMessage } from './exchange-message.js';
import type { IntakeContext } from './intake-context.js';
import { oneItem, recordAndMove, unlessChanged, type SeenFile } from './record-and-move.js';

export type { SeenFile } from './record-and-move.js';

/**
 * Per connection (a daemon run opens one), the files whose last read in this run ended in a
 * failure of its own (a full disk, a store error) while the store also refused to take the read's
 * count back: the daemon did not die reading them, yet their rows say one more read than died. The
 * next read of such a file in this run takes that count over instead of adding one, and recovery
 * does not hold it against the file (`survivedRead`). Without this, a file taken while the disk
 * was full was refused unread as a file the daemon kept dying on.
 */
const survivedReads = new WeakMap<Db, Set<number>>();

/** Does the row of file `id` count a read this run survived (see `survivedReads`)? */
export function survivedRead(db: Db, id: number): boolean {
  return survivedReads.get(db)?.has(id) ?? false;
}

/**
 * Map, record and move one claimed file, read from `handle`: the file the caller opened and found
 * to be the one in `processing/` (the caller closes it). `seen` is the file as it was hashed (the
 * taker's stat); without it (recovery), as it is now, with the size the claim recorded. Returns
 * the recording result.
 */
export async function processClaimedFile(
  ctx: IntakeContext,
  row: FileRecord,
  handle: InputHandle,
  seen?: SeenFile,
  options: { readCounted?: boolean } = {},
): Promise<RecordFileResult> {
  const expected = seen ?? { size: row.sizeBytes, mtimeMs: (await handle.stat()).mtimeMs };
  // Counted before the read (`readCounted`: with the claim just made): if the daemon dies reading
  // it, recovery knows (`MAX_READ_ATTEMPTS`).
  if (!options.readCounted && !survivedReads.get(ctx.db)?.delete(row.id)) countReadAttempt(ctx.db, row.id);
  try {
    // An exchange message's header decides first what the message is (`exchange-message.ts`).
    if (ctx.flow.enterpriseData) return await processExchangeMessage(ctx, row, handle, expected);
    const input = { handle, name: row.originalName, bytes: seen?.bytes };
    // A small file mapped from its hashed bytes is recorded with the scan's group (`recording-group.ts`).
    return await recordAndMove(ctx, row, unlessChanged(ctx.mapItems(input, row.originalName, seen?.premapped), handle, expected, row.originalName, ctx.disk), {
      grouped: seen?.bytes !== undefined,
    });
  } catch (error) {
    // A failure in this process (a full disk, a store error) is not a read the daemon died in: the
    // file is taken again by the next recovery, and must not be refused unread for it.
    uncountQuietly(ctx, row.id);
    throw error;
  }
}

function uncountQuietly(ctx: IntakeContext, id: number): void {
  try {
    uncountReadAttempt(ctx.db, id);
  } catch {
    // The store refuses this write too: the read stays counted, and this run remembers it survived it.
    const survived = survivedReads.get(ctx.db) ?? new Set<number>();
    survivedReads.set(ctx.db, survived.add(id));
  }
}

/**
 * Reject a claimed file without reading it: what sits in `processing/` under its name is not the
 * file that was claimed (or not a regular file). The row ends `rejected` with a FILE_NOT_REGULAR
 * report and the entry is moved beside it, so nothing stays stuck in `processing/`.
 */
export async function rejectClaimedUnread(
  ctx: IntakeContext,
  row: FileRecord,
  message: string,
  code: 'FILE_NOT_REGULAR' | 'FILE_UNREADABLE' | 'FILE_CHANGED',
  text: MessageText,
): Promise<RecordFileResult> {
  return recordAndMove(ctx, row, oneItem({ kind: 'problem', problem: { row: null, field: null, code, message, text } }));
}
