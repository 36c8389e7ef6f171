/**
 * How the platform signs a webhook, as we read the interface document: `X-Service-Signature:
 * sha256=<hex>`, the HMAC-SHA256 of the raw request body under the shared secret (the document
 * does not show what is signed; this is GitHub's `X-Hub-Signature-256` scheme, decided in
 * docs/assumptions.md). The one signing function: the sandbox signs with it and the listener verifies
 * against it, so the two can never drift apart.
 */
import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';

/** The raw HMAC-SHA256 of `body` under `secret`. */
export function webhookDigest(secret: string, body: Buffer | string): Buffer {
  return crypto.createHmac('sha256', secret).update(body).digest();
}

/** The header value for `body`: `sha256=<64 hex>`. */
export function signWebhookBody(secret: string, body: Buffer | string): string {
  return `sha256=${webhookDigest(secret, body).toString('hex')}`;
}
