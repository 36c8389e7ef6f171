/**
 * The `X-Service-Signature` check: `sha256=<64 hex>` equal to HMAC-SHA256 of the raw body under one
 * of the configured secrets (several while rotating). Pure: plain values in, a verdict out.
 *
 * The document does not show what is signed; we assume the raw request body, in the same scheme as
 * GitHub's `X-Hub-Signature-256` (README, Assumptions). Digests are compared with `timingSafeEqual`
 * after a length check, so a wrong guess costs the same time whichever byte differs.
 */
import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
const SIGNATURE_FORM = /^sha256=([0-9a-fA-F]{64})$/;

/** Why a signature was refused; logged (never the body, never the secret). */
export const SIGNATURE_PROBLEM = {
  missing: 'missing',
  malformed: 'malformed',
  mismatch: 'mismatch',
} as const;
export type SignatureProblem = (typeof SIGNATURE_PROBLEM)[keyof typeof SIGNATURE_PROBLEM];

export type SignatureVerdict = { valid: true; secretIndex: number } | { valid: false; problem: SignatureProblem };

/** `sha256=<hex>` of `body` under `secret`. */
export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Check a signature header value against every secret; `secretIndex` tells which one matched (rotation). */
export function verifySignature(body: Buffer | string, header: string | string[] | undefined, secrets: readonly string[]): SignatureVerdict {
  if (header === undefined || header === '') return { valid: false, problem: SIGNATURE_PROBLEM.missing };
  if (Array.isArray(header)) return { valid: false, problem: SIGNATURE_PROBLEM.malformed };
  const match = SIGNATURE_FORM.exec(header.trim());
  if (!match) return { valid: false, problem: SIGNATURE_PROBLEM.malformed };
  const given = Buffer.from(match[1]!.toLowerCase(), 'hex');
  for (const [index, secret] of secrets.entries()) {
    const expected = crypto.createHmac('sha256', secret).update(body).digest();
    if (expected.length === given.length && crypto.timingSafeEqual(expected, given)) return { valid: true, secretIndex: index };
  }
  return { valid: false, problem: SIGNATURE_PROBLEM.mismatch };
}
