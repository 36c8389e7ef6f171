/**
 * One daemon per stateDir. Two daemons on one store would each take the other's in-flight rows for
 * a crash's leftovers and release them; the second must not start.
 *
 * The lock is an OS lock the kernel drops when its process dies, however it dies (a PID file would
 * outlive a SIGKILL and need guessing). Node has no flock(2), but SQLite takes POSIX fcntl locks:
 * `connector.lock` is a tiny SQLite database in rollback-journal mode, and the holder keeps a
 * `BEGIN IMMEDIATE` transaction (a RESERVED lock) open for its whole life. Any other connection,
 * in another process or in this one, gets SQLITE_BUSY at once (busy timeout 0). It writes nothing.
 *
 * `connector.pid` says who holds it, for the message only: it is written after the lock is held,
 * so in the instant between the two it may still name a previous holder. The lock decides. On a
 * full disk it cannot be written, and the daemon starts without it (its store waits for space,
 * `space-guard.ts`): a previous holder's file is removed, and the message says "PID unknown".
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ConnectorError } from '../errors.js';
import type { Component } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';

export interface StateLock {
  /** The lock file (`<stateDir>/connector.lock`). */
  readonly file: string;
  /** Let go of the lock and remove the PID file; idempotent. */
  release(): void;
}

export function lockFilePath(stateDir: string): string {
  return path.join(stateDir, 'connector.lock');
}

export function pidFilePath(stateDir: string): string {
  return path.join(stateDir, 'connector.pid');
}

/**
 * Take the stateDir's lock or throw `STATE_DIR_LOCKED` naming the lock file and the holder's PID.
 * Other failures (a folder that cannot be made, a lock file that is not SQLite) are `STORE_FAILED`.
 */
export function acquireStateLock(stateDir: string, pid = process.pid): StateLock {
  const file = lockFilePath(stateDir);
  let db: Database.Database | undefined;
  try {
    fs.mkdirSync(stateDir, { recursive: true });
    db = new Database(file, { timeout: 0 });
    // Rollback-journal mode: one file, no -wal or -shm beside it; RESERVED is a byte-range lock on it.
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    db?.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      const holder = readPid(pidFilePath(stateDir));
      throw new ConnectorError(
        'STATE_DIR_LOCKED',
        `stateDir ${stateDir} is locked by ${holder === undefined ? 'another process (PID unknown)' : `PID ${holder}`} (lock file ${file}): one daemon per stateDir`,
        { details: { stateDir, lockFile: file, pid: holder } },
      );
    }
    throw new ConnectorError('STORE_FAILED', `Cannot take the lock ${file}: ${(error as Error).message}`, { cause: error });
  }
  const held = db;
  try {
    writePid(stateDir, pid);
  } catch {
    try {
      fs.rmSync(pidFilePath(stateDir), { force: true });
    } catch {
      // Left naming a previous holder; the lock still decides.
    }
  }
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      if (readPid(pidFilePath(stateDir)) === pid) fs.rmSync(pidFilePath(stateDir), { force: true });
      held.exec('ROLLBACK');
      held.close();
    },
  };
}

/** Replace the PID file in one rename, so a reader never sees it half written. */
function writePid(stateDir: string, pid: number): void {
  const temp = path.join(stateDir, `.connector.pid.${randomBytes(6).toString('hex')}`);
  try {
    fs.writeFileSync(temp, `${pid}\n`, { mode: 0o644 });
    fs.renameSync(temp, pidFilePath(stateDir));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

function readPid(file: string): number | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The lock as a component: taken first by the daemon, released last. */
export function createStateLock(stateDir: string): Component<StateLock> {
  let lock: StateLock | null = null;
  const lifecycle = createStartStop({
    async start() {
      lock = acquireStateLock(stateDir);
      return lock;
    },
    stop() {
      lock?.release();
      lock = null;
      return Promise.resolve();
    },
    afterStop: 'restart',
  });
  return { name: 'state lock', start: lifecycle.start, stop: lifecycle.stop };
}
