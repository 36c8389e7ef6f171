/**
 * Read queries of the operator console on `events`, `order_statuses` and the export outbox: the
 * webhook and exporter panels of the overview, recent events, one order's history, set-aside rows.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { ExportState } from './exports.js';

/** An event as lists show it (the raw body is read on the order page only). */
export interface EventListItem {
  eventId: string;
  eventType: string;
  orderId: string | null;
  status: string | null;
  eventDate: string;
  eventDateMs: number;
  applied: number;
  receivedAt: number;
}

const ITEM_COLUMNS = `event_id AS eventId, event_type AS eventType, order_id AS orderId, status, event_date AS eventDate,
  event_date_ms AS eventDateMs, applied, received_at AS receivedAt`;

/** Events received since `since` (epoch ms); a range count on `events_received_applied` (migration 7). */
export function countEventsSince(db: Db, since: number): number {
  return (statement(db, 'SELECT count(*) AS n FROM events WHERE received_at >= ?').get(since) as { n: number }).n;
}

/** Latest events first; `before` (a received_at) pages back. */
export function recentEvents(db: Db, limit: number, before?: number): EventListItem[] {
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM events WHERE received_at < ? ORDER BY received_at DESC, event_id DESC LIMIT ?`).all(
    before ?? Number.MAX_SAFE_INTEGER,
    limit,
  ) as EventListItem[];
}

/** Every event of one order in the order of their dates, with the raw body. */
export function eventsOfOrder(db: Db, orderId: string, limit = 500): (EventListItem & { body: string })[] {
  return statement(db, `SELECT ${ITEM_COLUMNS}, body FROM events WHERE order_id = ? ORDER BY event_date_ms, event_id LIMIT ?`).all(
    orderId,
    limit,
  ) as (EventListItem & {
    body: string;
  })[];
}

/** An export row (an acknowledgement or a status record) as the console shows it. */
export interface ExportListItem {
  id: number;
  channel: string;
  state: ExportState;
  fileName: string | null;
  createdAt: number;
  writtenAt: number | null;
  /** Why its first name failed, or why it was set aside (`exports.error`). */
  error: string | null;
}

export const EXPORT_ITEM_COLUMNS = 'id, channel, state, file_name AS fileName, created_at AS createdAt, written_at AS writtenAt, error';

/** The newest written row of an export channel (the last file written there). */
export function lastWrittenExport(db: Db, channel: string): ExportListItem | undefined {
  return statement(db, `SELECT ${EXPORT_ITEM_COLUMNS} FROM exports WHERE state = 'written' AND channel = ? ORDER BY id DESC LIMIT 1`).get(channel) as
    ExportListItem | undefined;
}

/** Rows set aside for good (EXPORT_SET_ASIDE), newest first, and how many there are in all. */
export function setAsideExports(db: Db, limit: number): { total: number; rows: ExportListItem[] } {
  const total = (statement(db, "SELECT count(*) AS n FROM exports WHERE state = 'set_aside'").get() as { n: number }).n;
  const rows = statement(db, `SELECT ${EXPORT_ITEM_COLUMNS} FROM exports WHERE state = 'set_aside' ORDER BY id DESC LIMIT ?`).all(limit) as ExportListItem[];
  return { total, rows };
}

/** An order's newest applied status, as the order page shows it. */
export interface OrderStatusItem {
  status: string;
  eventId: string;
  updatedAt: number;
}

export function orderStatusOf(db: Db, orderId: string): OrderStatusItem | undefined {
  return statement(db, 'SELECT status, event_id AS eventId, updated_at AS updatedAt FROM order_statuses WHERE order_id = ?').get(orderId) as
    OrderStatusItem | undefined;
}
