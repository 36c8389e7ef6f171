/** `platform:` where the procurement platform is and how to reach it. */
import { z } from 'zod';
import { positiveMs } from './common.js';

export const platformSchema = z.strictObject({
  /** Base address, without the `/api-gateway/api/v1` part. */
  baseUrl: z.url().transform((u) => u.replace(/\/+$/, '')),
  /** Buyer access token, the `<token>` path segment. Secret: env, file or systemd credential. */
  token: z.string().min(1, 'must not be empty'),
  /** The ERP's name; with `externalId` it makes each request's stable Idempotency-Key. */
  sourceSystem: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores'),
  /** TCP connect timeout. Default 10 s. */
  connectTimeoutMs: positiveMs.default(10_000),
  /** Time to wait for the response headers. Default 30 s. */
  headersTimeoutMs: positiveMs.default(30_000),
  /** Time to wait between body chunks. Default 30 s. */
  bodyTimeoutMs: positiveMs.default(30_000),
});
export type PlatformConfig = z.infer<typeof platformSchema>;
