/**
 * A commit that need not survive a power cut before the next step: the store's own recovery
 * redoes it. In WAL mode `synchronous = NORMAL` still commits atomically and in order (a power cut
 * loses a suffix of commits, never half of one); it only skips the fsync of the WAL, which the
 * next FULL commit (or checkpoint) makes for it. Under FULL every commit waits for the disk: a
 * file recorded in a hundred chunks waited for a hundred fsyncs, seconds on a busy disk.
 * Used for a file's staged chunks (lost: the file is still `processing` and is recorded again)
 * and for releasing them (lost: the file row says `archived`, and recovery releases them again).
 * better-sqlite3 is synchronous, so no other stage's commit can fall between the two pragmas.
 */
import type { Db } from './open-store.js';

/** FULL and EXTRA (2, 3); NORMAL is 1. */
const NORMAL = 1;

export function withoutFsync<T>(db: Db, fn: () => T): T {
  const level = db.pragma('synchronous', { simple: true }) as number;
  if (level <= NORMAL) return fn();
  db.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}
