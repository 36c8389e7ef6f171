/**
 * Housekeeping deletes: finished submissions (with their attempts), resolved document notices and
 * finished files older than the retention. Pending, in-flight, held and staged rows are never
 * deleted, and neither is a file whose submissions or open notices are still kept (a file being
 * recorded is `processing`, never deleted). A document's request (`content_hash` set: a mapping
 * with `document.id`) is kept as long as the store: its source may send the document again at any
 * time, edited or withdrawn, and without the row it would become a second request.
 */
import type { Db } from './open-store.js';
import { statement, transact } from './statement.js';
import { deleteResolvedNoticesBefore } from './document-notices.js';

/**
 * Delete submissions in a final state (accepted, rejected, dead, withdrawn) finished before `cutoffMs`, except
 * a row that a file being recorded is about to correct (its correction is staged). Returns rows deleted.
 */
export function deleteFinishedSubmissionsBefore(db: Db, cutoffMs: number): number {
  return transact(db, () => {
    const finished = `state IN ('accepted', 'rejected', 'dead', 'withdrawn') AND finished_at IS NOT NULL AND finished_at < ? AND content_hash IS NULL
      AND id NOT IN (SELECT submission_id FROM staged_corrections)`;
    statement(db, `DELETE FROM submission_attempts WHERE submission_id IN (SELECT id FROM submissions WHERE ${finished})`).run(cutoffMs);
    return statement(db, `DELETE FROM submissions WHERE ${finished}`).run(cutoffMs).changes;
  });
}

/** Delete archived or rejected file rows finished before `cutoffMs` that no submission or notice points to (resolved notices that old go first). */
export function deleteFinishedFilesBefore(db: Db, cutoffMs: number): number {
  deleteResolvedNoticesBefore(db, cutoffMs);
  return statement(
    db,
    `DELETE FROM files WHERE state IN ('archived', 'rejected') AND finished_at IS NOT NULL AND finished_at < ?
         AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.file_id = files.id)
         AND NOT EXISTS (SELECT 1 FROM document_notices n WHERE n.file_id = files.id)`,
  ).run(cutoffMs).changes;
}
