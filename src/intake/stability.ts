/**
 * When is a file complete? The ERP gives no signal but the file itself, so a file is taken only
 * when its size and mtime stayed the same for `stableForMs` (observed by two scans at least that
 * far apart) and its mtime is older than `minAgeMs`. A zero-byte file is judged by the same wait
 * (and no earlier than `emptyFileTimeoutMs` after its mtime, 0 by default): a writer that created it
 * and then writes changes its size and mtime, and the wait starts again; one that leaves it empty
 * past the wait, seen so by two scans at least, is rejected (FILE_EMPTY), as a preview says of it. An mtime in the future (a writer whose clock is
 * ahead, or a touched file) counts from when the file was first seen instead, so such a file is
 * neither held back by the skew nor left waiting for ever. Pure: it takes observations and the time.
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
  /**
   * Not yet; look again at `checkAt` (epoch ms). `mtimeAheadMs`: on the first sight of a file whose
   * mtime is in the future, by how much (for one warning).
   */
  | { kind: 'wait'; checkAt: number; mtimeAheadMs?: number };

interface Seen extends Observation {
  /** When this size and mtime were first observed. */
  since: number;
}

export interface StabilityTracker {
  /** Judge a file by what a scan saw now. */
  observe(name: string, observation: Observation, now: number): Verdict;
  /** Forget files no longer in the inbox (and files taken). */
  retain(names: ReadonlySet<string>): void;
  forget(name: string): void;
}

/** An mtime this far ahead of the clock is worth a warning (file systems round; clocks drift a little). */
const MTIME_AHEAD_TOLERANCE_MS = 2_000;

export function createStabilityTracker(rules: StabilityRules): StabilityTracker {
  const seen = new Map<string, Seen>();
  return {
    observe(name, observation, now) {
      const before = seen.get(name);
      const entry = before && before.size === observation.size && before.mtimeMs === observation.mtimeMs ? before : { ...observation, since: now };
      seen.set(name, entry);
      // The file's age: from its mtime, but never from later than when it was first seen like this.
      const bornAt = Math.min(observation.mtimeMs, entry.since);
      const ahead = entry !== before && observation.mtimeMs > now + MTIME_AHEAD_TOLERANCE_MS ? { mtimeAheadMs: observation.mtimeMs - now } : {};
      const checkAt = Math.max(entry.since + rules.stableForMs, bornAt + rules.minAgeMs);
      if (observation.size === 0) {
        const expiresAt = Math.max(checkAt, bornAt + rules.emptyFileTimeoutMs);
        // Seen empty by one scan only: its writer may have just created it (the way most write a
        // file). A second scan that finds it so decides, even with no wait configured.
        return now >= expiresAt && entry === before ? { kind: 'empty-expired' } : { kind: 'wait', checkAt: expiresAt, ...ahead };
      }
      return now >= checkAt ? { kind: 'ready' } : { kind: 'wait', checkAt, ...ahead };
    },
    retain(names) {
      for (const name of seen.keys()) if (!names.has(name)) seen.delete(name);
    },
    forget(name) {
      seen.delete(name);
    },
  };
}
