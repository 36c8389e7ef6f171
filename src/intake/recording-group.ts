/**
 * The recordings of a scan's small files, committed in groups. A small file is recorded in one
 * transaction of its own (`recordWholeFile`), and on this store what that transaction cost was
 * mostly its commit: writing every page it touched to the WAL, many times what its rows cost
 * (docs/performance.md has the figures). So a small file mapped from its hashed bytes hands its recording
 * here and waits: the scan goes on with the next file, and once `GROUP_FILES` wait (or the scan
 * meets anything else that records, or ends) one transaction records them all, each in its own
 * savepoint, in the order they came.
 *
 * What a group changes: nothing is committed for a file before its group is, so a crash loses the
 * recordings of the files that wait; each is claimed, in `processing/` and counted as read, so
 * recovery maps and records it again, as it does the one file in progress after any crash. The
 * order of recordings is the order of the files (a later file's correction sees an earlier file's
 * requests): a recording that does not wait (a file in chunks, a retake, recovery) flushes the
 * group first.
 *
 * better-sqlite3 cannot keep one transaction open across the awaits of several files without
 * taking in the commits of the other stages on the same connection (`store/record-file.ts`), so
 * the group holds each file's recording as a function, and runs them all in one go.
 */
import type { Db } from '../store/open-store.js';
import type { RecordFileResult } from '../store/record-file.js';
import { transact } from '../store/statement.js';

/** Small files whose recordings share one commit, at most. */
export const GROUP_FILES = 16;

export interface RecordingGroup {
  /** Queue a file's recording (a transaction of its own, run as a savepoint); resolves once its group is committed. */
  record(run: () => RecordFileResult): Promise<RecordFileResult>;
  /** Record every queued file now, in one transaction. */
  flush(): void;
  /**
   * Follow a file's take: resolves with its outcome, or with `waiting` as soon as its recording is
   * queued. A waiting take goes on once its group is committed (its move, its report), and
   * `ended` hears how it ended: `null`, or the error that stopped it.
   */
  follow<T>(take: Promise<T>, ended: (failure: { error: unknown } | null) => void): Promise<T | 'waiting'>;
  /** Record what is queued and wait until every waiting take has ended. Never rejects. */
  settle(): Promise<void>;
}

interface Queued {
  run: () => RecordFileResult;
  resolve: (result: RecordFileResult) => void;
  reject: (error: unknown) => void;
}

type Ran = { result: RecordFileResult } | { error: unknown };

export function createRecordingGroup(db: Db, groupFiles = GROUP_FILES): RecordingGroup {
  let queue: Queued[] = [];
  /** Told when the next recording is queued: the take being followed now waits for its group. */
  let onQueued: (() => void) | null = null;
  const waiting = new Set<Promise<void>>();

  function flush(): void {
    if (queue.length === 0) return;
    const group = queue;
    queue = [];
    let ran: Ran[];
    try {
      ran = transact(db, () =>
        group.map((item): Ran => {
          // Each recording is a transaction of its own, hence a savepoint here: one that fails is
          // rolled back alone and the others are committed.
          try {
            return { result: item.run() };
          } catch (error) {
            return { error };
          }
        }),
      );
    } catch (error) {
      // The commit itself failed: nothing of the group is recorded.
      for (const item of group) item.reject(error);
      return;
    }
    group.forEach((item, i) => {
      const outcome = ran[i]!;
      if ('result' in outcome) item.resolve(outcome.result);
      else item.reject(outcome.error);
    });
  }

  return {
    record(run) {
      const done = new Promise<RecordFileResult>((resolve, reject) => queue.push({ run, resolve, reject }));
      onQueued?.();
      onQueued = null;
      if (queue.length >= groupFiles) flush();
      return done;
    },
    flush,
    async follow(take, ended) {
      // One take is followed at a time (a scan takes its files one after another), so the next
      // recording queued is this take's.
      const queued = new Promise<'waiting'>((resolve) => (onQueued = () => resolve('waiting')));
      try {
        const first = await Promise.race([take, queued]);
        if (first !== 'waiting') return first;
      } finally {
        onQueued = null;
      }
      const end: Promise<void> = take
        .then(
          () => ended(null),
          (error: unknown) => ended({ error }),
        )
        .catch(() => undefined);
      waiting.add(end);
      void end.finally(() => waiting.delete(end));
      return 'waiting';
    },
    async settle() {
      flush();
      await Promise.all([...waiting]);
    },
  };
}
