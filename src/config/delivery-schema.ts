/** `delivery:` how the outbox is sent: concurrency, rate, backoff, leases, circuit breaker. */
import { z } from 'zod';
import { positiveMs } from './common.js';

export const deliverySchema = z.strictObject({
  /** Submissions in flight at once, per flow. Default 4. */
  concurrency: z.number().int().min(1).max(256).default(4),
  /** Optional cap on submissions started per second, per flow. */
  ratePerSecond: z.number().positive().optional(),
  /** How long a claimed row is ours; a crash releases it after this. Default 60 s. */
  leaseMs: positiveMs.default(60_000),
  /** How often the dispatcher looks for due rows when idle. Default 500 ms. */
  pollIntervalMs: positiveMs.default(500),
  backoff: z
    .strictObject({
      /** First retry delay (before jitter). Default 1 s. */
      baseMs: positiveMs.default(1_000),
      /** Longest delay between attempts, also the cap on Retry-After. Default 10 min. */
      capMs: positiveMs.default(600_000),
      /** Dead-letter after this many attempts (unset: only the age limit applies). */
      maxAttempts: z.number().int().positive().optional(),
      /** Dead-letter when the first attempt is older than this. Default 72 h. */
      maxAgeMs: positiveMs.default(72 * 3_600_000),
    })
    .default({ baseMs: 1_000, capMs: 600_000, maxAgeMs: 72 * 3_600_000 }),
  circuit: z
    .strictObject({
      /** Consecutive temporary failures that mark the platform as down. Default 5. */
      failureThreshold: z.number().int().positive().default(5),
      /**
       * While down, one probe per this interval (doubling up to backoff.capMs). Also the fixed
       * interval of the token probe while a flow is paused by a 401/403. Default 5 s.
       */
      probeIntervalMs: positiveMs.default(5_000),
    })
    .default({ failureThreshold: 5, probeIntervalMs: 5_000 }),
});
export type DeliveryConfig = z.infer<typeof deliverySchema>;
