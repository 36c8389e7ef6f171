/** The daily summary line: counts per flow and state of submissions and files, pending exports. */
import type { Db } from '../store/open-store.js';
import { countSubmissionsByState, oldestPendingByFlow } from '../store/outbox.js';
import { countFilesByState, pendingExportsByChannel } from '../store/stats.js';

export interface Summary {
  submissions: Record<string, Record<string, number>>;
  files: Record<string, Record<string, number>>;
  oldestPendingAgeSeconds: Record<string, number>;
  pendingExports: Record<string, number>;
}

export function summarise(db: Db, now: number): Summary {
  const group = (rows: { flow: string; state: string; count: number }[]) => {
    const out: Record<string, Record<string, number>> = {};
    for (const row of rows) (out[row.flow] ??= {})[row.state] = row.count;
    return out;
  };
  return {
    submissions: group(countSubmissionsByState(db)),
    files: group(countFilesByState(db)),
    oldestPendingAgeSeconds: Object.fromEntries(oldestPendingByFlow(db).map((r) => [r.flow, Math.round((now - r.createdAt) / 1000)])),
    pendingExports: Object.fromEntries(pendingExportsByChannel(db).map((r) => [r.channel, r.count])),
  };
}
