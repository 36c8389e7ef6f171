/**
 * The webhook bench holds the listener's CPU per event to a bare receiver doing the same writes
 * (`bench/webhook-baselines.ts`). That ceiling is only fair while it writes what the listener
 * writes: the same events, applied or not by the same rule, the same order statuses, one export
 * row per applied event. Here both take the same events, in the same order, and their rows agree.
 */
import { describe, expect, it } from 'vitest';
import { webhookBareSameWrites, type SameWritesRows } from '../../bench/webhook-baselines.js';
import type { Db } from '../../src/store/open-store.js';
import { postWebhook, SECRET, withListener } from '../helpers/with-listener.js';

const at = (minute: number): string => new Date(Date.UTC(2026, 5, 12, 10, minute)).toISOString();
const event = (id: number, orderId: string, status: string, minute: number) => ({
  eventId: `EVT-${String(id).padStart(6, '0')}`,
  eventType: 'order.status.changed',
  eventDate: at(minute),
  orderId,
  status,
});

/** A status, a newer one, an older one arriving late (stored, not applied), a repeat, another order. */
const EVENTS = [
  event(9001, 'ORD-2026-000001', 'confirmed', 0),
  event(9002, 'ORD-2026-000001', 'shipped', 10),
  event(9003, 'ORD-2026-000001', 'delivered', 5),
  event(9002, 'ORD-2026-000001', 'shipped', 10),
  event(9004, 'ORD-2026-000002', 'shipped', 0),
];

function rowsOf(db: Db): SameWritesRows {
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    events: count('SELECT COUNT(*) AS n FROM events'),
    applied: count('SELECT COUNT(*) AS n FROM events WHERE applied = 1'),
    exports: count('SELECT COUNT(*) AS n FROM exports'),
    statuses: (db.prepare("SELECT order_id || ' ' || status || ' ' || event_id AS s FROM order_statuses ORDER BY order_id").all() as { s: string }[]).map(
      (row) => row.s,
    ),
  };
}

async function sameWritesRows(): Promise<SameWritesRows> {
  let ready!: (url: string) => void;
  const url = new Promise<string>((resolve) => (ready = resolve));
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const channel = { ready: (info: unknown) => ready((info as { url: string }).url), done: () => undefined, stopRequested: () => stopped };
  const run = webhookBareSameWrites({ secret: SECRET }, channel);
  for (const e of EVENTS) expect((await postWebhook(await url, e)).status).toBe(200);
  stop();
  return (await run).rows;
}

describe('the webhook bench: the same-writes ceiling', () => {
  it('writes the rows the listener writes for the same events', async () => {
    const listenerRows = await withListener({}, async ({ url, db }) => {
      for (const e of EVENTS) expect((await postWebhook(url, e)).status).toBe(200);
      return rowsOf(db);
    });
    expect(listenerRows).toEqual({
      events: 4,
      applied: 3,
      exports: 3,
      statuses: ['ORD-2026-000001 shipped EVT-009002', 'ORD-2026-000002 shipped EVT-009004'],
    });
    expect(await sameWritesRows()).toEqual(listenerRows);
  });
});
