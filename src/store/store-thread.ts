/**
 * The store's helper thread: the two slow disk jobs of the daemon's store, kept off the event loop
 * and out of libuv's thread pool.
 *
 * - **fsync of the WAL** (`sync()`), for the group commit (`durability.ts`). libuv's pool (4 threads)
 *   also carries the exporter's file writes; a WAL fsync queued behind a few of their fsyncs made
 *   every webhook wait for them. Here it waits for nobody.
 * - **Checkpoints.** SQLite's automatic checkpoint runs inside whichever commit pushes the WAL past
 *   1000 pages: on the daemon's one connection, a pause of several milliseconds (pages copied into
 *   the database, the database fsynced) on the event loop every few hundred webhooks. So this
 *   thread, with a connection of its own, runs a PASSIVE checkpoint: it copies what it can without
 *   waiting for anyone, and the main connection's next commit starts the WAL over once a
 *   checkpoint caught up. While fsyncs are asked for, the checkpoint runs right after one of them,
 *   before its answer, at most every `SYNCED_CHECKPOINT_MS`; when none has been asked for
 *   `checkpointIntervalMs`, on a timer. Riding on an fsync is what lets it catch up: the listener's
 *   next group commits only once the fsync before it is answered (`event-batcher.ts`), so no
 *   commit lands while it copies. That answer waits the checkpoint's few milliseconds, four times a
 *   second at most; one thread instead of two saves a V8 isolate's memory. The listener's fsyncs
 *   run on the event loop on a quick disk (`durability.ts`, `durableNow()`), and ask for a
 *   checkpoint at the same pace instead (`checkpointNow()`): it runs beside the next commits, so
 *   it copies again what landed meanwhile, in passes until one finds no new frame (at most four,
 *   `store-thread-source.ts`); at 1,000 events/s the WAL then starts over after most of them, and
 *   the connection's own checkpoint at `CATCH_UP_FRAMES` (below) takes the rest. Every checkpoint's
 *   outcome goes to `onCheckpoint`, failures included (a full disk: `space-guard.ts`), and
 *   `checkpointNow()` asks for one at once.
 * - **Catching up.** A checkpoint that runs beside a stream of commits (writers that do not wait
 *   for an fsync, or a stream too fast for `SYNCED_CHECKPOINT_MS`) never catches up, so the WAL
 *   never starts over and grows by every commit's pages, held by the file for good: with the
 *   connection's own checkpoint off, that WAL took a full disk's freed space before any checkpoint
 *   could (docs/reliability.md, "The state disk fills"). So the connection keeps SQLite's own
 *   checkpoint, at `CATCH_UP_FRAMES` instead of 1000: the commit that passes it copies the frames
 *   the thread has not, on the event loop, and the WAL starts over; `journal_size_limit` then gives
 *   the file's space back.
 *
 * A checkpoint that fails does not end the thread (it once did: the first SQLITE_FULL, thrown in
 * the thread's timer, killed it for good). Should the thread itself fail, `onGone` hands
 * both jobs back for a while: the connection gets its automatic checkpoint again, the group commit
 * fsyncs through the pool, and `checkpointNow()` runs on the connection; then a new thread is
 * started (after `restartDelayMs`, doubled for each failure in a row up to a minute) and takes them
 * over again. The thread's code is in `store-thread-source.ts`.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';
import type { CheckpointOutcome } from './space-guard.js';
import { STORE_THREAD_SOURCE, type StoreThreadReply } from './store-thread-source.js';

export interface StoreThread {
  /** fsync the WAL; resolves with how long the fdatasync took (ms), or null when there was no WAL (nothing committed). Rejects while no thread runs. */
  sync(): Promise<number | null>;
  /** A thread runs (false between a failure and its restart, and after `close()`). */
  readonly running: boolean;
  /** Run a checkpoint soon; its outcome goes to `onCheckpoint`. Runs on the connection itself while no thread runs. */
  checkpointNow(): void;
  /** Checkpoints run by the thread so far. */
  readonly checkpoints: number;
  /** Stop the thread (the last close of the main connection checkpoints what is left). */
  close(): Promise<void>;
}

export interface StoreThreadOptions {
  /** Time without an fsync asked for after which a checkpoint runs on a timer. Default 1000 ms. */
  checkpointIntervalMs?: number;
  /** Time before a failed thread is started again; doubled for each failure in a row, up to a minute. Default 1000 ms. */
  restartDelayMs?: number;
  /** Every checkpoint's outcome, by the thread or on the connection. */
  onCheckpoint?: (outcome: CheckpointOutcome) => void;
  /** The thread failed: the caller takes its jobs back until `onBack`. */
  onGone: (error: unknown) => void;
  /** A new thread took the jobs over again after a failure. */
  onBack?: () => void;
}

/** SQLite's default threshold, given back to the main connection while no thread runs. */
const AUTOCHECKPOINT_PAGES = 1000;
/** WAL frames past which a commit checkpoints itself though the thread runs (about 8 MiB of 4 KiB pages). */
export const CATCH_UP_FRAMES = 2000;
const MAX_RESTART_DELAY_MS = 60_000;
/**
 * Least time between two checkpoints that ride on an fsync: short enough that at the bench's
 * open-loop webhook rate the WAL does not reach `CATCH_UP_FRAMES` in between, so the event loop
 * does not copy (a closed-loop storm still gets there: docs/performance.md, Webhooks).
 */
export const SYNCED_CHECKPOINT_MS = 250;

interface SyncWaiter {
  resolve: (ms: number | null) => void;
  reject: (error: unknown) => void;
}

const gone = (): ConnectorError => new ConnectorError('STORE_FAILED', "The store's helper thread is not running");

/** Start the thread for `db` (a file in WAL mode); moves the connection's automatic checkpoint to `CATCH_UP_FRAMES`. */
export function startStoreThread(db: Database.Database, options: StoreThreadOptions): StoreThread {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const checkpointIntervalMs = options.checkpointIntervalMs ?? 1_000;
  const syncedCheckpointMs = Math.min(SYNCED_CHECKPOINT_MS, checkpointIntervalMs);
  const workerData = { modulePath, file: db.name, checkpointIntervalMs, syncedCheckpointMs };
  const restartDelayMs = options.restartDelayMs ?? 1_000;
  const waiting = new Map<number, SyncWaiter>();
  let worker: Worker | null = null;
  let closed = false;
  let failuresInRow = 0;
  let restart: NodeJS.Timeout | null = null;
  let nextId = 1;
  let checkpoints = 0;

  const onCheckpointReply = (reply: NonNullable<StoreThreadReply['checkpoint']>): void => {
    const outcome = checkpointOutcome(db.name, reply);
    if (outcome.ok) {
      checkpoints += 1;
      failuresInRow = 0;
    }
    options.onCheckpoint?.(outcome);
  };

  const spawn = (): void => {
    restart = null;
    if (closed) return;
    const w = new Worker(STORE_THREAD_SOURCE, { eval: true, workerData });
    worker = w;
    w.unref();
    w.on('message', (reply: StoreThreadReply) => {
      if (reply.checkpoint) return onCheckpointReply(reply.checkpoint);
      if (settleSync(waiting, reply, db.name) && waiting.size === 0) w.unref();
    });
    w.on('error', (error) => fail(w, error));
    w.on('exit', (code) => fail(w, new ConnectorError('STORE_FAILED', `The store's helper thread exited with code ${code}`)));
    if (db.open) db.pragma(`wal_autocheckpoint = ${CATCH_UP_FRAMES}`);
  };

  const fail = (w: Worker, error: unknown): void => {
    if (w !== worker) return;
    worker = null;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    if (closed) return;
    options.onGone(error);
    const delay = Math.min(restartDelayMs * 2 ** failuresInRow, MAX_RESTART_DELAY_MS);
    failuresInRow += 1;
    restart = setTimeout(() => {
      spawn();
      options.onBack?.();
    }, delay);
    restart.unref();
  };

  spawn();
  return {
    sync() {
      const w = worker;
      if (!w) return Promise.reject(gone());
      const id = nextId++;
      // Referenced while an fsync is owed, so the process does not exit under a caller's feet.
      w.ref();
      return new Promise<number | null>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.postMessage(id);
      });
    },
    get running() {
      return worker !== null;
    },
    checkpointNow() {
      if (worker) return worker.postMessage('checkpoint');
      if (closed || !db.open || db.inTransaction) return;
      options.onCheckpoint?.(checkpointOnConnection(db));
    },
    get checkpoints() {
      return checkpoints;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (restart) clearTimeout(restart);
      const w = worker;
      // Its exit is not a failure now: nothing takes its jobs back.
      worker = null;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      // Referenced until it has exited: a process whose last work is this stop would otherwise
      // end while the thread closes, before the caller closes the main connection after it.
      w.ref();
      w.postMessage('close');
      await exited;
    },
  };
}

/** Answer the `sync()` an fsync reply is for; false when none waits for it. */
function settleSync(waiting: Map<number, SyncWaiter>, reply: StoreThreadReply, file: string): boolean {
  const waiter = reply.id === undefined ? undefined : waiting.get(reply.id);
  if (!waiter) return false;
  waiting.delete(reply.id!);
  if (reply.error !== undefined) waiter.reject(new ConnectorError('STORE_FAILED', `fsync of ${file}-wal failed: ${reply.error}`));
  else waiter.resolve(reply.synced === true ? (reply.ms ?? 0) : null);
  return true;
}

/** What a checkpoint the thread reported came to. */
function checkpointOutcome(file: string, reply: NonNullable<StoreThreadReply['checkpoint']>): CheckpointOutcome {
  if (reply.error === undefined) return { ok: true, log: reply.log ?? -1, checkpointed: reply.checkpointed ?? -1 };
  const cause = Object.assign(new Error(reply.error), { code: reply.code });
  return { ok: false, error: new ConnectorError('STORE_FAILED', `A checkpoint of ${file} failed: ${reply.error}`, { cause }) };
}

/** A PASSIVE checkpoint on the connection itself, while no thread runs (outside any transaction). */
function checkpointOnConnection(db: Database.Database): CheckpointOutcome {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return { ok: true, log: result?.log ?? -1, checkpointed: result?.checkpointed ?? -1 };
  } catch (error) {
    return { ok: false, error };
  }
}
