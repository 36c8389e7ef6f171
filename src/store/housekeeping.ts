/**
 * Housekeeping deletes: finished submissions (with their attempts) and finished files older than
 * the retention. Pending, in-flight, held and staged rows are never deleted, and neither is a file
 * whose submissions are still kept (a file being recorded is `processing`, never deleted).
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/**
 * Delete submissions in a final state (accepted, rejected, dead) finished before `cutoffMs`, except
 * a row that a file being recorded is about to correct (its correction is staged). Returns rows deleted.
 */
export function deleteFinishedSubmissionsBefore(db: Db, cutoffMs: number): number {
  return db.transaction(() => {
    const finished = `state IN ('accepted', 'rejected', 'dead') AND finished_at IS NOT NULL AND finished_at < ?
      AND id NOT IN (SELECT submission_id FROM staged_corrections)`;
    statement(db, `DELETE FROM submission_attempts WHERE submission_id IN (SELECT id FROM submissions WHERE ${finished})`).run(cutoffMs);
    return statement(db, `DELETE FROM submissions WHERE ${finished}`).run(cutoffMs).changes;
  })();
}

/** Delete archived or rejected file rows finished before `cutoffMs` that no submission points to. */
export function deleteFinishedFilesBefore(db: Db, cutoffMs: number): number {
  return statement(
    db,
    `DELETE FROM files WHERE state IN ('archived', 'rejected') AND finished_at IS NOT NULL AND finished_at < ?
         AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.file_id = files.id)`,
  ).run(cutoffMs).changes;
}
