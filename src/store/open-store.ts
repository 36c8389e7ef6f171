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

export type Db = Database.Database;

export interface OpenStoreOptions {
  /** Milliseconds a statement waits for a lock held by another connection. Default 5000. */
  busyTimeoutMs?: number;
  /** Open read-only (for `status`); skips migrations. */
  readonly?: boolean;
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
      // FULL: a commit is on disk before we answer a webhook or move a file; the cost is an fsync
      // per transaction, which the webhook inbox amortises by grouping events into one commit.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      migrate(db);
    }
    return db;
  } catch (error) {
    throw new ConnectorError('STORE_FAILED', `Cannot open the store at ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The store as a component: opened (and migrated) at start, closed at stop. */
export function createStore(file: string): Component<Db> {
  let db: Db | null = null;
  return {
    name: 'store',
    start() {
      db ??= openStore(file);
      return Promise.resolve(db);
    },
    stop() {
      db?.close();
      db = null;
      return Promise.resolve();
    },
  };
}
