/**
 * Retry delays: exponential growth with full jitter, capped. Pure: the attempt number and the
 * random source come in as arguments, and the schedule itself lives on the SQLite row
 * (`attempts`, `next_attempt_at`), so a restart continues it instead of starting over.
 */

export interface BackoffPolicy {
  /** First retry delay before jitter. */
  baseMs: number;
  /** Longest delay between two attempts; also the most of a Retry-After we honour. */
  capMs: number;
}

/** A source of uniform numbers in [0, 1), `Math.random` in production. */
export type RandomSource = () => number;

/**
 * Delay before the next attempt after `attempt` failures (1 = the first attempt failed).
 * Full jitter (AWS "Exponential Backoff and Jitter"): uniform in [0, min(cap, base·2^(attempt-1))],
 * which spreads a crowd of retries after an outage instead of sending them in waves.
 */
export function computeBackoff(attempt: number, policy: BackoffPolicy, random: RandomSource): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 52));
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const draw = Math.min(Math.max(random(), 0), 1);
  return Math.floor(draw * ceiling);
}

/**
 * Delay before the next attempt: the jittered backoff, or the platform's Retry-After when it asks
 * for longer (honoured up to `capMs`, so a misconfigured "retry in a week" cannot park the outbox).
 * Retry-After is a floor, never a shortcut: a platform answering `Retry-After: 0` (or a date in the
 * past) to every attempt would otherwise be sent the same request in a hot loop, and a 409
 * "in progress" does not count towards the circuit breaker that would stop it.
 */
export function computeRetryDelay(attempt: number, retryAfterMs: number | undefined, policy: BackoffPolicy, random: RandomSource): number {
  const backoff = computeBackoff(attempt, policy, random);
  if (retryAfterMs === undefined) return backoff;
  return Math.min(Math.max(retryAfterMs, backoff), policy.capMs);
}
