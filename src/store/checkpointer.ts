/**
 * Checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit
 * pushes the WAL past 1000 pages: on the daemon's one connection, that is a pause of several
 * milliseconds (copying pages into the database and fsyncing it) on the event loop every few
 * hundred webhooks, right in the middle of answering them. So the daemon's connection turns the
 * automatic checkpoint off, and a worker thread with a connection of its own runs a PASSIVE
 * checkpoint every `intervalMs`: it copies what it can without waiting for anyone, and the main
 * connection's next commit starts the WAL over once a checkpoint caught up. Should the worker fail,
 * the main connection takes its automatic checkpoint back, so the WAL never grows without bound.
 *
 * The worker is evaluated from a string (not a module file next to this one) so that it runs the
 * same from the compiled program, the tests (which run the TypeScript sources) and the release
 * package; it loads better-sqlite3 from the path this module resolves.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';

export interface Checkpointer {
  /** Checkpoints run by the worker so far. */
  readonly runs: number;
  /** Stop the worker (the last close of the main connection checkpoints what is left). */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** Time between two checkpoints. Default 1000 ms. */
  intervalMs?: number;
  /** Told when the worker failed and the automatic checkpoint was given back to the connection. */
  onFailure?: (error: unknown) => void;
}

/** SQLite's default threshold, given back to the main connection if the worker fails. */
const AUTOCHECKPOINT_PAGES = 1000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage('checkpointed');
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Start checkpointing `db` (a file in WAL mode) from a worker thread. */
export function startCheckpointer(db: Database.Database, options: CheckpointerOptions = {}): Checkpointer {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  db.pragma('wal_autocheckpoint = 0');
  let runs = 0;
  let stopping = false;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file: db.name, intervalMs: options.intervalMs ?? 1_000 } });
  worker.unref();
  const giveBack = (error: unknown): void => {
    if (stopping) return;
    stopping = true;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    options.onFailure?.(error);
  };
  worker.on('message', () => (runs += 1));
  worker.on('error', giveBack);
  worker.on('exit', (code) => {
    if (!stopping) giveBack(new ConnectorError('STORE_FAILED', `The checkpoint worker exited with code ${code}; checkpoints run in commits again`));
  });
  return {
    get runs() {
      return runs;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await exited;
    },
  };
}
