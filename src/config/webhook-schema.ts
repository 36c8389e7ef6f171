/** `webhook:` the listener for the platform's signed status events. */
import { z } from 'zod';
import { positiveMs } from './common.js';

export const webhookSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (tests). Default 8788. */
  port: z.number().int().min(0).max(65_535).default(8788),
  path: z.string().startsWith('/', 'must start with /').default('/webhooks/service'),
  /** HMAC secrets; several while rotating. Required when `requireSignature` is on. */
  secrets: z.array(z.string().min(1, 'must not be empty')).default([]),
  /** Verify X-Service-Signature. Default true. */
  requireSignature: z.boolean().default(true),
  /** Largest accepted body. Default 1 MiB. */
  maxBodyBytes: z.number().int().positive().default(1024 * 1024),
  /** Source addresses allowed to call, as CIDR (`10.0.0.0/8`, `::1/128`). Empty: any. */
  allowFrom: z.array(z.string().min(1)).default([]),
  /** Time allowed to receive the headers. Default 10 s. */
  headersTimeoutMs: positiveMs.default(10_000),
  /** Time allowed to receive the whole request. Default 30 s. */
  requestTimeoutMs: positiveMs.default(30_000),
  /** Days to keep event ids (replay protection). At least 30. Default 30. */
  retentionDays: z.number().int().min(30, 'must be at least 30: replay protection rests on event ids').default(30),
});
export type WebhookConfig = z.infer<typeof webhookSchema>;
