/**
 * Queries on `files`: one row per input file taken from a flow's inbox.
 *
 * A file is claimed by an INSERT against the UNIQUE (flow, sha256): the same content dropped twice
 * finds the earlier row instead of making a second one, never by a check-then-act. The row is the
 * truth about where the file is (`current_path`) and whether it was recorded (`state`): a crash
 * between recording and moving is finished on restart from the row alone.
 */
import type { Db } from './open-store.js';
import { statement, transact } from './statement.js';
import type { FileReport } from '../shared/types.js';

/** Life of a taken file. `processing` is the only state in which its submissions may still be recorded. */
export const FILE_STATE = {
  processing: 'processing',
  archived: 'archived',
  rejected: 'rejected',
} as const;
export type FileState = (typeof FILE_STATE)[keyof typeof FILE_STATE];

/** A file's row as the stages read it (camelCase: the column names stay in this module, `FILE_COLUMNS`). */
export interface FileRecord {
  id: number;
  flow: string;
  sha256: string;
  originalName: string;
  sizeBytes: number;
  state: FileState;
  currentPath: string | null;
  requestCount: number;
  problemCount: number;
  /** JSON text of the file's report (`readFileReport`). */
  report: string | null;
  claimedAt: number;
  finishedAt: number | null;
  /** 1 while the row's report must still be written beside its file (migration 2). */
  reportPending: number;
  /** Reads of the file begun while it was `processing` (migration 6): counted before each read. */
  readAttempts: number;
}

/** Every column of `files`, aliased to its `FileRecord` name: SQLite renames them, no mapping per row. */
const FILE_COLUMNS = `id, flow, sha256, original_name AS originalName, size_bytes AS sizeBytes, state, current_path AS currentPath,
  request_count AS requestCount, problem_count AS problemCount, report, claimed_at AS claimedAt, finished_at AS finishedAt,
  report_pending AS reportPending, read_attempts AS readAttempts`;

export interface NewFile {
  flow: string;
  sha256: string;
  originalName: string;
  sizeBytes: number;
  now: number;
}

export type ClaimResult = { ok: true; row: FileRecord } | { ok: false; existing: FileRecord };

/**
 * Claim a file by its content. The winner gets a `processing` row whose `current_path` is
 * `processingPathFor(row.id)`; a loser gets the earlier row (a duplicate, or its own crashed claim).
 * `readStarts`: the claimer reads the file right after, and its read is counted with the claim
 * (`countReadAttempt`), one commit instead of two.
 */
export function claimFile(db: Db, file: NewFile, processingPathFor: (id: number, name: string) => string, options: { readStarts?: boolean } = {}): ClaimResult {
  return claimFiles(db, [file], processingPathFor, options)[0]!;
}

/**
 * `claimFile` for several files in one transaction, in their order (their ids follow it), up to
 * the first that is not new: a scan claims the small files it hashed ahead with the one whose turn
 * it is, one commit for all, and a file met again is left to its own turn (a duplicate of a file
 * before it, decided there). The results are those of the files claimed, and of the one that
 * stopped it.
 */
export function claimFiles(
  db: Db,
  files: readonly NewFile[],
  processingPathFor: (id: number, name: string) => string,
  options: { readStarts?: boolean } = {},
): ClaimResult[] {
  return transact(db, () => {
    // The id SQLite would give the row (one above the largest; `files` has no AUTOINCREMENT), named
    // here so that the row is inserted with its processing path, which holds the id: one statement
    // a claim, not an insert and an update.
    let id = statement(db, 'SELECT coalesce(max(id), 0) + 1 FROM files').pluck().get() as number;
    const results: ClaimResult[] = [];
    for (const file of files) {
      const result = claimOne(db, id, file, processingPathFor(id, file.originalName), options.readStarts ? 1 : 0);
      results.push(result);
      if (!result.ok) break;
      id += 1;
    }
    return results;
  });
}

function claimOne(db: Db, id: number, file: NewFile, processingPath: string, readAttempts: number): ClaimResult {
  const row = statement(
    db,
    `INSERT INTO files (id, flow, sha256, original_name, size_bytes, state, current_path, claimed_at, read_attempts)
       VALUES (?, ?, ?, ?, ?, 'processing', ?, ?, ?) ON CONFLICT (flow, sha256) DO NOTHING RETURNING ${FILE_COLUMNS}`,
  ).get(id, file.flow, file.sha256, file.originalName, file.sizeBytes, processingPath, file.now, readAttempts) as FileRecord | undefined;
  return row ? { ok: true, row } : { ok: false, existing: findFileBySha256(db, file.flow, file.sha256)! };
}

/** Drop claims whose files never left the inbox (a scan stopped before their turn): nothing refers to a row before its file is recorded. */
export function unclaimFiles(db: Db, ids: readonly number[]): void {
  if (ids.length === 0) return;
  transact(db, () => {
    for (const id of ids) statement(db, `DELETE FROM files WHERE id = ? AND state = 'processing'`).run(id);
  });
}

/**
 * Take a rejected file's row back for the same content dropped again (after the mapping was fixed,
 * say). Only a `rejected` row can be reclaimed; returns the row, or undefined when it was not rejected.
 */
export function reclaimRejectedFile(db: Db, id: number, file: NewFile, processingPath: string): FileRecord | undefined {
  const info = statement(
    db,
    `UPDATE files SET state = 'processing', original_name = ?, size_bytes = ?, current_path = ?, request_count = 0,
              problem_count = 0, report = NULL, report_pending = 0, read_attempts = 0, claimed_at = ?, finished_at = NULL
       WHERE id = ? AND state = 'rejected'`,
  ).run(file.originalName, file.sizeBytes, processingPath, file.now, id);
  return info.changes === 1 ? getFile(db, id) : undefined;
}

/** Count a read of a `processing` file about to begin (committed before the read); returns the count. */
export function countReadAttempt(db: Db, id: number): number {
  const row = statement(db, `UPDATE files SET read_attempts = read_attempts + 1 WHERE id = ? AND state = 'processing' RETURNING read_attempts`).get(id) as
    { read_attempts: number } | undefined;
  return row?.read_attempts ?? 0;
}

/** Take back a read counted by `countReadAttempt` or a claim: the read failed in this process, it did not stop the daemon. */
export function uncountReadAttempt(db: Db, id: number): void {
  statement(db, `UPDATE files SET read_attempts = read_attempts - 1 WHERE id = ? AND state = 'processing' AND read_attempts > 0`).run(id);
}

/**
 * Point a `processing` row at a new path inside `processing/`: a claim whose file never reached it
 * (a crash between the claim and the rename), adopted again. Such a file was never read (a read
 * starts in `processing/`), so its read count starts again at the read that follows.
 */
export function adoptClaim(db: Db, id: number, currentPath: string, originalName: string): void {
  statement(db, `UPDATE files SET current_path = ?, original_name = ?, read_attempts = 1 WHERE id = ? AND state = 'processing'`).run(
    currentPath,
    originalName,
    id,
  );
}

export interface FileOutcome {
  state: Exclude<FileState, 'processing'>;
  currentPath: string;
  requestCount: number;
  problemCount: number;
  report: FileReport | null;
  /** The report is to be written beside the file: the row stays `report_pending` until `markReportWritten`. */
  reportPending: boolean;
  now: number;
}

/** Record where a processed file goes and what came of it. Call inside the recording transaction. */
export function finishFile(db: Db, id: number, outcome: FileOutcome): void {
  statement(
    db,
    `UPDATE files SET state = ?, current_path = ?, request_count = ?, problem_count = ?, report = ?, report_pending = ?, finished_at = ?
     WHERE id = ?`,
  ).run(
    outcome.state,
    outcome.currentPath,
    outcome.requestCount,
    outcome.problemCount,
    outcome.report === null ? null : JSON.stringify(outcome.report),
    outcome.reportPending ? 1 : 0,
    outcome.now,
    id,
  );
}

/** `row` as `finishFile(db, row.id, outcome)` leaves it. */
export function finishedRow(row: FileRecord, outcome: FileOutcome): FileRecord {
  return {
    ...row,
    state: outcome.state,
    currentPath: outcome.currentPath,
    requestCount: outcome.requestCount,
    problemCount: outcome.problemCount,
    report: outcome.report === null ? null : JSON.stringify(outcome.report),
    reportPending: outcome.reportPending ? 1 : 0,
    finishedAt: outcome.now,
  };
}

/** Both report files of a row are on disk: stop writing them again. */
export function markReportWritten(db: Db, id: number): void {
  statement(db, 'UPDATE files SET report_pending = 0 WHERE id = ?').run(id);
}

/** A flow's recorded files whose report is still to be written, oldest first. */
export function listFilesWithPendingReport(db: Db, flow: string): FileRecord[] {
  return statement(db, `SELECT ${FILE_COLUMNS} FROM files WHERE report_pending = 1 AND flow = ? AND state != 'processing' ORDER BY id`).all(
    flow,
  ) as FileRecord[];
}

export function getFile(db: Db, id: number): FileRecord | undefined {
  return statement(db, `SELECT ${FILE_COLUMNS} FROM files WHERE id = ?`).get(id) as FileRecord | undefined;
}

export function findFileBySha256(db: Db, flow: string, sha256: string): FileRecord | undefined {
  return statement(db, `SELECT ${FILE_COLUMNS} FROM files WHERE flow = ? AND sha256 = ?`).get(flow, sha256) as FileRecord | undefined;
}

/** A flow's files in one state, oldest claim first. */
export function listFilesInState(db: Db, flow: string, state: FileState): FileRecord[] {
  return statement(db, `SELECT ${FILE_COLUMNS} FROM files WHERE flow = ? AND state = ? ORDER BY claimed_at, id`).all(flow, state) as FileRecord[];
}

/** A flow's files, newest first (for `status` and tests). */
export function listFiles(db: Db, flow: string, limit = 100): FileRecord[] {
  return statement(db, `SELECT ${FILE_COLUMNS} FROM files WHERE flow = ? ORDER BY id DESC LIMIT ?`).all(flow, limit) as FileRecord[];
}

/** The parsed report of a file row, when it has one. */
export function readFileReport(row: Pick<FileRecord, 'report'>): FileReport | null {
  return row.report === null ? null : (JSON.parse(row.report) as FileReport);
}
