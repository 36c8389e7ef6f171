/**
 * Queries on `document_notices` (migration 10): what a person must hear of a document, one open
 * notice per document and kind. Intake decides what to write (`intake/decide-document.ts`) and
 * these functions write it inside the transaction that records the file or its chunk; the console
 * lists the open ones on `/attention` and an operator marks one handled.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

export const NOTICE_KIND = {
  /** Changed in the source system after its request was sent: the platform has no update. */
  edited: 'edited',
  /** Withdrawn (unposted or deleted) in the source system after its request was sent: the platform has no cancel. */
  withdrawn: 'withdrawn',
  /** A problem kept it from being sent; it stays until the source system sends the document again. */
  problem: 'problem',
} as const;
export type NoticeKind = (typeof NOTICE_KIND)[keyof typeof NOTICE_KIND];

/** Why a notice was closed. */
export const NOTICE_RESOLUTION = {
  /** The document came again (a problem may now be fixed: the new version was judged afresh). */
  seenAgain: 'seen-again',
  /** The document came again with the content that was sent. */
  matchesSent: 'matches-sent',
  /** A withdrawn document was posted again. */
  postedAgain: 'posted-again',
  /** A later notice of the document says what stands now (an edit, then a withdrawal). */
  superseded: 'superseded',
  /** An operator marked it handled. */
  operator: 'operator',
} as const;
export type NoticeResolution = (typeof NOTICE_RESOLUTION)[keyof typeof NOTICE_RESOLUTION];

/** Open a notice, or bring the open one of the same document and kind up to date. */
export interface NoticeUpsert {
  op: 'upsert';
  documentId: string;
  kind: NoticeKind;
  submissionId: number | null;
  documentNumber: string | null;
  /** JSON, by kind (`intake/decide-document.ts`'s `NoticeDetail`). */
  detail: string;
}

/** Close the open notices of a document, of these kinds. */
export interface NoticeResolve {
  op: 'resolve';
  documentId: string;
  kinds: readonly NoticeKind[];
  resolution: NoticeResolution;
}

export type NoticeChange = NoticeUpsert | NoticeResolve;

/** Write `changes` in order (call inside the transaction that records the file or chunk they came from). */
export function applyNoticeChanges(db: Db, flow: string, fileId: number, now: number, changes: readonly NoticeChange[]): void {
  for (const change of changes) {
    if (change.op === 'resolve') {
      for (const kind of change.kinds) {
        statement(
          db,
          `UPDATE document_notices SET resolved_at = @now, resolution = @resolution, updated_at = @now
             WHERE flow = @flow AND document_id = @documentId AND kind = @kind AND resolved_at IS NULL`,
        ).run({ flow, documentId: change.documentId, kind, resolution: change.resolution, now });
      }
      continue;
    }
    statement(
      db,
      `INSERT INTO document_notices (flow, document_id, kind, submission_id, document_number, detail, file_id, created_at, updated_at)
         VALUES (@flow, @documentId, @kind, @submissionId, @documentNumber, @detail, @fileId, @now, @now)
         ON CONFLICT (flow, document_id, kind) WHERE resolved_at IS NULL
         DO UPDATE SET submission_id = excluded.submission_id, document_number = excluded.document_number, detail = excluded.detail,
                       file_id = excluded.file_id, updated_at = excluded.updated_at`,
    ).run({ flow, fileId, now, ...change });
  }
}

/** A notice as the console lists it. */
export interface DocumentNotice {
  id: number;
  flow: string;
  documentId: string;
  kind: NoticeKind;
  submissionId: number | null;
  documentNumber: string | null;
  detail: string;
  fileId: number | null;
  createdAt: number;
  updatedAt: number;
  resolvedAt: number | null;
  resolution: NoticeResolution | null;
  /** Of its submission, when it has one: what the platform knows it by. */
  externalId: string | null;
  platformId: string | null;
  state: string | null;
  /** The file it came in. */
  fileName: string | null;
}

const NOTICE_COLUMNS = `n.id, n.flow, n.document_id AS documentId, n.kind, n.submission_id AS submissionId, n.document_number AS documentNumber,
  n.detail, n.file_id AS fileId, n.created_at AS createdAt, n.updated_at AS updatedAt, n.resolved_at AS resolvedAt, n.resolution,
  s.external_id AS externalId, s.platform_id AS platformId, s.state, f.original_name AS fileName`;

/** A flow's open notices, newest first, at most `limit`, with how many there are. */
export function openNoticesOfFlow(db: Db, flow: string, limit: number): { total: number; rows: DocumentNotice[] } {
  const { n } = statement(db, 'SELECT COUNT(*) AS n FROM document_notices WHERE flow = ? AND resolved_at IS NULL').get(flow) as { n: number };
  if (n === 0 || limit <= 0) return { total: n, rows: [] };
  const rows = statement(
    db,
    `SELECT ${NOTICE_COLUMNS} FROM document_notices n
       LEFT JOIN submissions s ON s.id = n.submission_id LEFT JOIN files f ON f.id = n.file_id
       WHERE n.flow = ? AND n.resolved_at IS NULL ORDER BY n.updated_at DESC, n.id DESC LIMIT ?`,
  ).all(flow, limit) as DocumentNotice[];
  return { total: n, rows };
}

/** Every notice of one document, open ones first, newest first (the request's page). */
export function noticesOfDocument(db: Db, flow: string, documentId: string): DocumentNotice[] {
  return statement(
    db,
    `SELECT ${NOTICE_COLUMNS} FROM document_notices n
       LEFT JOIN submissions s ON s.id = n.submission_id LEFT JOIN files f ON f.id = n.file_id
       WHERE n.flow = ? AND n.document_id = ? ORDER BY n.resolved_at IS NOT NULL, n.updated_at DESC, n.id DESC LIMIT 50`,
  ).all(flow, documentId) as DocumentNotice[];
}

export function getNotice(db: Db, id: number): DocumentNotice | undefined {
  return statement(
    db,
    `SELECT ${NOTICE_COLUMNS} FROM document_notices n
       LEFT JOIN submissions s ON s.id = n.submission_id LEFT JOIN files f ON f.id = n.file_id WHERE n.id = ?`,
  ).get(id) as DocumentNotice | undefined;
}

/** An operator marks an open notice handled; false when it was not open. */
export function resolveNoticeById(db: Db, id: number, now: number): boolean {
  return (
    statement(db, `UPDATE document_notices SET resolved_at = ?, resolution = 'operator', updated_at = ? WHERE id = ? AND resolved_at IS NULL`).run(now, now, id)
      .changes === 1
  );
}

/** Delete notices resolved before `cutoffMs` (housekeeping). */
export function deleteResolvedNoticesBefore(db: Db, cutoffMs: number): number {
  return statement(db, 'DELETE FROM document_notices WHERE resolved_at IS NOT NULL AND resolved_at < ?').run(cutoffMs).changes;
}
