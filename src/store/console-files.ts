/** Read queries of the operator console on `files`: today's counts, a flow's list, a name search, rejected files. */
import type { Db } from './open-store.js';
import { statement } from './statement.js';
import type { FileState } from './files.js';

/** A file as lists show it (its report is read with `fileDetail`). */
export interface FileListItem {
  id: number;
  flow: string;
  originalName: string;
  sizeBytes: number;
  state: FileState;
  requestCount: number;
  problemCount: number;
  claimedAt: number;
  finishedAt: number | null;
  reportPending: number;
}

const ITEM_COLUMNS = `id, flow, original_name AS originalName, size_bytes AS sizeBytes, state, request_count AS requestCount,
  problem_count AS problemCount, claimed_at AS claimedAt, finished_at AS finishedAt, report_pending AS reportPending`;

/** A flow's files taken since `since` (epoch ms), counted by state. */
export function countFilesSince(db: Db, flow: string, since: number): { state: FileState; count: number }[] {
  return statement(db, 'SELECT state, count(*) AS count FROM files WHERE flow = ? AND claimed_at >= ? GROUP BY state ORDER BY state').all(flow, since) as {
    state: FileState;
    count: number;
  }[];
}

/** A flow's files, newest first, optionally in one state, before id `beforeId` (paging). */
export function listFilesOfFlow(
  db: Db,
  flow: string,
  options: { state?: FileState | undefined; beforeId?: number | undefined; limit: number },
): FileListItem[] {
  return statement(
    db,
    `SELECT ${ITEM_COLUMNS} FROM files WHERE flow = @flow AND (@state IS NULL OR state = @state) AND id < @beforeId ORDER BY id DESC LIMIT @limit`,
  ).all({ flow, state: options.state ?? null, beforeId: options.beforeId ?? Number.MAX_SAFE_INTEGER, limit: options.limit }) as FileListItem[];
}

/** A flow's files whose name contains `q` (case-insensitive for ASCII), newest first. */
export function searchFilesByName(db: Db, flow: string, q: string, limit: number): FileListItem[] {
  const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return statement(db, `SELECT ${ITEM_COLUMNS} FROM files WHERE flow = ? AND original_name LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?`).all(
    flow,
    pattern,
    limit,
  ) as FileListItem[];
}

/** A rejected file, with the code of the first problem its report lists (file-level problems come first). */
export interface RejectedFileItem extends FileListItem {
  problemCode: string | null;
}

/** Rejected files of a flow, newest first, and how many there are in all. */
export function rejectedFilesOfFlow(db: Db, flow: string, limit: number): { total: number; rows: RejectedFileItem[] } {
  const total = (statement(db, "SELECT count(*) AS n FROM files WHERE flow = ? AND state = 'rejected'").get(flow) as { n: number }).n;
  const rows = statement(
    db,
    `SELECT ${ITEM_COLUMNS}, json_extract(report, '$.problems[0].code') AS problemCode FROM files WHERE flow = ? AND state = 'rejected' ORDER BY id DESC LIMIT ?`,
  ).all(flow, limit) as RejectedFileItem[];
  return { total, rows };
}

/** A flow's files whose error report still waits to be written (REPORT_WRITE_FAILED). */
export function countFilesWithPendingReport(db: Db, flow: string): number {
  return (statement(db, 'SELECT count(*) AS n FROM files WHERE report_pending = 1 AND flow = ?').get(flow) as { n: number }).n;
}

const IN_FLOWS = '+flow IN (SELECT value FROM json_each(@flows))';

/** The SQL of `listFilesOfFlows`, without and with a state (their query plans are tested). */
export const FILES_OF_FLOWS_SQL = {
  any: `SELECT ${ITEM_COLUMNS} FROM files WHERE id < @beforeId AND ${IN_FLOWS} ORDER BY id DESC LIMIT @limit`,
  inState: `SELECT ${ITEM_COLUMNS} FROM files WHERE state = @state AND id < @beforeId AND ${IN_FLOWS} ORDER BY id DESC LIMIT @limit`,
} as const;

/**
 * The files of the given flows together, newest first, optionally in one state, before id
 * `beforeId` (the console's `/files`). Without a state the walk goes down the primary key; with one,
 * down `files_state` (whose entries end with the id): either way no sort, and it stops after `limit`
 * files of those flows. `+flow` keeps SQLite off the (flow, claimed_at) index, which would sort.
 */
export function listFilesOfFlows(
  db: Db,
  flows: readonly string[],
  options: { state?: FileState | undefined; beforeId?: number | undefined; limit: number },
): FileListItem[] {
  const params = { flows: JSON.stringify(flows), beforeId: options.beforeId ?? Number.MAX_SAFE_INTEGER, limit: options.limit };
  return (
    options.state === undefined
      ? statement(db, FILES_OF_FLOWS_SQL.any).all(params)
      : statement(db, FILES_OF_FLOWS_SQL.inState).all({ ...params, state: options.state })
  ) as FileListItem[];
}

/** One file as its page shows it: a list item, with its hash, where it is now, and its report (JSON text, read with `readFileReport`). */
export interface FileDetail extends FileListItem {
  sha256: string;
  currentPath: string | null;
  report: string | null;
}

export function fileDetail(db: Db, id: number): FileDetail | undefined {
  return statement(db, `SELECT ${ITEM_COLUMNS}, sha256, current_path AS currentPath, report FROM files WHERE id = ?`).get(id) as FileDetail | undefined;
}
