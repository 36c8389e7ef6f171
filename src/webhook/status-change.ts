/**
 * What an event does to its order, decided by the webhook stage (the store only writes it):
 * - only `order.status.changed` with an order and a status changes an order (other types are kept
 *   for their ids, which guard against replays, but the ERP's status import only knows statuses);
 * - a later `eventDate` wins; on equal dates the larger event number wins (`EVT-000124` after
 *   `EVT-000123`), so the outcome does not depend on the order events arrive in;
 * - the status export record: the fields the export mapping picks its columns from.
 * Pure: the time of receipt comes in.
 */
import { ORDER_STATUS_CHANGED, type WebhookEvent } from '../platform/contract.js';
import type { AppliedStatus, EventToStore } from '../store/events.js';

/** The fields of a status export record, as docs/mapping.md ("The status export mapping") lists them. */
export interface StatusExportRecord extends Record<string, unknown> {
  eventId: string;
  eventType: string;
  eventDate: string;
  orderId: string;
  status: string;
  /** When the daemon stored the event (ISO 8601, UTC). */
  receivedAt: string;
}

/** A validated event and its raw body as the store takes it. */
export function eventToStore(event: WebhookEvent, body: string, receivedAt: number): EventToStore {
  const changes = event.eventType === ORDER_STATUS_CHANGED && event.orderId !== undefined && event.status !== undefined;
  return {
    eventId: event.eventId,
    eventType: event.eventType,
    eventDate: event.eventDate,
    eventDateMs: Date.parse(event.eventDate),
    orderId: event.orderId ?? null,
    status: event.status ?? null,
    body,
    statusChange: changes
      ? { orderId: event.orderId!, status: event.status!, exportRecord: statusExportRecord(event, event.orderId!, event.status!, receivedAt) }
      : undefined,
  };
}

export function statusExportRecord(event: WebhookEvent, orderId: string, status: string, receivedAt: number): StatusExportRecord {
  return { eventId: event.eventId, eventType: event.eventType, eventDate: event.eventDate, orderId, status, receivedAt: isoTime(receivedAt) };
}

/** The last time formatted: every event of a group is received at the same `now`. */
let lastIso = { ms: Number.NaN, text: '' };

function isoTime(ms: number): string {
  if (ms !== lastIso.ms) lastIso = { ms, text: new Date(ms).toISOString() };
  return lastIso.text;
}

/** Whether `event` replaces the order's applied status `current`. */
export function supersedes(event: { eventDateMs: number; eventId: string }, current: AppliedStatus): boolean {
  if (event.eventDateMs !== current.eventDateMs) return event.eventDateMs > current.eventDateMs;
  return compareEventIds(event.eventId, current.eventId) > 0;
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
