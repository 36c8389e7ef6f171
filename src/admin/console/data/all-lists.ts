/**
 * `/requests` and `/files`: the lists across every flow, where an operator looks first (each row
 * names its flow; each flow's own page is one click away). The search asks each flow as its own page
 * does and puts exact matches first; the latest rows and the files come newest first across flows.
 */
import { listFilesOfFlows } from '../../../store/console-files.js';
import { latestSubmissionsOfFlows } from '../../../store/console-submissions.js';
import { FILE_STATE, type FileState } from '../../../store/files.js';
import type { ConsoleDeps } from '../deps.js';
import { FILES_PAGE } from './files.js';
import { SEARCH_LIMIT, searchData } from './requests.js';
import { fileItem, submissionItem, type FileItem, type SubmissionItem } from './shapes.js';

/** Files whose name matches a search, across flows (a flow's own search shows as many). */
const FILES_FOUND = 20;

export interface AllRequestsData {
  page: 'all-requests';
  /** The configured flows, each with its own page. */
  flows: string[];
  q: string;
  /** Matches in every flow (exact ones first), or the latest rows of every flow when q is empty; each names its flow. */
  submissions: SubmissionItem[];
  /** Files of any flow whose name contains q, newest first. */
  files: FileItem[];
}

export function allRequestsData(deps: ConsoleDeps, rawQ: string): AllRequestsData {
  const flows = deps.flows.map((flow) => flow.name);
  const q = rawQ.trim().slice(0, 200);
  if (q === '') return { page: 'all-requests', flows, q, submissions: latestSubmissionsOfFlows(deps.db, flows, SEARCH_LIMIT).map(submissionItem), files: [] };
  const found = flows.map((flow) => searchData(deps, flow, q));
  const exact = (row: SubmissionItem) => row.externalId === q || row.platformId === q || row.orderId === q;
  // A stable sort: exact matches of any flow first, the rest in each flow's own order, flow by flow.
  const submissions = found
    .flatMap((result) => result.submissions)
    .sort((a, b) => Number(exact(b)) - Number(exact(a)))
    .slice(0, SEARCH_LIMIT);
  const files = found
    .flatMap((result) => result.files)
    .sort((a, b) => b.id - a.id)
    .slice(0, FILES_FOUND);
  return { page: 'all-requests', flows, q, submissions, files };
}

export interface AllFilesData {
  page: 'all-files';
  flows: string[];
  /** The state filter, when one was asked for. */
  state: FileState | null;
  /** Newest first; each names its flow. */
  files: FileItem[];
  /** `?before=` of the next (older) page, or null at the end. */
  nextBefore: number | null;
}

export function allFilesData(deps: ConsoleDeps, state: string | undefined, before: string | undefined): AllFilesData {
  const flows = deps.flows.map((flow) => flow.name);
  const filter = state && (Object.values(FILE_STATE) as string[]).includes(state) ? (state as FileState) : undefined;
  const beforeId = before && /^\d{1,15}$/.test(before) ? Number(before) : undefined;
  const rows = listFilesOfFlows(deps.db, flows, { state: filter, beforeId, limit: FILES_PAGE + 1 });
  const page = rows.slice(0, FILES_PAGE);
  return {
    page: 'all-files',
    flows,
    state: filter ?? null,
    files: page.map(fileItem),
    nextBefore: rows.length > FILES_PAGE ? page.at(-1)!.id : null,
  };
}
