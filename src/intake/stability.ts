/**
 * When is a file complete? The ERP gives no signal but the file itself, so a file is taken only
 * when its size and mtime stayed the same for `stableForMs` (observed by two scans at least that
 * far apart) and its mtime is older than `minAgeMs`. A zero-byte file waits: it is rejected only
 * after `emptyFileTimeoutMs` since its mtime. Pure: it takes observations and the time.
 */

export interface StabilityRules {
  stableForMs: number;
  minAgeMs: number;
  emptyFileTimeoutMs: number;
}

export interface Observation {
  size: number;
  mtimeMs: number;
}

export type Verdict =
  | { kind: 'ready' }
  | { kind: 'empty-expired' }
  /** Not yet; look again at `checkAt` (epoch ms). */
  | { kind: 'wait'; checkAt: number };

interface Seen extends Observation {
  /** When this size and mtime were first observed. */
  since: number;
}

export interface StabilityTracker {
  /** Judge a file by what a scan saw now. */
  observe(name: string, o: Observation, now: number): Verdict;
  /** Forget files no longer in the inbox (and files taken). */
  retain(names: ReadonlySet<string>): void;
  forget(name: string): void;
}

export function createStabilityTracker(rules: StabilityRules): StabilityTracker {
  const seen = new Map<string, Seen>();
  return {
    observe(name, o, now) {
      const before = seen.get(name);
      const entry = before && before.size === o.size && before.mtimeMs === o.mtimeMs ? before : { ...o, since: now };
      seen.set(name, entry);
      if (o.size === 0) {
        const expiresAt = o.mtimeMs + rules.emptyFileTimeoutMs;
        return now >= expiresAt ? { kind: 'empty-expired' } : { kind: 'wait', checkAt: expiresAt };
      }
      const checkAt = Math.max(entry.since + rules.stableForMs, o.mtimeMs + rules.minAgeMs);
      return now >= checkAt ? { kind: 'ready' } : { kind: 'wait', checkAt };
    },
    retain(names) {
      for (const name of seen.keys()) if (!names.has(name)) seen.delete(name);
    },
    forget(name) {
      seen.delete(name);
    },
  };
}
