/** Read-only summary queries over files and exports (submission counts live in `outbox.ts`). */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { StateCount } from './outbox.js';

export function countFilesByState(db: Db): StateCount[] {
  return statement(db, 'SELECT flow, state, count(*) AS count FROM files GROUP BY flow, state ORDER BY flow, state').all() as StateCount[];
}

/**
 * Read from `exports_pending` alone, but for one row per channel: a channel's oldest pending row is
 * the head of its queue, its smallest id (the exporter writes in id order and every row is created
 * with the time it was enqueued), so `min(created_at)`, which read every pending row, is not needed.
 */
export const PENDING_EXPORTS_SQL = `SELECT p.channel AS channel, p.count AS count, e.created_at AS oldestAt
    FROM (SELECT channel, count(*) AS count, min(id) AS head FROM exports WHERE state = 'pending' GROUP BY channel) p
    JOIN exports e ON e.id = p.head
   ORDER BY p.channel`;

/** Pending export rows and the creation time of the oldest one (the queue's head), per channel (set-aside rows wait for nothing and are not counted). */
export function pendingExportsByChannel(db: Db): { channel: string; count: number; oldestAt: number }[] {
  return statement(db, PENDING_EXPORTS_SQL).all() as { channel: string; count: number; oldestAt: number }[];
}
