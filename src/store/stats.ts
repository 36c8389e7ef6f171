/** Read-only summary queries over files and exports (submission counts live in `outbox.ts`). */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { StateCount } from './outbox.js';

export function countFilesByState(db: Db): StateCount[] {
  return statement(db, 'SELECT flow, state, count(*) AS count FROM files GROUP BY flow, state ORDER BY flow, state').all() as StateCount[];
}

/** Pending export rows and the creation time of the oldest one, per channel (set-aside rows wait for nothing and are not counted). */
export function pendingExportsByChannel(db: Db): { channel: string; count: number; oldestAt: number }[] {
  return statement(db, "SELECT channel, count(*) AS count, min(created_at) AS oldestAt FROM exports WHERE state = 'pending' GROUP BY channel").all() as {
    channel: string;
    count: number;
    oldestAt: number;
  }[];
}
