/**
 * The store's helper thread: the two slow disk jobs of the daemon's store, kept off the event loop
 * and out of libuv's thread pool.
 *
 * - **fsync of the WAL** (`sync()`), for the group commit (`durability.ts`). libuv's pool (4 threads)
 *   also carries the exporter's file writes; a WAL fsync queued behind a few of their fsyncs made
 *   every webhook wait for them. Here it waits for nobody.
 * - **Checkpoints.** SQLite's automatic checkpoint runs inside whichever commit pushes the WAL past
 *   1000 pages: on the daemon's one connection, a pause of several milliseconds (pages copied into
 *   the database, the database fsynced) on the event loop every few hundred webhooks. So the
 *   daemon's connection turns it off (`wal_autocheckpoint = 0`) and this thread, with a connection
 *   of its own, runs a PASSIVE checkpoint every `checkpointIntervalMs`: it copies what it can
 *   without waiting for anyone, and the main connection's next commit starts the WAL over once a
 *   checkpoint caught up. A checkpoint delays an fsync asked for meanwhile by its few milliseconds,
 *   once a second; one thread instead of two saves a V8 isolate's memory.
 *
 * Should the thread fail, `onGone` hands both jobs back: the connection gets its automatic
 * checkpoint again and the group commit fsyncs through the pool. The thread is evaluated from a
 * string (not a module file beside this one) so that it runs the same from the compiled program,
 * the tests (which run the TypeScript sources) and the release package; it loads better-sqlite3 from
 * the path this module resolves.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';

export interface StoreThread {
  /** fsync the WAL; resolves true when it was synced, false when there was no WAL (nothing committed). */
  sync(): Promise<boolean>;
  /** Checkpoints run by the thread so far. */
  readonly checkpoints: number;
  /** Stop the thread (the last close of the main connection checkpoints what is left). */
  close(): Promise<void>;
}

export interface StoreThreadOptions {
  /** Time between two checkpoints. Default 1000 ms. */
  checkpointIntervalMs?: number;
  /** The thread is gone (failed): the caller takes its jobs back. */
  onGone: (error: unknown) => void;
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('cache_size = -1024');
let fd = null;
let folderSynced = false;
const timer = setInterval(() => {
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage({ checkpointed: true });
}, workerData.checkpointIntervalMs);
parentPort.on('message', (id) => {
  if (id === 'close') {
    clearInterval(timer);
    if (fd !== null) fs.closeSync(fd);
    db.close();
    parentPort.close();
    return;
  }
  try {
    if (fd === null) {
      try {
        fd = fs.openSync(workerData.file + '-wal', 'r');
      } catch (error) {
        if (error && error.code === 'ENOENT') return parentPort.postMessage({ id, synced: false });
        throw error;
      }
    }
    fs.fsyncSync(fd);
    if (!folderSynced) {
      const folder = fs.openSync(path.dirname(workerData.file), 'r');
      try {
        fs.fsyncSync(folder);
      } finally {
        fs.closeSync(folder);
      }
      folderSynced = true;
    }
    parentPort.postMessage({ id, synced: true });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Reply {
  id?: number;
  synced?: boolean;
  error?: string;
  checkpointed?: boolean;
}

/** SQLite's default threshold, given back to the main connection if the thread fails. */
const AUTOCHECKPOINT_PAGES = 1000;

/** Start the thread for `db` (a file in WAL mode); turns the connection's automatic checkpoint off. */
export function startStoreThread(db: Database.Database, options: StoreThreadOptions): StoreThread {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(SOURCE, { eval: true, workerData: { modulePath, file: db.name, checkpointIntervalMs: options.checkpointIntervalMs ?? 1_000 } });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  const waiting = new Map<number, { resolve: (synced: boolean) => void; reject: (error: unknown) => void }>();
  let nextId = 1;
  let checkpoints = 0;
  let gone = false;
  const fail = (error: unknown): void => {
    if (gone) return;
    gone = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    options.onGone(error);
  };
  worker.on('message', (reply: Reply) => {
    if (reply.checkpointed) {
      checkpoints += 1;
      return;
    }
    const w = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id!);
    if (waiting.size === 0) worker.unref();
    if (reply.error !== undefined) w.reject(new ConnectorError('STORE_FAILED', `fsync of ${db.name}-wal failed: ${reply.error}`));
    else w.resolve(reply.synced === true);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new ConnectorError('STORE_FAILED', `The store's helper thread exited with code ${code}`)));
  return {
    sync() {
      if (gone) return Promise.reject(new ConnectorError('STORE_FAILED', "The store's helper thread is gone"));
      const id = nextId++;
      // Referenced while an fsync is owed, so the process does not exit under a caller's feet.
      worker.ref();
      return new Promise<boolean>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage(id);
      });
    },
    get checkpoints() {
      return checkpoints;
    },
    async close() {
      if (gone) return;
      gone = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Referenced until it has exited: a process whose last work is this stop would otherwise
      // end while the thread closes, before the caller closes the main connection after it.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
