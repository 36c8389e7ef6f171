/** The webhook signature: `sha256=` + hex HMAC-SHA256 of the raw body (the GitHub scheme). */
import { createHmac } from 'node:crypto';

export function signWebhookBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
