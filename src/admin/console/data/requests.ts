/**
 * `/flows/<flow>/requests?q=` (search) and `/flows/<flow>/requests/<externalId>` (one request's
 * whole story as a timeline: its file and row, when it was recorded, each attempt with its
 * X-Request-Id and the platform's answer, the outcome, the acknowledgement file, its order's
 * events, and the operator's actions on it).
 */
import { listAuditOfTarget } from '../../../store/audit.js';
import { eventsOfOrder } from '../../../store/console-events.js';
import { searchFilesByName } from '../../../store/console-files.js';
import {
  acknowledgementsOf,
  attemptsOf,
  latestSubmissions,
  searchSubmissions,
  submissionsByExternalId,
  submissionsOfFiles,
} from '../../../store/console-submissions.js';
import { ackChannel } from '../../../store/exports.js';
import { getFile } from '../../../store/files.js';
import { getOrderStatus } from '../../../store/events.js';
import type { SubmissionRow, SubmissionState } from '../../../store/submissions.js';
import type { ConsoleDeps } from '../deps.js';
import { iso } from '../format.js';
import { auditItem, fileItem, fileRowItem, parseJson, submissionItem, type AuditItem, type FileItem, type SubmissionItem } from './shapes.js';

export const SEARCH_LIMIT = 50;

export interface SearchData {
  page: 'requests';
  flow: string;
  q: string;
  /** Matching submissions (externalId, platform id or order id starting with q; or rows of matching files); the latest ones when q is empty. */
  submissions: SubmissionItem[];
  /** Files whose name contains q. */
  files: FileItem[];
}

export function searchData(deps: ConsoleDeps, flow: string, rawQ: string): SearchData {
  const q = rawQ.trim().slice(0, 200);
  if (q === '') return { page: 'requests', flow, q, submissions: latestSubmissions(deps.db, flow, SEARCH_LIMIT).map(submissionItem), files: [] };
  const files = searchFilesByName(deps.db, flow, q, 20);
  const byId = searchSubmissions(deps.db, flow, q, SEARCH_LIMIT);
  const seen = new Set(byId.map((row) => row.id));
  const ofFiles =
    byId.length < SEARCH_LIMIT
      ? submissionsOfFiles(
          deps.db,
          files.map((f) => f.id),
          SEARCH_LIMIT - byId.length,
        ).filter((row) => !seen.has(row.id))
      : [];
  return { page: 'requests', flow, q, submissions: [...byId, ...ofFiles].map(submissionItem), files: files.map(fileItem) };
}

export type TimelineEntry =
  | { type: 'recorded'; at: string | null; fileId: number | null; fileName: string | null; row: number | null }
  | {
      type: 'attempt';
      at: string | null;
      number: number;
      requestId: string;
      httpStatus: number | null;
      durationMs: number | null;
      outcome: string | null;
      error: string | null;
      /** The platform's answer: its problem details, or the accepted result. */
      answer: unknown;
    }
  | {
      type: 'outcome';
      at: string | null;
      state: SubmissionState;
      platformId: string | null;
      errorCode: string | null;
      /** The English sentence of the log and the acknowledgement. */
      message: string | null;
      status: number | null;
      /** The platform's last answer, parsed. */
      answer: unknown;
      attempts: number;
    }
  | { type: 'acknowledgement'; at: string | null; fileName: string | null; state: string; writtenAt: string | null; error: string | null }
  | { type: 'event'; at: string | null; eventId: string; eventType: string; status: string | null; eventDate: string; applied: boolean }
  | { type: 'action'; at: string | null; actor: string; action: string; result: string; detail: string | null; detail_text: string | null };

export interface SubmissionStory {
  id: number;
  kind: 'request' | 'confirmation';
  state: SubmissionState;
  attempts: number;
  platformId: string | null;
  orderId: string | null;
  idempotencyKey: string;
  nextAttemptAt: string | null;
  file: FileItem | null;
  sourceRow: number | null;
  /** The body exactly as sent, parsed. */
  payload: unknown;
  timeline: TimelineEntry[];
}

export interface RequestData {
  page: 'request';
  flow: string;
  externalId: string;
  /** Newest first; a request has one, an order may have several confirmations. */
  submissions: SubmissionStory[];
  /** The order's applied status, when the order is known (confirmations name it; a create answer names none). */
  order: { orderId: string; status: string | null; updatedAt: string | null } | null;
  /** What an operator may do now. */
  canRetry: boolean;
  audit: AuditItem[];
}

const STORY_ORDER: Record<TimelineEntry['type'], number> = { recorded: 0, action: 1, attempt: 2, outcome: 3, acknowledgement: 4, event: 5 };

const RETRYABLE = new Set<SubmissionState>(['rejected', 'held', 'dead']);
const FINAL = new Set<SubmissionState>(['accepted', 'rejected', 'held', 'dead']);

/** The request page's data, or null when the flow has no submission with this externalId. */
export function requestData(deps: ConsoleDeps, flow: string, externalId: string): RequestData | null {
  const rows = submissionsByExternalId(deps.db, flow, externalId);
  if (rows.length === 0) return null;
  const audit = listAuditOfTarget(deps.db, flow, externalId).map(auditItem);
  const orderId = rows.find((row) => row.order_id !== null)?.order_id ?? null;
  const orderStatus = orderId ? getOrderStatus(deps.db, orderId) : undefined;
  return {
    page: 'request',
    flow,
    externalId,
    submissions: rows.map((row) => story(deps, flow, row, audit)),
    order: orderId ? { orderId, status: orderStatus?.status ?? null, updatedAt: iso(orderStatus?.updated_at) } : null,
    canRetry: rows.some((row) => RETRYABLE.has(row.state)),
    audit,
  };
}

function story(deps: ConsoleDeps, flow: string, row: SubmissionRow, audit: readonly AuditItem[]): SubmissionStory {
  const file = row.file_id === null ? undefined : getFile(deps.db, row.file_id);
  const timeline: TimelineEntry[] = [
    { type: 'recorded', at: iso(row.created_at), fileId: row.file_id, fileName: file?.original_name ?? null, row: row.source_row },
  ];
  attemptsOf(deps.db, row.id).forEach((a, index) =>
    timeline.push({
      type: 'attempt',
      at: iso(a.startedAt),
      number: index + 1,
      requestId: a.requestId,
      httpStatus: a.httpStatus,
      durationMs: a.finishedAt === null ? null : a.finishedAt - a.startedAt,
      outcome: a.outcome,
      error: a.error,
      answer: parseJson(a.result),
    }),
  );
  if (FINAL.has(row.state)) {
    timeline.push({
      type: 'outcome',
      at: iso(row.finished_at ?? row.updated_at),
      state: row.state,
      platformId: row.platform_id,
      errorCode: row.last_error_code,
      message: row.last_error,
      status: row.last_status,
      answer: parseJson(row.result),
      attempts: row.attempts,
    });
  }
  for (const ack of acknowledgementsOf(deps.db, ackChannel(flow), row.id)) {
    timeline.push({
      type: 'acknowledgement',
      at: iso(ack.written_at ?? ack.created_at),
      fileName: ack.file_name,
      state: ack.state,
      writtenAt: iso(ack.written_at),
      error: ack.error,
    });
  }
  if (row.order_id) {
    for (const event of eventsOfOrder(deps.db, row.order_id)) {
      timeline.push({
        type: 'event',
        at: iso(event.receivedAt),
        eventId: event.eventId,
        eventType: event.eventType,
        status: event.status,
        eventDate: event.eventDate,
        applied: event.applied === 1,
      });
    }
  }
  for (const entry of audit)
    timeline.push({
      type: 'action',
      at: entry.at,
      actor: entry.actor,
      action: entry.action,
      result: entry.result,
      detail: entry.detail,
      detail_text: entry.detail_text,
    });
  // Within one millisecond the story's order holds: an operator's action comes before the attempt it caused.
  timeline.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '') || STORY_ORDER[a.type] - STORY_ORDER[b.type]);
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    attempts: row.attempts,
    platformId: row.platform_id,
    orderId: row.order_id,
    idempotencyKey: row.idempotency_key,
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    file: file ? fileRowItem(file) : null,
    sourceRow: row.source_row,
    payload: parseJson(row.payload),
    timeline,
  };
}
