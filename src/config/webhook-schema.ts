/** `webhook:` the listener for the platform's signed status events. */
import net from 'node:net';
import { z } from 'zod';
import { positiveMs } from './common.js';

/** `10.0.0.0/8`, `::1/128`, or a bare address. */
function isCidr(range: string): boolean {
  const [address = '', prefix, extra] = range.trim().split('/');
  const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = net.isIP(bare);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export const webhookSchema = z.strictObject({
  /** Address to listen on. Default 127.0.0.1 (put a reverse proxy in front, or set 0.0.0.0). */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (tests). Default 8788. */
  port: z.number().int().min(0).max(65_535).default(8788),
  /** Path the platform POSTs to. Default /webhooks/service (the shape the interface document shows). */
  path: z.string().startsWith('/', 'must start with /').default('/webhooks/service'),
  /** HMAC-SHA256 secrets; several while rotating (any one may match). Required when `requireSignature` is on. Default []. */
  secrets: z.array(z.string().min(1, 'must not be empty')).default([]),
  /** Verify X-Service-Signature. Default true. */
  requireSignature: z.boolean().default(true),
  /** Largest accepted body; larger gets 413. Default 1 MiB. */
  maxBodyBytes: z.number().int().positive().default(1024 * 1024),
  /** Source addresses allowed to call, as CIDR (`10.0.0.0/8`, `::1/128`); others get 403. Default []: any. */
  allowFrom: z.array(z.string().min(1).refine(isCidr, 'must be an IPv4 or IPv6 address or CIDR range')).default([]),
  /** Time allowed to receive the headers. Default 10 s. */
  headersTimeoutMs: positiveMs.default(10_000),
  /** Time allowed to receive the whole request. Default 30 s. */
  requestTimeoutMs: positiveMs.default(30_000),
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  keepAliveTimeoutMs: positiveMs.default(5_000),
  /** Days to keep event ids (replay protection). At least 30. Default 30. */
  retentionDays: z.number().int().min(30, 'must be at least 30: replay protection rests on event ids').default(30),
});
export type WebhookConfig = z.infer<typeof webhookSchema>;
