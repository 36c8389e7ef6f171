/**
 * Group commit for the daemon's store.
 *
 * The daemon's connection commits with `synchronous=NORMAL`: in WAL mode a commit then writes its
 * pages to the `-wal` file and returns, with no fsync on the event loop, and SQLite still never
 * corrupts the database on a power cut (it can only lose the last commits). Where an effect outside
 * the store depends on a commit (a webhook answered 200, a file moved to `archive/`, an export file
 * written), the stage awaits `durable()` first: it resolves once every commit made before the call
 * is on disk, by an fsync of the WAL file run in libuv's thread pool. Callers that arrive while an
 * fsync is running share the next one, so a burst of state changes pays one fsync, off the event
 * loop, however many there are (`docs/performance.md`, "Durability, state by state").
 *
 * Why an fsync of the WAL file is enough: with `synchronous=NORMAL`, SQLite fsyncs the WAL before it
 * checkpoints frames into the database and fsyncs the database after, so a commit is durable once
 * its frames in the WAL are; fsync works on the file (the inode), whichever descriptor asks. The
 * sync is an `fdatasync`, as SQLite's own sync of a WAL on Linux: it writes the file's data and its
 * size (what reading the frames back needs) but not its times, which on ext4 spares a journal
 * commit per sync (docs/performance.md, Webhooks). The folder holding the WAL is fsynced once, the
 * first time, so the file itself survives a power cut.
 *
 * Given the store's helper thread (`store-thread.ts`), the fsync runs there, not in libuv's thread
 * pool, which also carries the exporter's file writes; without it (or while it is not running,
 * between a failure and its restart), the pool does the fsync.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { StoreThread } from './store-thread.js';

export interface Durability {
  /** Resolves once every commit made on the connection before this call is on disk. */
  durable(): Promise<void>;
  /** fsyncs so far (the group-commit figure: state changes per fsync). */
  readonly syncs: number;
  /** Close the WAL descriptor (after the last `durable()`); the helper thread is its owner's to close. */
  close(): Promise<void>;
}

/** For `:memory:` and read-only stores there is nothing to sync: `durable()` resolves at once. */
export function createDurability(db: Database.Database, helper?: StoreThread): Durability {
  const file = db.name;
  const inert = file === '' || file === ':memory:' || db.readonly;
  let handle: fs.FileHandle | null = null;
  let folderSynced = false;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  let syncs = 0;
  let thread: StoreThread | null = inert ? null : (helper ?? null);

  const syncOnce = async (): Promise<void> => {
    if (thread?.running) {
      try {
        if (await thread.sync()) syncs += 1;
        return;
      } catch (error) {
        // An fsync that failed is a failure (the caller answers 503 and the platform sends again);
        // a thread that failed meanwhile hands over to the pool below.
        if (thread.running) throw error;
      }
    }
    await syncInPool();
  };

  /** The same fsync through libuv's pool: the fallback when the thread is gone. */
  const syncInPool = async (): Promise<void> => {
    if (!handle) {
      try {
        handle = await fs.open(`${file}-wal`, 'r');
      } catch (error) {
        // No WAL yet: nothing was committed since the last checkpoint, so nothing is waiting.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
    }
    await handle.datasync();
    if (!folderSynced) {
      const folder = await fs.open(path.dirname(file), 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      folderSynced = true;
    }
    syncs += 1;
  };

  const start = (): Promise<void> => {
    const run = syncOnce().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };

  return {
    durable() {
      if (inert) return Promise.resolve();
      // An fsync already running may have started before this caller's commit: it waits for the
      // next one, which every caller arriving meanwhile shares.
      if (!running) return start();
      next ??= running.then(
        () => {
          next = null;
          return start();
        },
        () => {
          next = null;
          return start();
        },
      );
      return next;
    },
    get syncs() {
      return syncs;
    },
    async close() {
      await Promise.allSettled([running, next]);
      thread = null;
      await handle?.close();
      handle = null;
    },
  };
}
