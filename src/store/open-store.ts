/**
 * Opening the SQLite store: WAL, a busy timeout, foreign keys, then the numbered migrations.
 *
 * The store is the truth of the daemon: a file, a submission, an event is claimed by an INSERT
 * against a UNIQUE index in the same transaction as its effect. better-sqlite3 is synchronous, so a
 * transaction never interleaves with another callback of this process; `busy_timeout` covers the
 * CLI (`status`, `retry`) touching the same file from a second process.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';
import { migrate } from './migrate.js';
import type { Component } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';
import { CATCH_UP_FRAMES, startStoreThread, type StoreThread } from './store-thread.js';
import { createDurability, type Durability } from './durability.js';
import { createSpaceGuard, type SpaceGuard } from './space-guard.js';
import { guardWrites } from './statement.js';

export type Db = Database.Database;

export interface OpenStoreOptions {
  /** Milliseconds a statement waits for a lock held by another connection. Default 5000. */
  busyTimeoutMs?: number;
  /** Open read-only (for `status`); skips migrations. */
  readonly?: boolean;
  /**
   * `FULL` (default): every commit is fsynced before it returns; right for the CLI (`retry`), whose
   * process may end right after. `NORMAL`: commits return without an fsync and the caller makes
   * them durable in groups where it matters (`durability.ts`); the daemon's connection.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/** The database file inside the configured state folder. */
export function storePath(stateDir: string): string {
  return path.join(stateDir, 'connector.sqlite');
}

/** Open (creating when missing) and migrate the store at `file`. */
export function openStore(file: string, options: OpenStoreOptions = {}): Db {
  try {
    if (!options.readonly) fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      // WAL with NORMAL never corrupts on a power cut; it may lose the last commits, which is why
      // the daemon awaits `durable()` (one shared fsync) before any effect outside the store.
      db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      db.pragma('foreign_keys = ON');
      migrate(db);
    }
    return db;
  } catch (error) {
    throw new ConnectorError('STORE_FAILED', `Cannot open the store at ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The daemon's store: the connection, the group commit that makes its commits durable, the helper thread behind both, and the guard that holds writes back while the disk is full. */
export interface Store {
  db: Db;
  durability: Durability;
  thread: StoreThread;
  space: SpaceGuard;
}

export interface CreateStoreOptions {
  /** Told when the store's helper thread failed (checkpoints run in commits again, fsyncs in libuv's pool, until it is restarted). */
  onThreadGone?: (error: unknown) => void;
  /** Told when a new helper thread took over after a failure. */
  onThreadBack?: () => void;
  /** Told once when writes are held back for a full disk (with the failed checkpoint), and once when they go on. */
  onSpaceChange?: (holding: boolean, cause?: unknown) => void;
  /** Time without an fsync asked for after which the helper thread checkpoints on a timer. Default 1000 ms. */
  checkpointIntervalMs?: number;
}

/** A WAL frame of the default 4 KiB page, with its header. */
const WAL_FRAME_BYTES = 4096 + 24;

/** The page cache of the daemon's connection, in KiB. */
const PAGE_CACHE_KIB = 2048;

/**
 * The store as a component: opened (and migrated) with `synchronous=NORMAL`, the group commit
 * (`durability.ts`), the helper thread for fsyncs and checkpoints (`store-thread.ts`) and the guard
 * that holds writes back while the disk is full (`space-guard.ts`) at start, closed at stop.
 */
export function createStore(file: string, options: CreateStoreOptions = {}): Component<Store> {
  let store: Store | null = null;
  const lifecycle = createStartStop({
    async start() {
      const db = openStore(file, { synchronous: 'NORMAL' });
      // A small page cache: the daemon's queries go through indexes and recent pages, and the OS
      // caches the file anyway; SQLite's default here was the largest fixed share of the intake's
      // peak memory (docs/performance.md).
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      // A WAL that grew in a burst gives its space back when it starts over (`store-thread.ts`,
      // "Catching up"): kept, it is space the database file cannot grow into on a full disk.
      db.pragma(`journal_size_limit = ${CATCH_UP_FRAMES * WAL_FRAME_BYTES}`);
      let thread: StoreThread | null = null;
      const space = createSpaceGuard({ file, probe: () => thread?.checkpointNow(), ...(options.onSpaceChange ? { onChange: options.onSpaceChange } : {}) });
      guardWrites(db, space);
      thread = startStoreThread(db, {
        ...(options.checkpointIntervalMs ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
        onCheckpoint: (outcome) => space.noteCheckpoint(outcome),
        onGone: (error) => options.onThreadGone?.(error),
        ...(options.onThreadBack ? { onBack: options.onThreadBack } : {}),
      });
      const durability = createDurability(db, thread);
      store = { db, durability, thread, space };
      return store;
    },
    async stop() {
      const closing = store;
      store = null;
      if (!closing) return;
      await closing.durability.durable();
      await closing.durability.close();
      await closing.thread.close();
      closing.db.close();
    },
    afterStop: 'restart',
  });
  return { name: 'store', start: lifecycle.start, stop: lifecycle.stop };
}
