/**
 * Queries on `events` (the webhook inbox) and `order_statuses` (the last applied status per order).
 *
 * An event is claimed by its INSERT against the PRIMARY KEY `event_id`, in the same transaction as
 * its effect (the status upsert and the export row): a repeated eventId inserts nothing and changes
 * nothing. The signature covers no timestamp, so replay protection rests on keeping these ids.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import { enqueueExport, STATUS_CHANNEL } from './exports.js';

/** `order.status.changed`, repeated here so the store does not import the platform contract. */
const ORDER_STATUS_CHANGED = 'order.status.changed';

/** What the listener hands to the store: a validated event and its raw body. */
export interface IncomingEvent {
  eventId: string;
  eventType: string;
  eventDate: string;
  orderId?: string | undefined;
  status?: string | undefined;
  /** The raw JSON body exactly as received. */
  body: string;
}

/** Outcome of recording one event. */
export const EVENT_OUTCOME = {
  /** First time seen; it changed the order's status and an export row was enqueued. */
  applied: 'applied',
  /** First time seen; stored only (older than the applied status, or a type we do not export). */
  stored: 'stored',
  /** Seen before: nothing changed. */
  duplicate: 'duplicate',
} as const;
export type EventOutcome = (typeof EVENT_OUTCOME)[keyof typeof EVENT_OUTCOME];

export interface OrderStatusRow {
  order_id: string;
  status: string;
  event_id: string;
  event_date_ms: number;
  updated_at: number;
}

export interface EventRow {
  event_id: string;
  event_type: string;
  order_id: string | null;
  status: string | null;
  event_date: string;
  event_date_ms: number;
  body: string;
  applied: number;
  received_at: number;
}

/** What recording an event did; a duplicate also returns the body stored under its eventId. */
export type RecordedEvent = { outcome: 'applied' | 'stored' } | { outcome: 'duplicate'; storedBody: string };

/**
 * Record one event and its effect. Call inside a transaction (the listener's batch): the INSERT,
 * the status upsert and the export row commit together or not at all. On a duplicate the stored
 * body is returned as it is; whether it differs is the webhook stage's question, not the store's.
 */
export function recordEvent(db: Db, event: IncomingEvent, now: number): RecordedEvent {
  const eventDateMs = Date.parse(event.eventDate);
  const inserted = statement(
    db,
    `INSERT INTO events (event_id, event_type, order_id, status, event_date, event_date_ms, body, applied, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (event_id) DO NOTHING`,
  ).run(event.eventId, event.eventType, event.orderId ?? null, event.status ?? null, event.eventDate, eventDateMs, event.body, now);
  if (inserted.changes === 0) {
    const stored = statement(db, 'SELECT body FROM events WHERE event_id = ?').get(event.eventId) as { body: string };
    return { outcome: EVENT_OUTCOME.duplicate, storedBody: stored.body };
  }

  // Unknown event types are kept (their ids still guard against replays) but not exported:
  // the ERP's status import only understands order statuses.
  if (event.eventType !== ORDER_STATUS_CHANGED || !event.orderId || !event.status) return { outcome: EVENT_OUTCOME.stored };

  const current = getOrderStatus(db, event.orderId);
  if (current && !isNewer(eventDateMs, event.eventId, current.event_date_ms, current.event_id)) return { outcome: EVENT_OUTCOME.stored };

  statement(
    db,
    `INSERT INTO order_statuses (order_id, status, event_id, event_date_ms, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, event_id = excluded.event_id,
       event_date_ms = excluded.event_date_ms, updated_at = excluded.updated_at`,
  ).run(event.orderId, event.status, event.eventId, eventDateMs, now);
  statement(db, 'UPDATE events SET applied = 1 WHERE event_id = ?').run(event.eventId);
  enqueueExport(db, {
    channel: STATUS_CHANNEL,
    sourceKey: event.eventId,
    record: {
      eventId: event.eventId,
      eventType: event.eventType,
      eventDate: event.eventDate,
      orderId: event.orderId,
      status: event.status,
      receivedAt: new Date(now).toISOString(),
    },
    now,
  });
  return { outcome: EVENT_OUTCOME.applied };
}

/**
 * Whether an event supersedes the applied one. A later `eventDate` wins; on equal dates the larger
 * event number wins (`EVT-000124` after `EVT-000123`), so the outcome does not depend on arrival order.
 */
export function isNewer(dateMs: number, eventId: string, appliedDateMs: number, appliedEventId: string): boolean {
  if (dateMs !== appliedDateMs) return dateMs > appliedDateMs;
  return compareEventIds(eventId, appliedEventId) > 0;
}

/** Order event ids by their number (ids of different widths compare correctly), then as text. */
export function compareEventIds(a: string, b: string): number {
  const na = /(\d+)$/.exec(a)?.[1];
  const nb = /(\d+)$/.exec(b)?.[1];
  if (na !== undefined && nb !== undefined) {
    const diff = BigInt(na) - BigInt(nb);
    if (diff !== 0n) return diff > 0n ? 1 : -1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function getOrderStatus(db: Db, orderId: string): OrderStatusRow | undefined {
  return statement(db, 'SELECT * FROM order_statuses WHERE order_id = ?').get(orderId) as OrderStatusRow | undefined;
}

export function getEvent(db: Db, eventId: string): EventRow | undefined {
  return statement(db, 'SELECT * FROM events WHERE event_id = ?').get(eventId) as EventRow | undefined;
}

export function countEvents(db: Db): number {
  return (statement(db, 'SELECT count(*) AS n FROM events').get() as { n: number }).n;
}

/** Housekeeping: forget event ids received before `cutoffMs` (keep at least `webhook.retentionDays`). Returns rows deleted. */
export function deleteEventsOlderThan(db: Db, cutoffMs: number): number {
  return statement(db, 'DELETE FROM events WHERE received_at < ?').run(cutoffMs).changes;
}
