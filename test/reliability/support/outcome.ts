/** Checks of "exactly once" from both ends: what the sandbox holds, and what the daemon's store says. */
import Database from 'better-sqlite3';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { storePath } from '../../../src/store/open-store.js';

/** externalId → the Idempotency-Keys it was sent under (create calls that reached the sandbox). */
export function keysByExternalId(sandbox: Sandbox): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const call of sandbox.calls()) {
    if (call.method !== 'POST' || !call.path.endsWith('/requests')) continue;
    const body = call.body as { externalId?: unknown } | null;
    if (!body || typeof body !== 'object' || typeof body.externalId !== 'string') continue;
    const key = call.headers['idempotency-key'];
    const set = keys.get(body.externalId) ?? new Set<string>();
    set.add(Array.isArray(key) ? key.join(',') : String(key));
    keys.set(body.externalId, set);
  }
  return keys;
}

/** Accepted requests per externalId (each must be 1). */
export function acceptedCounts(sandbox: Sandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sandbox.requests()) counts.set(r.externalId, (counts.get(r.externalId) ?? 0) + 1);
  return counts;
}

/** Submission and file counts per state, read from the daemon's SQLite file (after it stopped, or read-only beside it). */
export function storeStates(stateDir: string): { submissions: Record<string, number>; files: Record<string, number> } {
  const db = new Database(storePath(stateDir), { readonly: true, fileMustExist: true });
  try {
    const group = (sql: string) => Object.fromEntries((db.prepare(sql).all() as { state: string; n: number }[]).map((r) => [r.state, r.n]));
    return {
      submissions: group('SELECT state, COUNT(*) AS n FROM submissions GROUP BY state'),
      files: group('SELECT state, COUNT(*) AS n FROM files GROUP BY state'),
    };
  } finally {
    db.close();
  }
}
