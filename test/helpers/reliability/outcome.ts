/** Checks of "exactly once" from both ends: what the sandbox holds, and what the daemon's store says. */
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { storePath } from '../../../src/store/open-store.js';
import { keysByExternalId } from '../with-sandbox.js';

export { keysByExternalId };

/**
 * Exactly once, seen from the platform: it holds one request per externalId of `expected` and no
 * other, and each externalId reached it under a single `Idempotency-Key` (replays included).
 */
export function expectEachOnceUnderOneKey(sandbox: Sandbox, expected: readonly string[]): void {
  const accepted = acceptedCounts(sandbox);
  expect(sandbox.requests()).toHaveLength(expected.length);
  for (const externalId of expected) expect(accepted.get(externalId), externalId).toBe(1);
  expect([...keysByExternalId(sandbox)].filter(([, keys]) => keys.size !== 1)).toEqual([]);
}

/** Accepted requests per externalId (each must be 1). */
function acceptedCounts(sandbox: Sandbox): Map<string, number> {
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
