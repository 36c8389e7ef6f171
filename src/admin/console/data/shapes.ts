/** Row shapes as the console's pages (and their JSON) show them: times as ISO 8601, JSON text parsed. */
import type { AuditEntry } from '../../../store/audit.js';
import type { EventListItem } from '../../../store/console-events.js';
import type { FileListItem } from '../../../store/console-files.js';
import type { SubmissionListItem } from '../../../store/console-submissions.js';
import type { FileRow } from '../../../store/files.js';
import { iso } from '../format.js';

export type SubmissionItem = Omit<SubmissionListItem, 'createdAt' | 'updatedAt'> & { createdAt: string | null; updatedAt: string | null };
export type FileItem = Omit<FileListItem, 'claimedAt' | 'finishedAt' | 'reportPending'> & {
  claimedAt: string | null;
  finishedAt: string | null;
  reportPending: boolean;
};
export type EventItem = Omit<EventListItem, 'receivedAt' | 'applied' | 'eventDateMs'> & { receivedAt: string | null; applied: boolean };
export type AuditItem = Omit<AuditEntry, 'at'> & { at: string | null };

export const submissionItem = (row: SubmissionListItem): SubmissionItem => ({ ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) });

export const fileItem = ({ reportPending, ...row }: FileListItem): FileItem => ({
  ...row,
  claimedAt: iso(row.claimedAt),
  finishedAt: iso(row.finishedAt),
  reportPending: reportPending === 1,
});

/** A whole `files` row, shown like a list item. */
export const fileRowItem = (row: FileRow): FileItem =>
  fileItem({
    id: row.id,
    flow: row.flow,
    originalName: row.original_name,
    sizeBytes: row.size_bytes,
    state: row.state,
    requestCount: row.request_count,
    problemCount: row.problem_count,
    claimedAt: row.claimed_at,
    finishedAt: row.finished_at,
    reportPending: row.report_pending,
  });

export const eventItem = ({ eventDateMs: _ms, applied, ...row }: EventListItem): EventItem => ({
  ...row,
  applied: applied === 1,
  receivedAt: iso(row.receivedAt),
});

export const auditItem = (row: AuditEntry): AuditItem => ({ ...row, at: iso(row.at) });

/** JSON text as a value; text that is not JSON is kept as text. */
export function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
