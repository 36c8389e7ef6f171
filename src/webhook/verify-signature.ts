/**
 * The `X-Service-Signature` check: `sha256=<64 hex>` equal to HMAC-SHA256 of the raw body under one
 * of the configured secrets (several while rotating). Pure: plain values in, a verdict out.
 *
 * What is signed, and how, is the platform's scheme (`platform/webhook-signature.ts`, the same
 * function the sandbox signs with). Digests are compared with `timingSafeEqual` after a length
 * check, so a wrong guess costs the same time whichever byte differs.
 */
import crypto from 'node:crypto';
import { webhookDigest } from '../platform/webhook-signature.js';

const SIGNATURE_FORM = /^sha256=[0-9a-fA-F]{64}$/;

/** Why a signature was refused; logged (never the body, never the secret). */
export const SIGNATURE_PROBLEM = {
  missing: 'missing',
  malformed: 'malformed',
  mismatch: 'mismatch',
} as const;
export type SignatureProblem = (typeof SIGNATURE_PROBLEM)[keyof typeof SIGNATURE_PROBLEM];

export type SignatureVerdict = { ok: true; secretIndex: number } | { ok: false; problem: SignatureProblem };

/** Check a signature header value against every secret; `secretIndex` tells which one matched (rotation). */
export function verifySignature(body: Buffer | string, header: string | string[] | undefined, secrets: readonly string[]): SignatureVerdict {
  if (header === undefined || header === '') return { ok: false, problem: SIGNATURE_PROBLEM.missing };
  if (Array.isArray(header)) return { ok: false, problem: SIGNATURE_PROBLEM.malformed };
  const value = header.trim();
  if (!SIGNATURE_FORM.test(value)) return { ok: false, problem: SIGNATURE_PROBLEM.malformed };
  // Hex digits in either case: Buffer's hex decoding reads both.
  const given = Buffer.from(value.slice('sha256='.length), 'hex');
  for (let index = 0; index < secrets.length; index++) {
    const expected = webhookDigest(secrets[index]!, body);
    if (expected.length === given.length && crypto.timingSafeEqual(expected, given)) return { ok: true, secretIndex: index };
  }
  return { ok: false, problem: SIGNATURE_PROBLEM.mismatch };
}
