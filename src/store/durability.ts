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
 *
 * `durableNow()` is for the one caller whose sender waits on each answer, the webhook listener: on a
 * quick disk it fsyncs right there, on the event loop. Handing the fsync to the thread costs two
 * wake-ups, the thread's and then the event loop's, which on a loaded two-core machine took
 * longer in their tail than the fsync itself, and the next group of events waited for the same
 * round trip before its commit (docs/performance.md, Webhooks). "Quick" is judged on the fsyncs
 * seen (an average of the last few dozen, here and in the thread): above `QUICK_SYNC_MS` (a
 * spinning disk, a network volume, a flash disk flushing its cache), `durableNow()` is
 * `durable()`, and the event loop never waits on a slow disk; the thread's fsyncs keep the average
 * current, so it comes back once the disk is quick again. The checkpoints that ride on the
 * thread's fsyncs are asked for instead, at the same pace (`store-thread.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';
import { createSerialLane } from '../shared/serial-lane.js';
import { SYNCED_CHECKPOINT_MS, type StoreThread } from './store-thread.js';

export interface Durability {
  /** Resolves once every commit made on the connection before this call is on disk. */
  durable(): Promise<void>;
  /**
   * The same promise, for a caller whose sender waits on it (the webhook listener): on a quick disk
   * the fsync has run on the event loop by the time this returns; on a slow one it is `durable()`.
   */
  durableNow(): Promise<void>;
  /** fsyncs so far (the group-commit figure: state changes per fsync). */
  readonly syncs: number;
  /** Close the WAL descriptor (after the last `durable()`); the helper thread is its owner's to close. */
  close(): Promise<void>;
}

/**
 * The average fsync up to which `durableNow()` fsyncs on the event loop. Half a millisecond: an
 * SSD's or a virtual disk's fdatasync of a few WAL pages (0.1-0.2 ms on the bench's machine), not
 * a spinning disk's (several ms). A webhook stream's fsyncs, one per group
 * of events, then hold the event loop a few per cent of its time at 1,000 events/s.
 */
export const QUICK_SYNC_MS = 0.5;

/** The average's weight of each new fsync: about the last 16 count. */
const AVERAGE_WEIGHT = 1 / 16;

const fdatasync = promisify(fs.fdatasync);

/** The WAL as this side syncs it (the fsyncs made on the event loop and through the pool; the thread has its own descriptor). */
interface WalFile {
  /** The descriptor, opened once; null while there is no WAL (nothing committed since the last checkpoint: nothing to sync). */
  descriptor(): number | null;
  /** After its first fsync: the folder holding it, fsynced once, so that the file itself survives a power cut. */
  syncFolderOnce(): void;
  close(): void;
}

function walFile(file: string): WalFile {
  let fd: number | null = null;
  let folderSynced = false;
  return {
    descriptor() {
      if (fd === null) {
        try {
          fd = fs.openSync(`${file}-wal`, 'r');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
          throw error;
        }
      }
      return fd;
    },
    syncFolderOnce() {
      if (folderSynced) return;
      const folder = fs.openSync(path.dirname(file), 'r');
      try {
        fs.fsyncSync(folder);
      } finally {
        fs.closeSync(folder);
      }
      folderSynced = true;
    },
    close() {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}

/** For `:memory:` and read-only stores there is nothing to sync: `durable()` resolves at once. */
export function createDurability(db: Database.Database, helper?: StoreThread): Durability {
  const file = db.name;
  const wal = `${file}-wal`;
  const inert = file === '' || file === ':memory:' || db.readonly;
  const walSide = walFile(file);
  // One fsync at a time; callers arriving while one runs share the next (see `durable`).
  const lane = createSerialLane();
  let next: Promise<void> | null = null;
  let syncs = 0;
  /** The average fsync, ms (0 before the first: the first `durableNow()` measures the disk). */
  let averageMs = 0;
  let checkpointAskedAt = Number.NEGATIVE_INFINITY;
  let thread: StoreThread | null = inert ? null : (helper ?? null);

  const note = (ms: number): void => {
    averageMs += (ms - averageMs) * AVERAGE_WEIGHT;
  };

  const syncOnce = async (): Promise<void> => {
    if (thread?.running) {
      try {
        const ms = await thread.sync();
        if (ms !== null) {
          syncs += 1;
          note(ms);
        }
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
    const fd = walSide.descriptor();
    if (fd === null) return;
    await fdatasync(fd);
    walSide.syncFolderOnce();
    syncs += 1;
  };

  /** The fsync on the event loop, for `durableNow()` on a quick disk; then the thread's checkpoint, if one is due. */
  const syncHere = (): void => {
    try {
      const fd = walSide.descriptor();
      if (fd === null) return;
      const began = performance.now();
      fs.fdatasyncSync(fd);
      note(performance.now() - began);
      walSide.syncFolderOnce();
      syncs += 1;
      if (thread?.running && began - checkpointAskedAt >= SYNCED_CHECKPOINT_MS) {
        checkpointAskedAt = began;
        thread.checkpointNow();
      }
    } catch (error) {
      throw new ConnectorError('STORE_FAILED', `fsync of ${wal} failed: ${(error as Error).message}`, { cause: error });
    }
  };

  const durable = (): Promise<void> => {
    if (inert) return Promise.resolve();
    // An fsync already running may have started before this caller's commit: it waits for the
    // next one, which every caller arriving until that one starts shares.
    next ??= lane.run(() => {
      next = null;
      return syncOnce();
    });
    return next;
  };

  return {
    durable,
    durableNow() {
      if (inert || averageMs > QUICK_SYNC_MS) return durable();
      try {
        syncHere();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    get syncs() {
      return syncs;
    },
    async close() {
      await lane.idle();
      thread = null;
      walSide.close();
    },
  };
}
