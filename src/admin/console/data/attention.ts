/**
 * `/attention`: everything that waits for a person: flows paused (token refused) or with the
 * circuit open, held, dead-lettered and rejected submissions, rejected files (those set aside
 * before they were taken too: empty, an exact re-copy, …), reports not yet
 * written, an exchange's messages for other codes and 1C's settings that share no version with it
 * (`exchange-problems.ts`), export rows set aside, and documents their source changed or withdrew
 * after they were sent, or that a problem kept from being sent (document notices). Each row
 * carries its error code or its kind; the page says what to do about each.
 */
import { listAuditOfTarget } from '../../../store/audit.js';
import { setAsideExports } from '../../../store/console-events.js';
import { countFilesWithPendingReport, rejectedFilesOfFlow } from '../../../store/console-files.js';
import { submissionsInState } from '../../../store/console-submissions.js';
import { openNoticesOfFlow } from '../../../store/document-notices.js';
import { noticeItem, type NoticeItem } from './notices.js';
import { exchangeStateOf } from '../../../store/exchanges.js';
import type { ConsoleDeps, FlowGateView } from '../deps.js';
import { iso } from '../format.js';
import { exchangeProblemCount, exchangeProblems, type ExchangeProblems } from './exchange-problems.js';
import { setAsideFilesOfFlow } from '../../../store/set-aside-files.js';
import { auditItem, fileItem, setAsideItem, submissionItem, type AuditItem, type FileItem, type SetAsideItem, type SubmissionItem } from './shapes.js';

/** Rows listed per kind; the totals count them all. */
export const ATTENTION_LIMIT = 100;

interface Listed<T> {
  total: number;
  rows: T[];
}

export interface FlowAttention {
  flow: string;
  /** Set when the flow is not sending freely. */
  gate: FlowGateView | null;
  held: Listed<SubmissionItem>;
  dead: Listed<SubmissionItem>;
  rejected: Listed<SubmissionItem>;
  /** With the code of each file's first problem, which says what to do about it. */
  rejectedFiles: Listed<FileItem & { problemCode: string | null }>;
  /** Files set aside in `rejected/` before they were taken (FILE_EMPTY, FILE_DUPLICATE, FILE_TOO_LARGE, FILE_NOT_REGULAR), with their codes. */
  setAsideFiles: Listed<SetAsideItem>;
  /** Files whose error report is not on disk yet (REPORT_WRITE_FAILED, retried at each scan). */
  pendingReports: number;
  /** Documents changed or withdrawn after they were sent, or kept back by a problem, newest first. */
  documents: Listed<NoticeItem>;
  /** The latest actions on the flow itself (retry the dead letters, resume), newest first. */
  actions: AuditItem[];
  /** What its exchange with 1C waits for (null for a flow without one). */
  exchange: ExchangeProblems | null;
}

export interface AttentionData {
  page: 'attention';
  /** How many things wait in all (a paused flow counts as one). */
  total: number;
  flows: FlowAttention[];
  setAside: Listed<{ id: number; channel: string; fileName: string | null; error: string | null; createdAt: string | null }>;
}

export function attentionData(deps: ConsoleDeps): AttentionData {
  const flows = deps.flows.map((flow): FlowAttention => {
    const gate = deps.operator.flowGate(flow.name);
    const listed = (state: 'held' | 'dead' | 'rejected') => {
      const { total, rows } = submissionsInState(deps.db, flow.name, state, ATTENTION_LIMIT);
      return { total, rows: rows.map(submissionItem) };
    };
    const files = rejectedFilesOfFlow(deps.db, flow.name, ATTENTION_LIMIT);
    const setAside = setAsideFilesOfFlow(deps.db, flow.name, ATTENTION_LIMIT);
    const notices = openNoticesOfFlow(deps.db, flow.name, ATTENTION_LIMIT);
    const codes = flow.enterpriseData;
    const exchange = codes ? exchangeProblems(deps.db, flow, exchangeStateOf(deps.db, { flow: flow.name, node: codes.node, peer: codes.peer })) : null;
    return {
      flow: flow.name,
      gate: gate && gate.mode !== 'closed' ? gate : null,
      held: listed('held'),
      dead: listed('dead'),
      rejected: listed('rejected'),
      rejectedFiles: { total: files.total, rows: files.rows.map((row) => ({ ...fileItem(row), problemCode: row.problemCode })) },
      setAsideFiles: { total: setAside.total, rows: setAside.rows.map(setAsideItem) },
      pendingReports: countFilesWithPendingReport(deps.db, flow.name),
      documents: { total: notices.total, rows: notices.rows.map(noticeItem) },
      actions: listAuditOfTarget(deps.db, flow.name, flow.name, 5).map(auditItem),
      exchange,
    };
  });
  const aside = setAsideExports(deps.db, ATTENTION_LIMIT);
  const total =
    flows.reduce(
      (n, flow) =>
        n +
        (flow.gate ? 1 : 0) +
        flow.held.total +
        flow.dead.total +
        flow.rejected.total +
        flow.rejectedFiles.total +
        flow.setAsideFiles.total +
        flow.pendingReports +
        flow.documents.total +
        exchangeProblemCount(flow.exchange),
      0,
    ) + aside.total;
  return {
    page: 'attention',
    total,
    flows,
    setAside: {
      total: aside.total,
      rows: aside.rows.map((row) => ({ id: row.id, channel: row.channel, fileName: row.fileName, error: row.error, createdAt: iso(row.createdAt) })),
    },
  };
}
