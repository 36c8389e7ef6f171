/**
 * Queries on `events` (the webhook inbox) and `order_statuses` (the last applied status per order).
 *
 * An event is claimed by its INSERT against the PRIMARY KEY `event_id`, in the same transaction as
 * its effect (the status upsert and the export row): a repeated eventId inserts nothing and changes
 * nothing. The signature covers no timestamp, so replay protection rests on keeping these ids.
 */
import type { Db } from './open-store.js';
import { statement, transact } from './statement.js';
import { enqueueExport, STATUS_CHANNEL } from './exports.js';

/**
 * A validated event as the webhook stage hands it to the store. The stage decides which events
 * change an order's status (`statusChange`) and what the status export record says; the store
 * only writes what it is given.
 */
export interface EventToStore {
  eventId: string;
  eventType: string;
  /** As sent, and as epoch ms. */
  eventDate: string;
  eventDateMs: number;
  orderId: string | null;
  status: string | null;
  /** The raw JSON body exactly as received. */
  body: string;
  /** Present when the event may change its order's status: the status and the export record to enqueue if it does. */
  statusChange?: { orderId: string; status: string; exportRecord: Record<string, unknown> } | undefined;
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

/** An order's newest status as it leaves the store (camelCase). */
export interface StoredOrderStatus {
  orderId: string;
  status: string;
  eventId: string;
  eventDateMs: number;
  updatedAt: number;
}

/** A stored webhook event as it leaves the store (camelCase). */
export interface StoredEvent {
  eventId: string;
  eventType: string;
  orderId: string | null;
  status: string | null;
  eventDate: string;
  eventDateMs: number;
  body: string;
  applied: number;
  receivedAt: number;
}

/** What recording an event did; a duplicate also returns the body stored under its eventId. */
export type RecordedEvent = { outcome: 'applied' | 'stored' } | { outcome: 'duplicate'; storedBody: string };

/** One event's result in a batch: recorded (within the committed transaction), or why not. */
export type EventResult = ({ ok: true } & RecordedEvent) | { ok: false; error: unknown };

/**
 * Whether an event's status replaces the order's current one: the webhook stage's rule, passed in
 * so that the store applies it inside the transaction without owning it.
 */
export type Supersedes = (event: { eventDateMs: number; eventId: string }, current: AppliedStatus) => boolean;

/** What the supersede rule reads of an order's applied status (`order_statuses.event_id`, `event_date_ms`). */
export interface AppliedStatus {
  eventId: string;
  eventDateMs: number;
}

/**
 * Record a batch of events in ONE transaction (one commit, made durable by the caller's group
 * commit). The fast path records them straight in that transaction; if one of them fails, the
 * batch is rolled back and recorded again with each event in its own savepoint, so the one that
 * fails gets `{ ok: false }` and the others are stored. (A savepoint per event on every batch cost
 * two statements an event for a failure that almost never happens.) Throws when the commit itself
 * fails: then nothing of the batch is durable.
 */
export function recordEvents(db: Db, events: readonly EventToStore[], now: number, supersedes: Supersedes): EventResult[] {
  try {
    return transact(db, () => events.map((event): EventResult => recordEvent(db, event, now, supersedes)));
  } catch {
    // A nested transaction is a SAVEPOINT.
    return transact(db, () =>
      events.map((event): EventResult => {
        try {
          return transact(db, () => recordEvent(db, event, now, supersedes));
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }
}

/** The outcomes, as the batch reports them (`{ ok: true }` and what happened): built once, not per event. */
const APPLIED = { ok: true, outcome: EVENT_OUTCOME.applied } as const;
const STORED = { ok: true, outcome: EVENT_OUTCOME.stored } as const;
const duplicateOf = (storedBody: string) => ({ ok: true, outcome: EVENT_OUTCOME.duplicate, storedBody }) as const;

/**
 * Record one event and its effect. Call inside a transaction: the INSERT, the status upsert and
 * the export row commit together or not at all. Whether the event supersedes the order's status is
 * decided before the INSERT, so the event row is written once with its `applied` flag: one read of
 * the status index sees an event newer than the order's status (or an order with none), the usual
 * case; only an event that is not newer reads the status itself, for `supersedes` to decide an
 * equal date. (Not a RETURNING on the INSERT: SQLite collects RETURNING rows in a temporary table,
 * made and freed on every run, which cost the INSERT about twice its own work.) On a duplicate the
 * stored body is returned as it is; whether it differs is the webhook stage's question, not the
 * store's.
 */
export function recordEvent(db: Db, event: EventToStore, now: number, supersedes: Supersedes): EventResult & { ok: true } {
  const change = event.statusChange;
  const newer =
    change !== undefined &&
    (statement(db, 'SELECT NOT EXISTS (SELECT 1 FROM order_statuses WHERE order_id = ? AND event_date_ms >= ?)')
      .pluck()
      .get(change.orderId, event.eventDateMs) as number) === 1;
  const inserted = statement(
    db,
    `INSERT INTO events (event_id, event_type, order_id, status, event_date, event_date_ms, body, applied, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
  ).run(event.eventId, event.eventType, event.orderId, event.status, event.eventDate, event.eventDateMs, event.body, newer ? 1 : 0, now);
  if (inserted.changes === 0) {
    const stored = statement(db, 'SELECT body FROM events WHERE event_id = ?').get(event.eventId) as { body: string };
    return duplicateOf(stored.body);
  }
  if (!change) return STORED;
  if (!newer) {
    // Not newer than the order's status: older, or of the same date, which the rule decides.
    const current = statement(db, 'SELECT event_id AS eventId, event_date_ms AS eventDateMs FROM order_statuses WHERE order_id = ?').get(change.orderId) as
      AppliedStatus | undefined;
    if (current && !supersedes(event, current)) return STORED;
    statement(db, 'UPDATE events SET applied = 1 WHERE event_id = ?').run(event.eventId);
  }
  statement(
    db,
    `INSERT INTO order_statuses (order_id, status, event_id, event_date_ms, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, event_id = excluded.event_id,
       event_date_ms = excluded.event_date_ms, updated_at = excluded.updated_at`,
  ).run(change.orderId, change.status, event.eventId, event.eventDateMs, now);
  enqueueExport(db, { channel: STATUS_CHANNEL, sourceKey: event.eventId, record: change.exportRecord, now });
  return APPLIED;
}

export function getOrderStatus(db: Db, orderId: string): StoredOrderStatus | undefined {
  return statement(
    db,
    'SELECT order_id AS orderId, status, event_id AS eventId, event_date_ms AS eventDateMs, updated_at AS updatedAt FROM order_statuses WHERE order_id = ?',
  ).get(orderId) as StoredOrderStatus | undefined;
}

export function getEvent(db: Db, eventId: string): StoredEvent | undefined {
  return statement(
    db,
    `SELECT event_id AS eventId, event_type AS eventType, order_id AS orderId, status, event_date AS eventDate, event_date_ms AS eventDateMs,
      body, applied, received_at AS receivedAt FROM events WHERE event_id = ?`,
  ).get(eventId) as StoredEvent | undefined;
}

export function countEvents(db: Db): number {
  return (statement(db, 'SELECT count(*) AS n FROM events').get() as { n: number }).n;
}

/** Housekeeping: forget event ids received before `cutoffMs` (keep at least `webhook.retentionDays`). Returns rows deleted. */
export function deleteEventsOlderThan(db: Db, cutoffMs: number): number {
  return statement(db, 'DELETE FROM events WHERE received_at < ?').run(cutoffMs).changes;
}
