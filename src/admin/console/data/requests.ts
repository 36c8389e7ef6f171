/**
 * `/flows/<flow>/requests?q=` (search) and `/flows/<flow>/requests/<externalId>` (one request's
 * whole story as a timeline: its file and row, when it was recorded, each attempt with its
 * X-Request-Id and the platform's answer, the outcome, the acknowledgement file, its order's
 * events, and the operator's actions on it).
 */
import { listAuditOfTarget } from '../../../store/audit.js';
import { eventsOfOrder, orderStatusOf } from '../../../store/console-events.js';
import { fileDetail, searchFilesByName } from '../../../store/console-files.js';
import {
  acknowledgementsOf,
  attemptsOf,
  latestSubmissions,
  searchSubmissions,
  submissionsByExternalId,
  submissionsOfFiles,
  type SubmissionDetail,
} from '../../../store/console-submissions.js';
import { ackChannel } from '../../../store/exports.js';
import type { SubmissionState } from '../../../store/submissions.js';
import type { ConsoleDeps } from '../deps.js';
import { iso } from '../format.js';
import { noticesOfDocument } from '../../../store/document-notices.js';
import { noticeItem, type NoticeItem } from './notices.js';
import { auditItem, fileItem, fileDetailItem, parseJson, submissionItem, type AuditItem, type FileItem, type SubmissionItem } from './shapes.js';

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
  /** A document's request: its identity and the number its buyer sees now; null for a request without one. */
  document: { id: string; number: string | null } | null;
  /** What happened to the document after it was sent (changed, withdrawn), open ones first. */
  notices: NoticeItem[];
}

const STORY_ORDER: Record<TimelineEntry['type'], number> = { recorded: 0, action: 1, attempt: 2, outcome: 3, acknowledgement: 4, event: 5 };

const RETRYABLE = new Set<SubmissionState>(['rejected', 'held', 'dead']);
const FINAL = new Set<SubmissionState>(['accepted', 'rejected', 'held', 'dead', 'withdrawn']);

/** The request page's data, or null when the flow has no submission with this externalId. */
export function requestData(deps: ConsoleDeps, flow: string, externalId: string): RequestData | null {
  const rows = submissionsByExternalId(deps.db, flow, externalId);
  if (rows.length === 0) return null;
  const audit = listAuditOfTarget(deps.db, flow, externalId).map(auditItem);
  const orderId = rows.find((row) => row.orderId !== null)?.orderId ?? null;
  const orderStatus = orderId ? orderStatusOf(deps.db, orderId) : undefined;
  const documentOf = rows.find((row) => row.documentId !== null);
  const document = documentOf ? { id: documentOf.documentId!, number: documentOf.documentNumber } : null;
  return {
    page: 'request',
    flow,
    externalId,
    submissions: rows.map((row) => story(deps, flow, row, audit)),
    order: orderId ? { orderId, status: orderStatus?.status ?? null, updatedAt: iso(orderStatus?.updatedAt) } : null,
    canRetry: rows.some((row) => RETRYABLE.has(row.state)),
    audit,
    document,
    notices: document ? noticesOfDocument(deps.db, flow, document.id).map(noticeItem) : [],
  };
}

function story(deps: ConsoleDeps, flow: string, row: SubmissionDetail, audit: readonly AuditItem[]): SubmissionStory {
  const file = row.fileId === null ? undefined : fileDetail(deps.db, row.fileId);
  const timeline: TimelineEntry[] = [
    { type: 'recorded', at: iso(row.createdAt), fileId: row.fileId, fileName: file?.originalName ?? null, row: row.sourceRow },
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
      at: iso(row.finishedAt ?? row.updatedAt),
      state: row.state,
      platformId: row.platformId,
      errorCode: row.errorCode,
      message: row.message,
      status: row.lastStatus,
      answer: parseJson(row.result),
      attempts: row.attempts,
    });
  }
  for (const ack of acknowledgementsOf(deps.db, ackChannel(flow), row.id)) {
    timeline.push({
      type: 'acknowledgement',
      at: iso(ack.writtenAt ?? ack.createdAt),
      fileName: ack.fileName,
      state: ack.state,
      writtenAt: iso(ack.writtenAt),
      error: ack.error,
    });
  }
  if (row.orderId) {
    for (const event of eventsOfOrder(deps.db, row.orderId)) {
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
    platformId: row.platformId,
    orderId: row.orderId,
    idempotencyKey: row.idempotencyKey,
    nextAttemptAt: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    file: file ? fileDetailItem(file) : null,
    sourceRow: row.sourceRow,
    payload: parseJson(row.payload),
    timeline,
  };
}
