/**
 * The store's part of the readiness probe: is it open, writable, and does its schema answer? The
 * admin listener's `/readyz` asks this; the SQL lives here with the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './open-store.js';
import { statement, writesHeld } from './statement.js';

/** Why the store cannot take writes, or null when it can. */
export function storeProblem(db: Db): string | null {
  if (!db.open) return 'closed';
  if (db.readonly) return 'opened read-only';
  try {
    statement(db, 'SELECT 1 FROM events LIMIT 1').get();
    if (db.name !== ':memory:' && db.name !== '') fs.accessSync(path.dirname(db.name), fs.constants.W_OK);
    // Held back by the space guard (`space-guard.ts`) until a checkpoint gets through.
    if (writesHeld(db)) return 'the disk is full: writes are held back (STORE_DISK_FULL)';
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
