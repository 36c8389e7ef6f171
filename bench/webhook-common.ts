/** What the webhook bench's cases share: the path, machine time, the signed events sent. */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';

export const WEBHOOK_PATH = '/webhooks/service';

/** Busy and total jiffies of every core since boot (the `cpu` line of /proc/stat), or null where there is none. */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export interface SignedEvent {
  body: string;
  signature: string;
}

/** Distinct, valid order.status.changed events (EVT-<n>), signed; 500 orders, dates increasing. */
export function signedEvents(secret: string, from: number, count: number): SignedEvent[] {
  const statuses = ['confirmed', 'shipped', 'delivered'];
  const base = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const body = JSON.stringify({
      eventId: `EVT-${String(n).padStart(7, '0')}`,
      eventType: 'order.status.changed',
      eventDate: new Date(base + n).toISOString(),
      orderId: `ORD-2026-${String((n % 500) + 1).padStart(6, '0')}`,
      status: statuses[n % statuses.length],
    });
    return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
  });
}
