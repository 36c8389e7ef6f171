/** Signed webhook events and a bounded-concurrency sender (undici Pool), as the platform would send them. */
import { Pool } from 'undici';
import { signWebhookBody } from '../../../src/platform/webhook-signature.js';

export interface WebhookSend {
  body: string;
  /** The `X-Service-Signature` value; omitted when undefined. */
  signature: string | undefined;
  contentType?: string;
  /** What the test expects of it: `good` (first or repeat of a valid event) or `bad`. */
  kind: 'good' | 'bad';
  eventId: string;
}

/** `order.status.changed` for order `n`, with its own order id so each event changes a status (and is exported). */
export function statusEvent(n: number, eventId: string): string {
  return JSON.stringify({
    eventId,
    eventType: 'order.status.changed',
    eventDate: new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + n * 1_000).toISOString().replace('Z', '+00:00'),
    orderId: `ORD-2026-${String(n).padStart(6, '0')}`,
    status: 'shipped',
  });
}

export function signed(secret: string, body: string): string {
  return signWebhookBody(secret, body);
}

export interface SendResult {
  status: number | 'error';
  send: WebhookSend;
}

/** Send every item with at most `concurrency` in flight over `connections` keep-alive sockets. */
export async function sendAll(url: string, items: readonly WebhookSend[], options: { concurrency: number; connections: number }): Promise<SendResult[]> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: options.connections, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const results: SendResult[] = new Array<SendResult>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next;
      next += 1;
      if (index >= items.length) return;
      const send = items[index]!;
      try {
        const headers: Record<string, string> = { 'content-type': send.contentType ?? 'application/json; charset=utf-8', 'x-request-id': crypto.randomUUID() };
        if (send.signature !== undefined) headers['x-service-signature'] = send.signature;
        const res = await pool.request({ method: 'POST', path: target.pathname, headers, body: send.body });
        await res.body.dump();
        results[index] = { status: res.statusCode, send };
      } catch {
        results[index] = { status: 'error', send };
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    await pool.close();
  }
  return results;
}
