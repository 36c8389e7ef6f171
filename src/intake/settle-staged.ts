/**
 * What a file's staged rows become once its outcome is decided (`store/record-file.ts`): the
 * requests of an `archived` file are released (`pending`, deliverable); those of any other file
 * (rejected, or still `processing` after a crash: it is recorded again from the start) are
 * deleted, with its staged corrections. A batch per transaction, yielding to the event loop in
 * between, so that a large file does not hold the other stages' commits back. Safe to repeat and
 * to interrupt: what is left is settled the next time (the next file of the flow, or a restart).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../store/open-store.js';
import { listUnsettledFiles, type UnsettledFile } from '../store/record-file.js';
import { deleteStagedCorrectionsOfFile } from '../store/staged-corrections.js';
import { deleteStagedSubmissions, releaseStagedSubmissions } from '../store/submissions.js';
import type { Clock } from '../shared/types.js';

/** Rows released or deleted per transaction: each a short one, so no other writer waits long for the store. */
export const SETTLE_BATCH_ROWS = 1_000;

export interface SettleCounts {
  /** Staged rows turned `pending`. */
  released: number;
  /** Staged rows deleted. */
  discarded: number;
}

/** Settle one file's staged rows by its state. */
export async function settleFile(db: Db, file: UnsettledFile, clock: Clock): Promise<SettleCounts> {
  const counts: SettleCounts = { released: 0, discarded: 0 };
  const archived = file.state === 'archived';
  if (!archived) deleteStagedCorrectionsOfFile(db, file.id);
  for (;;) {
    const n = archived ? releaseStagedSubmissions(db, file.id, SETTLE_BATCH_ROWS, clock()) : deleteStagedSubmissions(db, file.id, SETTLE_BATCH_ROWS);
    if (archived) counts.released += n;
    else counts.discarded += n;
    if (n < SETTLE_BATCH_ROWS) return counts;
    await nextTurn();
  }
}

/** Settle what recordings of the flow left staged (a crash, a failed write); run while none is in progress. */
export async function settleUnfinishedRecordings(db: Db, flow: string, clock: Clock): Promise<SettleCounts> {
  const total: SettleCounts = { released: 0, discarded: 0 };
  for (const file of listUnsettledFiles(db, flow)) {
    const counts = await settleFile(db, file, clock);
    total.released += counts.released;
    total.discarded += counts.discarded;
  }
  return total;
}
