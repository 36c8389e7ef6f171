/** `/flows/<flow>/files` (taken, archived and rejected files) and `/flows/<flow>/files/<fileId>` (its problems, reports, requests). */
import { listAuditOfTarget } from '../../../store/audit.js';
import { listFilesOfFlow } from '../../../store/console-files.js';
import { type SubmissionListItem } from '../../../store/console-submissions.js';
import { FILE_STATE, getFile, readFileReport, type FileState } from '../../../store/files.js';
import { listSubmissionsOfFile } from '../../../store/submissions.js';
import type { MappingProblem, ReportNote } from '../../../shared/types.js';
import type { ConsoleDeps } from '../deps.js';
import { auditItem, fileItem, fileRowItem, submissionItem, type AuditItem, type FileItem, type SubmissionItem } from './shapes.js';

export const FILES_PAGE = 50;

export interface FilesData {
  page: 'files';
  flow: string;
  /** The state filter, when one was asked for. */
  state: FileState | null;
  files: FileItem[];
  /** `?before=` of the next (older) page, or null at the end. */
  nextBefore: number | null;
}

export function filesData(deps: ConsoleDeps, flow: string, state: string | undefined, before: string | undefined): FilesData {
  const filter = state && (Object.values(FILE_STATE) as string[]).includes(state) ? (state as FileState) : undefined;
  const beforeId = before && /^\d{1,15}$/.test(before) ? Number(before) : undefined;
  const rows = listFilesOfFlow(deps.db, flow, { state: filter, beforeId, limit: FILES_PAGE + 1 });
  const page = rows.slice(0, FILES_PAGE);
  return { page: 'files', flow, state: filter ?? null, files: page.map(fileItem), nextBefore: rows.length > FILES_PAGE ? page.at(-1)!.id : null };
}

export interface FileData {
  page: 'file';
  flow: string;
  file: FileItem & { sha256: string; path: string | null };
  /** The file's problems as its report lists them: row (and cell or line), field, code, message, value, externalId. */
  problems: (Omit<MappingProblem, 'externalId' | 'value' | 'column'> & { externalId: string | null; value: string | null; lineColumn: number | null })[];
  notes: ReportNote[];
  /** Submissions recorded (or last corrected) from it, in file order. */
  submissions: SubmissionItem[];
  /** Where to download the report, when it has problems. */
  reports: { json: string; csv: string } | null;
  canRetake: boolean;
  audit: AuditItem[];
}

/** The file page's data, or null when the flow has no such file. */
export function fileData(deps: ConsoleDeps, flow: string, fileId: number, base: string): FileData | null {
  const row = getFile(deps.db, fileId);
  if (!row || row.flow !== flow) return null;
  const report = readFileReport(row);
  const problems = (report?.problems ?? []).map(({ column, ...p }) => ({
    ...p,
    externalId: p.externalId ?? null,
    value: p.value ?? null,
    lineColumn: column ?? null,
  }));
  const submissions = listSubmissionsOfFile(deps.db, row.id).map((s): SubmissionListItem => ({
    id: s.id,
    flow: s.flow,
    kind: s.kind,
    externalId: s.external_id,
    orderId: s.order_id,
    platformId: s.platform_id,
    state: s.state,
    attempts: s.attempts,
    lastStatus: s.last_status,
    errorCode: s.last_error_code,
    message: s.last_error,
    result: s.result,
    fileId: s.file_id,
    sourceRow: s.source_row,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
  }));
  return {
    page: 'file',
    flow,
    file: { ...fileRowItem(row), sha256: row.sha256, path: row.current_path },
    problems,
    notes: report?.notes ?? [],
    submissions: submissions.map(submissionItem),
    reports: problems.length > 0 ? { json: `${base}/errors.json`, csv: `${base}/errors.csv` } : null,
    canRetake: row.state === 'rejected',
    audit: listAuditOfTarget(deps.db, flow, String(row.id)).map(auditItem),
  };
}
