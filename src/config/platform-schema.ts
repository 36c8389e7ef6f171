/** `platform:` where the procurement platform is and how to reach it. */
import { z } from 'zod';
import { timerMs } from './common.js';

export const platformSchema = z.strictObject({
  /** Base address, without the `/api-gateway/api/v1` part. */
  baseUrl: z.url().transform((u) => u.replace(/\/+$/, '')),
  /** Buyer access token, the `<token>` path segment. Secret: env, file or systemd credential. */
  token: z.string().min(1, 'must not be empty'),
  /** The ERP's name; with `externalId` it makes each request's stable Idempotency-Key. */
  sourceSystem: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores'),
  /** TCP connect timeout. Default 10 s. */
  connectTimeoutMs: timerMs.default(10_000),
  /** Time to wait for the response headers. Default 30 s. */
  headersTimeoutMs: timerMs.default(30_000),
  /** Time to wait between body chunks. Default 30 s. */
  bodyTimeoutMs: timerMs.default(30_000),
  /** Longest one attempt may take, sending to the answer's last byte (bounds the sum of the waits above). Default 120 s. */
  attemptTimeoutMs: timerMs.default(120_000),
  /** Largest answer read, in bytes; a longer one is a failed attempt, retried under the same key. Default 1 MiB. */
  maxResponseBytes: z
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(64 * 1024 * 1024, 'must be at most 64 MiB')
    .default(1024 * 1024),
});
export type PlatformConfig = z.infer<typeof platformSchema>;
