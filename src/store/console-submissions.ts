/**
 * Read queries of the operator console on `submissions`, `submission_attempts` and the
 * acknowledgement rows of `exports`: a flow's last error, searches, one request's story. Each
 * walks an index (migration 5), so a page stays fast with 100,000 rows in the store.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import { EXPORT_ITEM_COLUMNS, type ExportListItem } from './console-events.js';
import type { SubmissionState } from './submissions.js';

/** A submission as lists show it. */
export interface SubmissionListItem {
  id: number;
  flow: string;
  kind: 'request' | 'confirmation';
  externalId: string;
  orderId: string | null;
  platformId: string | null;
  state: SubmissionState;
  attempts: number;
  lastStatus: number | null;
  errorCode: string | null;
  message: string | null;
  /** The platform's last answer (JSON text): its problem details, or the accepted result. */
  result: string | null;
  fileId: number | null;
  sourceRow: number | null;
  createdAt: number;
  updatedAt: number;
  /** A document's request (a mapping with `document.id`): its identity in its source, and the number the buyer sees now. */
  documentId: string | null;
  documentNumber: string | null;
}

const ITEM_COLUMNS = `id, flow, kind, external_id AS externalId, order_id AS orderId, platform_id AS platformId, state, attempts,
  last_status AS lastStatus, last_error_code AS errorCode, last_error AS message, result, file_id AS fileId, source_row AS sourceRow,
  created_at AS createdAt, updated_at AS updatedAt, CASE WHEN content_hash IS NOT NULL THEN dedupe_key END AS documentId,
  document_number AS documentNumber`;

/** The most recently updated row of a flow that carries an error, if any. */
export function lastErrorOfFlow(db: Db, flow: string): SubmissionListItem | undefined {
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE flow = ? AND last_error_code IS NOT NULL ORDER BY updated_at DESC LIMIT 1`).get(flow) as
    SubmissionListItem | undefined;
}

/** The highest code point: `q` followed by it bounds every text that starts with `q` (SQLite compares UTF-8 bytes). */
const AFTER_PREFIX = '\u{10FFFF}';

/**
 * A flow's rows whose externalId, platform id, order id or document number starts with `q` (exact
 * matches sort first), at most `limit`. Four index range scans; file names are searched in
 * `console-files.ts`.
 */
export function searchSubmissions(db: Db, flow: string, q: string, limit: number): SubmissionListItem[] {
  const range = { flow, q, end: q + AFTER_PREFIX, limit };
  const found = new Map<number, SubmissionListItem>();
  const add = (rows: SubmissionListItem[]) => rows.forEach((row) => found.set(row.id, row));
  add(
    statement(
      db,
      `SELECT ${ITEM_COLUMNS} FROM submissions WHERE flow = @flow AND external_id >= @q AND external_id < @end ORDER BY external_id LIMIT @limit`,
    ).all(range) as SubmissionListItem[],
  );
  add(
    statement(
      db,
      `SELECT ${ITEM_COLUMNS} FROM submissions WHERE platform_id >= @q AND platform_id < @end AND flow = @flow ORDER BY platform_id LIMIT @limit`,
    ).all(range) as SubmissionListItem[],
  );
  add(
    statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE order_id >= @q AND order_id < @end AND flow = @flow ORDER BY order_id LIMIT @limit`).all(
      range,
    ) as SubmissionListItem[],
  );
  // A document renumbered after it was sent is found by the number the buyer sees now, too.
  add(
    statement(
      db,
      `SELECT ${ITEM_COLUMNS} FROM submissions WHERE flow = @flow AND document_number >= @q AND document_number < @end ORDER BY document_number LIMIT @limit`,
    ).all(range) as SubmissionListItem[],
  );
  const exact = (row: SubmissionListItem) => row.externalId === q || row.platformId === q || row.orderId === q || row.documentNumber === q;
  return [...found.values()].sort((a, b) => Number(exact(b)) - Number(exact(a)) || a.externalId.localeCompare(b.externalId) || a.id - b.id).slice(0, limit);
}

/** A flow's latest rows, newest first. */
export function latestSubmissions(db: Db, flow: string, limit: number): SubmissionListItem[] {
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE flow = ? ORDER BY id DESC LIMIT ?`).all(flow, limit) as SubmissionListItem[];
}

/** Rows of the given files (the file-name search), in file order. */
export function submissionsOfFiles(db: Db, fileIds: readonly number[], limit: number): SubmissionListItem[] {
  return statement(
    db,
    `SELECT ${ITEM_COLUMNS} FROM submissions WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY file_id DESC, source_row, id LIMIT ?`,
  ).all(JSON.stringify(fileIds), limit) as SubmissionListItem[];
}

/** Submissions recorded (or last corrected) from one file, in file order. */
export function submissionsOfFile(db: Db, fileId: number): SubmissionListItem[] {
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE file_id = ? ORDER BY source_row, id`).all(fileId) as SubmissionListItem[];
}

/** A submission as the request page tells its story: a list item, with its payload, key and times. */
export interface SubmissionDetail extends SubmissionListItem {
  idempotencyKey: string;
  /** JSON text of the payload sent. */
  payload: string;
  nextAttemptAt: number;
  finishedAt: number | null;
}

const DETAIL_COLUMNS = `${ITEM_COLUMNS}, idempotency_key AS idempotencyKey, payload, next_attempt_at AS nextAttemptAt, finished_at AS finishedAt`;

/** Every row of a flow with this externalId (a request has one; an order may have several confirmations), newest first. */
export function submissionsByExternalId(db: Db, flow: string, externalId: string): SubmissionDetail[] {
  return statement(db, `SELECT ${DETAIL_COLUMNS} FROM submissions WHERE flow = ? AND external_id = ? ORDER BY id DESC`).all(
    flow,
    externalId,
  ) as SubmissionDetail[];
}

/** The rows that name an order (confirmations), newest first. */
export function submissionsOfOrder(db: Db, orderId: string, limit = 50): SubmissionListItem[] {
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE order_id = ? ORDER BY id DESC LIMIT ?`).all(orderId, limit) as SubmissionListItem[];
}

/** Rows of a flow in one state, most recently updated first, and how many there are in all. */
export function submissionsInState(db: Db, flow: string, state: SubmissionState, limit: number): { total: number; rows: SubmissionListItem[] } {
  const total = (statement(db, 'SELECT count(*) AS n FROM submissions WHERE flow = ? AND state = ?').get(flow, state) as { n: number }).n;
  const rows = statement(db, `SELECT ${ITEM_COLUMNS} FROM submissions WHERE flow = ? AND state = ? ORDER BY updated_at DESC, id DESC LIMIT ?`).all(
    flow,
    state,
    limit,
  ) as SubmissionListItem[];
  return { total, rows };
}

/** One attempt as the timeline shows it. */
export interface AttemptRow {
  id: number;
  requestId: string;
  startedAt: number;
  finishedAt: number | null;
  httpStatus: number | null;
  outcome: string | null;
  error: string | null;
  /** The platform's answer (JSON text), from migration 5 on. */
  result: string | null;
}

/** Attempts of one row, oldest first. */
export function attemptsOf(db: Db, submissionId: number): AttemptRow[] {
  return statement(
    db,
    `SELECT id, request_id AS requestId, started_at AS startedAt, finished_at AS finishedAt, http_status AS httpStatus, outcome, error, result
       FROM submission_attempts WHERE submission_id = ? ORDER BY id`,
  ).all(submissionId) as AttemptRow[];
}

/**
 * The acknowledgement rows of one submission in its channel (`ack:<flow>`): their source key is
 * `<submission id>:<state>:<X-Request-Id of the deciding attempt>`, so a key range finds them on the (channel, source_key) index.
 */
export function acknowledgementsOf(db: Db, channel: string, submissionId: number): ExportListItem[] {
  // ';' follows ':' in ASCII: every key that starts with "<id>:" lies in [<id>:, <id>;).
  return statement(db, `SELECT ${EXPORT_ITEM_COLUMNS} FROM exports WHERE channel = ? AND source_key >= ? AND source_key < ? ORDER BY id`).all(
    channel,
    `${submissionId}:`,
    `${submissionId};`,
  ) as ExportListItem[];
}

/** The SQL of `latestSubmissionsOfFlows` (its query plan is tested). */
export const LATEST_OF_FLOWS_SQL = `SELECT ${ITEM_COLUMNS} FROM submissions WHERE +flow IN (SELECT value FROM json_each(@flows)) ORDER BY id DESC LIMIT @limit`;

/**
 * The latest rows of the given flows together, newest first (the console's `/requests`). The walk
 * goes down the primary key and stops after `limit` rows of those flows: `+flow` keeps SQLite off
 * the (flow, external_id) index, which would sort every row of the flows to find the newest.
 */
export function latestSubmissionsOfFlows(db: Db, flows: readonly string[], limit: number): SubmissionListItem[] {
  return statement(db, LATEST_OF_FLOWS_SQL).all({ flows: JSON.stringify(flows), limit }) as SubmissionListItem[];
}
