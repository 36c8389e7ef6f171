/**
 * A flow's rate limit (`ratePerSecond`): its requests start at least `1000 / ratePerSecond` ms
 * apart, one at a time. Without a rate every call lets everything through.
 */

export interface StartSpacing {
  /** A rate limit applies: rows start one at a time. */
  readonly limits: boolean;
  /** How many of `allowed` rows may start now: all without a rate, else one once its time has come. */
  limit(now: number, allowed: number): number;
  /** A row started at `now`: the next may start one spacing after it. */
  started(now: number): void;
  /** `until`, or the next start time when that is later (at most `pollIntervalMs` from now): the loop sleeps until then. */
  sleepUntil(now: number, until: number, pollIntervalMs: number): number;
}

export function createStartSpacing(ratePerSecond: number | undefined): StartSpacing {
  const spacingMs = ratePerSecond ? 1000 / ratePerSecond : 0;
  let nextStartAt = 0;
  return {
    limits: spacingMs > 0,
    limit(now, allowed) {
      if (spacingMs === 0) return allowed;
      return now >= nextStartAt ? Math.min(allowed, 1) : 0;
    },
    started(now) {
      if (spacingMs > 0) nextStartAt = Math.max(now, nextStartAt) + spacingMs;
    },
    sleepUntil(now, until, pollIntervalMs) {
      if (spacingMs === 0 || nextStartAt <= now) return until;
      return Math.max(until, Math.min(nextStartAt, now + pollIntervalMs));
    },
  };
}
