/** `/events` (recent webhook events), `/orders/<orderId>` (one order's status history) and `/audit` (the operator's actions). */
import { listAudit } from '../../../store/audit.js';
import { eventsOfOrder, orderStatusOf, recentEvents } from '../../../store/console-events.js';
import { submissionsOfOrder } from '../../../store/console-submissions.js';
import type { ConsoleDeps } from '../deps.js';
import { iso } from '../format.js';
import { auditItem, eventItem, parseJson, submissionItem, type AuditItem, type EventItem, type SubmissionItem } from './shapes.js';

export const EVENTS_PAGE = 100;

export interface EventsData {
  page: 'events';
  events: EventItem[];
  /** `?before=` of the next (older) page, or null at the end. */
  nextBefore: number | null;
}

export function eventsData(deps: ConsoleDeps, before: string | undefined): EventsData {
  const beforeMs = before && /^\d{1,15}$/.test(before) ? Number(before) : undefined;
  const rows = recentEvents(deps.db, EVENTS_PAGE + 1, beforeMs);
  const page = rows.slice(0, EVENTS_PAGE);
  return { page: 'events', events: page.map(eventItem), nextBefore: rows.length > EVENTS_PAGE ? page.at(-1)!.receivedAt : null };
}

export interface OrderData {
  page: 'order';
  orderId: string;
  /** The status applied last (a later eventDate wins), or null when no event changed it. */
  status: { status: string; eventId: string; updatedAt: string | null } | null;
  /** Every event of the order by its date, with the body as received. */
  events: (EventItem & { body: unknown })[];
  /** Submissions that name the order (supplier confirmations). */
  submissions: SubmissionItem[];
}

/** The order page's data, or null when nothing in the store names the order. */
export function orderData(deps: ConsoleDeps, orderId: string): OrderData | null {
  const status = orderStatusOf(deps.db, orderId);
  const events = eventsOfOrder(deps.db, orderId).map(({ body, ...event }) => ({ ...eventItem(event), body: parseJson(body) }));
  const submissions = submissionsOfOrder(deps.db, orderId).map(submissionItem);
  if (!status && events.length === 0 && submissions.length === 0) return null;
  return {
    page: 'order',
    orderId,
    status: status ? { status: status.status, eventId: status.eventId, updatedAt: iso(status.updatedAt) } : null,
    events,
    submissions,
  };
}

export interface AuditData {
  page: 'audit';
  entries: AuditItem[];
}

export function auditData(deps: ConsoleDeps): AuditData {
  return { page: 'audit', entries: listAudit(deps.db, 200).map(auditItem) };
}
