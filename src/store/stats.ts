/** Read-only summary queries: queue depth, oldest pending work, export lag. Used by metrics and the daily summary. */
import type { Db } from './open-store.js';

export interface StateCount {
  flow: string;
  state: string;
  count: number;
}

export function countSubmissionsByState(db: Db): StateCount[] {
  return db.prepare('SELECT flow, state, count(*) AS count FROM submissions GROUP BY flow, state ORDER BY flow, state').all() as StateCount[];
}

export function countFilesByState(db: Db): StateCount[] {
  return db.prepare('SELECT flow, state, count(*) AS count FROM files GROUP BY flow, state ORDER BY flow, state').all() as StateCount[];
}

/** Creation time of the oldest row still waiting to be delivered, per flow. */
export function oldestPendingByFlow(db: Db): { flow: string; createdAt: number }[] {
  return db
    .prepare("SELECT flow, min(created_at) AS createdAt FROM submissions WHERE state IN ('pending', 'in_flight') GROUP BY flow")
    .all() as { flow: string; createdAt: number }[];
}

/** Pending export rows and the creation time of the oldest one, per channel. */
export function pendingExportsByChannel(db: Db): { channel: string; count: number; oldestAt: number }[] {
  return db
    .prepare("SELECT channel, count(*) AS count, min(created_at) AS oldestAt FROM exports WHERE state = 'pending' GROUP BY channel")
    .all() as { channel: string; count: number; oldestAt: number }[];
}
