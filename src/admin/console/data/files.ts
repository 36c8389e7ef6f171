/** `/flows/<flow>/files` (taken, archived and rejected files) and `/flows/<flow>/files/<fileId>` (its problems, reports, requests). */
import { listAuditOfTarget } from '../../../store/audit.js';
import { fileDetail, listFilesOfFlow } from '../../../store/console-files.js';
import { submissionsOfFile } from '../../../store/console-submissions.js';
import { FILE_STATE, readFileReport, type FileState } from '../../../store/files.js';
import type { MappingProblem, ReportNote, RowNumbering } from '../../../shared/types.js';
import type { ConsoleDeps } from '../deps.js';
import { setAsideFilesOfFlow } from '../../../store/set-aside-files.js';
import {
  auditItem,
  fileItem,
  fileDetailItem,
  setAsideItem,
  submissionItem,
  type AuditItem,
  type FileItem,
  type SetAsideItem,
  type SubmissionItem,
} from './shapes.js';

export const FILES_PAGE = 50;

export interface FilesData {
  page: 'files';
  flow: string;
  /** The state filter, when one was asked for. */
  state: FileState | null;
  files: FileItem[];
  /** `?before=` of the next (older) page, or null at the end. */
  nextBefore: number | null;
  /**
   * Files set aside in `rejected/` before they were taken (FILE_EMPTY, FILE_DUPLICATE, …), newest
   * first, with their codes: on the first page, unless another state is asked for.
   */
  setAside: { total: number; rows: SetAsideItem[] };
}

export function filesData(deps: ConsoleDeps, flow: string, state: string | undefined, before: string | undefined): FilesData {
  const filter = state && (Object.values(FILE_STATE) as string[]).includes(state) ? (state as FileState) : undefined;
  const beforeId = before && /^\d{1,15}$/.test(before) ? Number(before) : undefined;
  const rows = listFilesOfFlow(deps.db, flow, { state: filter, beforeId, limit: FILES_PAGE + 1 });
  const page = rows.slice(0, FILES_PAGE);
  const listed =
    beforeId === undefined && (filter === undefined || filter === FILE_STATE.rejected)
      ? setAsideFilesOfFlow(deps.db, flow, FILES_PAGE)
      : { total: 0, rows: [] };
  return {
    page: 'files',
    flow,
    state: filter ?? null,
    files: page.map(fileItem),
    nextBefore: rows.length > FILES_PAGE ? page.at(-1)!.id : null,
    setAside: { total: listed.total, rows: listed.rows.map(setAsideItem) },
  };
}

export interface FileData {
  page: 'file';
  flow: string;
  file: FileItem & { sha256: string; path: string | null };
  /** The file's problems as its report lists them: row (and cell or line), field, code, message, value, externalId. */
  problems: (Omit<MappingProblem, 'externalId' | 'value' | 'column'> & { externalId: string | null; value: string | null; lineColumn: number | null })[];
  notes: ReportNote[];
  /** How the problems number rows (a CSV's lines, Excel's rows, records); null when the report does not say. */
  rows: RowNumbering | null;
  /** Submissions recorded (or last corrected) from it, in file order. */
  submissions: SubmissionItem[];
  /** Where to download the report, when it has problems. */
  reports: { json: string; csv: string } | null;
  canRetake: boolean;
  audit: AuditItem[];
}

/** The file page's data, or null when the flow has no such file. */
export function fileData(deps: ConsoleDeps, flow: string, fileId: number, base: string): FileData | null {
  const row = fileDetail(deps.db, fileId);
  if (!row || row.flow !== flow) return null;
  const report = readFileReport(row);
  const problems = (report?.problems ?? []).map(({ column, ...p }) => ({
    ...p,
    externalId: p.externalId ?? null,
    value: p.value ?? null,
    lineColumn: column ?? null,
  }));
  const submissions = submissionsOfFile(deps.db, row.id);
  return {
    page: 'file',
    flow,
    file: { ...fileDetailItem(row), sha256: row.sha256, path: row.currentPath },
    problems,
    notes: report?.notes ?? [],
    rows: report?.rows ?? null,
    submissions: submissions.map(submissionItem),
    reports: problems.length > 0 ? { json: `${base}/errors.json`, csv: `${base}/errors.csv` } : null,
    canRetake: row.state === 'rejected',
    audit: listAuditOfTarget(deps.db, flow, String(row.id)).map(auditItem),
  };
}
