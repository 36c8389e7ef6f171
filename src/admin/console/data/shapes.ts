/** Row shapes as the console's pages (and their JSON) show them: times as ISO 8601, JSON text parsed. */
import type { AuditEntry } from '../../../store/audit.js';
import type { EventListItem } from '../../../store/console-events.js';
import type { FileDetail, FileListItem } from '../../../store/console-files.js';
import type { SubmissionListItem } from '../../../store/console-submissions.js';
import type { SetAsideFile } from '../../../store/set-aside-files.js';
import { iso } from '../format.js';

export type SubmissionItem = Omit<SubmissionListItem, 'createdAt' | 'updatedAt'> & { createdAt: string | null; updatedAt: string | null };
export type FileItem = Omit<FileListItem, 'claimedAt' | 'finishedAt' | 'reportPending'> & {
  claimedAt: string | null;
  finishedAt: string | null;
  reportPending: boolean;
};
export type EventItem = Omit<EventListItem, 'receivedAt' | 'applied' | 'eventDateMs'> & { receivedAt: string | null; applied: boolean };
/** An audit entry as the console's JSON shows it: `detail_text` keeps its name there. */
export type AuditItem = Omit<AuditEntry, 'at' | 'detailText'> & { at: string | null; detail_text: string | null };

export const submissionItem = (row: SubmissionListItem): SubmissionItem => ({ ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) });

export const fileItem = ({ reportPending, ...row }: FileListItem): FileItem => ({
  ...row,
  claimedAt: iso(row.claimedAt),
  finishedAt: iso(row.finishedAt),
  reportPending: reportPending === 1,
});

/** A file's page data, shown like a list item. */
export const fileDetailItem = ({ sha256: _sha256, currentPath: _path, report: _report, ...item }: FileDetail): FileItem => fileItem(item);

/** A file set aside before it was claimed (FILE_EMPTY, FILE_DUPLICATE, …), as lists show it. */
export type SetAsideItem = Omit<SetAsideFile, 'setAsideAt' | 'flow'> & { setAsideAt: string | null };

export const setAsideItem = ({ setAsideAt, flow: _flow, ...row }: SetAsideFile): SetAsideItem => ({ ...row, setAsideAt: iso(setAsideAt) });

export const eventItem = ({ eventDateMs: _ms, applied, ...row }: EventListItem): EventItem => ({
  ...row,
  applied: applied === 1,
  receivedAt: iso(row.receivedAt),
});

export const auditItem = ({ detailText, ...row }: AuditEntry): AuditItem => ({ ...row, at: iso(row.at), detail_text: detailText });

/** JSON text as a value; text that is not JSON is kept as text. */
export function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
