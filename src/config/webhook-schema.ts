/** `webhook:` the listener for the platform's signed status events. */
import tls from 'node:tls';
import { z } from 'zod';
import { parseCidr } from '../shared/cidr.js';
import { positiveMs } from './common.js';

/** The listener's certificate and key; checked here, so `check` reports a key that does not fit its certificate. */
export const tlsSchema = z
  .strictObject({
    /** PEM certificate, leaf first, then any intermediates. Required with `tls`. */
    cert: z.string().min(1, 'must be a PEM certificate'),
    /** PEM private key of `cert` (unencrypted). Required with `tls`; registered as a secret. */
    key: z.string().min(1, 'must be a PEM private key'),
  })
  .superRefine((material, ctx) => {
    const problem = tlsMaterialProblem(material);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type TlsMaterial = z.infer<typeof tlsSchema>;

/** Why OpenSSL refuses this certificate and key, or undefined when they load together. */
export function tlsMaterialProblem(material: TlsMaterial): string | undefined {
  try {
    tls.createSecureContext({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2' });
    return undefined;
  } catch (error) {
    // OpenSSL's messages name the routine, never the key material.
    return `certificate and key do not load: ${(error as Error).message}`;
  }
}

export const webhookSchema = z.strictObject({
  /** Address to listen on. Default 127.0.0.1 (loopback; to take the platform's calls directly set `tls` and `allowFrom`). */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port (tests). Default 8788. */
  port: z.number().int().min(0).max(65_535).default(8788),
  /** Path the platform POSTs to. Default /webhooks/service (the shape the interface document shows). */
  path: z.string().startsWith('/', 'must start with /').default('/webhooks/service'),
  /** HMAC-SHA256 secrets; several while rotating (any one may match). Required when `requireSignature` is on. Default []. */
  secrets: z.array(z.string().min(1, 'must not be empty')).default([]),
  /** Verify X-Service-Signature. Default true. */
  requireSignature: z.boolean().default(true),
  /**
   * Largest accepted body; larger gets 413. Default 64 KiB: an event is about 300 bytes, and every
   * byte up to this limit is held in memory before the signature can be checked.
   */
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /**
   * Open connections at most; one more is closed at once. Default 256. With the default body and
   * header limits (64 KiB + Node's 16 KiB) an unauthenticated client can pin at most about 20 MiB,
   * while the platform, which sends one event at a time per order, never comes near it.
   */
  maxConnections: z.number().int().positive().default(256),
  /**
   * Speak HTTPS with this certificate (chain) and private key, both PEM, both read like secrets
   * (`{ fromCredential: webhook-tls-key }`, `{ fromFile: … }`, `${ENV}`, or in place). TLS 1.2 or
   * newer; SIGHUP re-reads both. Default absent: plain HTTP (keep the listener on loopback then).
   */
  tls: tlsSchema.optional(),
  /**
   * Source addresses allowed to call, as CIDR (`10.0.0.0/8`, `::1/128`); others get 403. Default []:
   * any. Set it whenever the listener is reachable from outside this host: the platform's ranges.
   */
  allowFrom: z
    .array(
      z
        .string()
        .min(1)
        .refine((range) => parseCidr(range) !== null, 'must be an IPv4 or IPv6 address or CIDR range'),
    )
    .default([]),
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
