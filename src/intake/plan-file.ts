/**
 * What recording a file means, decided here and only executed by the store (`store/record-file.ts`):
 * - each submission against the outbox and against the earlier ones of the same file: a new one is
 *   inserted; the same payload again is a duplicate (a note, not recorded again); a changed request
 *   whose earlier row ended `rejected` or `dead` corrects that row (new key); any other change is an
 *   `EXTERNAL_ID_CONFLICT`;
 * - the file's outcome: rejected when a problem is file-level, when nothing in it is usable, or when
 *   `rejectWholeFile` is on and anything is wrong; archived otherwise;
 * - the report: the problems in row order, and the notes.
 * Pure: what the outbox holds comes in as `existing`.
 *
 * A file is decided chunk by chunk (`planChunk`), as it is recorded, and finished once
 * (`planOutcome`); `planFile` is the same for a whole file at once. Between chunks the plan keeps
 * only what the store cannot tell: the earlier submissions of the file that were not inserted, and
 * counts. Those that were are in the outbox as `staged` rows of this file, and come back in
 * `existing` with that state; so memory grows with a file's duplicates, corrections and
 * conflicts, not with its new requests.
 */
import type { FileRecord } from '../store/files.js';
import type { ChunkPlan, ExistingSubmission, LapsedCorrection, OutcomePlan, PlannedCorrection, PreparedSubmission } from '../store/record-file.js';
import { SUBMISSION_STATE } from '../store/submissions.js';
import { NOTICE_KIND, type NoticeChange } from '../store/document-notices.js';
import { judgeOutcome } from '../mapping/judge-file.js';
import type { MappedWithdrawal } from '../mapping/types.js';
import type { FileReport, MappingProblem, ReportNote, RowNumbering } from '../shared/types.js';
import { decideDocument, decideWithdrawal, editedNotice, seenAgain, withdrawnNotice, type DocumentOutcome, type NoticeDetail } from './decide-document.js';
import { describeChanges } from './describe-changes.js';

export interface PlanInput {
  /** The flow's name, for the "holds no records" message. */
  flow: string;
  submissions: readonly PreparedSubmission[];
  /** Documents the file withdraws. */
  withdrawals?: readonly MappedWithdrawal[];
  /** Problems found by mapping; `row: null` ones are file-level. */
  problems: readonly MappingProblem[];
  /** One problem anywhere rejects the whole file and records nothing. */
  rejectWholeFile: boolean;
}

/** The first submission of a file under a dedupe key, as later ones are compared with it. */
export interface Occurrence {
  payloadHash: string;
  firstRow: number;
}

export type Decision =
  | { action: 'insert'; submission: PreparedSubmission }
  | { action: 'correct'; submission: PreparedSubmission; existing: ExistingSubmission; document?: DocumentOutcome }
  | { action: 'duplicate'; submission: PreparedSubmission; document?: DocumentOutcome }
  | { action: 'conflict'; submission: PreparedSubmission; problem: MappingProblem }
  /** A document seen again (`decide-document.ts`): its request replaced, renumbered, or left with a notice. */
  | { action: 'document'; submission: PreparedSubmission; document: DocumentOutcome };

/** The whole plan of one file: what to insert and correct, its outcome and its report. */
export interface FilePlan extends ChunkPlan, OutcomePlan {}

/** Conflicts listed in a report, and notes; past these, one closing line counts the rest (a report must stay small enough to build and store). */
export const MAX_LISTED_CONFLICTS = 1_000;
export const MAX_LISTED_NOTES = 1_000;

/** Final states a changed request may correct (a new payload under a new key); others are conflicts. */
const CORRECTABLE = new Set<string>(['rejected', 'dead']);

/**
 * Decide each submission against the outbox (`existing`, by dedupe key) and against earlier
 * submissions of the same file: those of this batch, those in `earlier`, and the outbox's `staged`
 * rows (staged rows are this file's: a flow records one file at a time).
 */
export function decideSubmissions(
  submissions: readonly PreparedSubmission[],
  existing: ReadonlyMap<string, ExistingSubmission>,
  earlier: ReadonlyMap<string, Occurrence> = new Map(),
): Decision[] {
  const inThisBatch = new Map<string, Occurrence>();
  return submissions.map((submission): Decision => {
    const found = existing.get(submission.dedupeKey);
    const first = inThisBatch.get(submission.dedupeKey) ?? earlier.get(submission.dedupeKey) ?? stagedOccurrence(found);
    if (first) {
      if (first.payloadHash === submission.payloadHash) return { action: 'duplicate', submission };
      return { action: 'conflict', submission, problem: conflictProblem(submission, `row ${first.firstRow} of this file`) };
    }
    inThisBatch.set(submission.dedupeKey, submission);
    if (!found) return { action: 'insert', submission };
    if (submission.document) {
      const document = decideDocument(submission, found);
      if (document.action.action === 'duplicate') return { action: 'duplicate', submission, document };
      if (document.action.action === 'correct') return { action: 'correct', submission, existing: found, document };
      return { action: 'document', submission, document };
    }
    if (found.payloadHash === submission.payloadHash) return { action: 'duplicate', submission };
    if (submission.kind === 'request' && CORRECTABLE.has(found.state)) return { action: 'correct', submission, existing: found };
    return { action: 'conflict', submission, problem: conflictProblem(submission, `submission ${found.id} (state ${found.state})`) };
  });
}

function stagedOccurrence(found: ExistingSubmission | undefined): Occurrence | undefined {
  if (found?.state !== SUBMISSION_STATE.staged) return undefined;
  return { payloadHash: found.payloadHash, firstRow: found.sourceRow ?? 0 };
}

/** What a file's plan carries from chunk to chunk. */
export interface FilePlanState {
  /** First submissions under their key that were not inserted (duplicates, corrections, conflicts): the store does not hold them for this file. */
  readonly unstaged: Map<string, Occurrence>;
  submissions: number;
  /** Submissions that are not conflicts (inserted, corrected or duplicates). */
  usable: number;
  duplicates: number;
  readonly conflicts: CappedList<MappingProblem>;
  readonly duplicateNotes: CappedList<ReportNote>;
  /** What documents seen again and withdrawn came to (`decide-document.ts`). */
  readonly documentNotes: CappedList<ReportNote>;
}

/** The first `limit` items, and how many more there were from which row on. */
interface CappedList<T> {
  items: T[];
  omitted: number;
  firstOmittedRow: number | null;
}

export function startFilePlan(): FilePlanState {
  const capped = <T>(): CappedList<T> => ({ items: [], omitted: 0, firstOmittedRow: null });
  return { unstaged: new Map(), submissions: 0, usable: 0, duplicates: 0, conflicts: capped(), duplicateNotes: capped(), documentNotes: capped() };
}

function keep<T>(list: CappedList<T>, limit: number, item: T, row: number): void {
  if (list.items.length < limit) list.items.push(item);
  else {
    list.omitted += 1;
    list.firstOmittedRow ??= row;
  }
}

/**
 * Decide one chunk of a file, in file order, against what the outbox holds for its keys; `state`
 * carries over to the next chunk. `withdrawals` are the chunk's withdrawn documents, decided after
 * its submissions: a document both sent and withdrawn in one file keeps what it was sent as.
 */
export function planChunk(
  state: FilePlanState,
  chunk: readonly PreparedSubmission[],
  existing: ReadonlyMap<string, ExistingSubmission>,
  withdrawals: readonly MappedWithdrawal[] = [],
): ChunkPlan {
  const decisions = decideSubmissions(chunk, existing, state.unstaged);
  const inserts: PreparedSubmission[] = [];
  const corrections: PlannedCorrection[] = [];
  const notices: NoticeChange[] = [];
  const seen = new Set<string>();
  for (const decision of decisions) {
    const key = decision.submission.dedupeKey;
    const row = decision.submission.firstRow;
    const first = !seen.has(key) && !state.unstaged.has(key) && existing.get(key)?.state !== SUBMISSION_STATE.staged;
    seen.add(key);
    state.submissions += 1;
    if (decision.action === 'conflict') keep(state.conflicts, MAX_LISTED_CONFLICTS, decision.problem, row);
    else state.usable += 1;
    const document = decision.action === 'conflict' || decision.action === 'insert' ? undefined : decision.document;
    if (document !== undefined) {
      notices.push(...document.notices);
      if (document.note !== null && decision.action !== 'duplicate') keep(state.documentNotes, MAX_LISTED_NOTES, document.note, row);
    }
    if (decision.action === 'duplicate') {
      state.duplicates += 1;
      keep(state.duplicateNotes, MAX_LISTED_NOTES, document?.note ?? duplicateNote(decision.submission), row);
    }
    if (decision.action === 'insert') {
      inserts.push(decision.submission);
      if (decision.submission.document) notices.push(seenAgain(decision.submission.document.id));
    }
    if (decision.action === 'correct') corrections.push({ id: decision.existing.id, action: 'correct', submission: decision.submission });
    if (decision.action === 'document') {
      const { action } = decision.document;
      if (action.action === 'replace' || action.action === 'renumber')
        corrections.push({ id: action.existing.id, action: action.action, submission: decision.submission });
    }
    // The store will not hold this key for the file (it is not staged): the later ones compare with it here.
    if (first && decision.action !== 'insert') state.unstaged.set(key, { payloadHash: decision.submission.payloadHash, firstRow: row });
  }
  for (const withdrawal of withdrawals) {
    const key = withdrawal.documentId;
    const found = existing.get(key);
    if (seen.has(key) || state.unstaged.has(key) || found?.state === SUBMISSION_STATE.staged) {
      keep(state.documentNotes, MAX_LISTED_NOTES, inFileWithdrawalNote(withdrawal), withdrawal.row);
      continue;
    }
    const outcome = decideWithdrawal(withdrawal, found);
    notices.push(...outcome.notices);
    if (outcome.note !== null) keep(state.documentNotes, MAX_LISTED_NOTES, outcome.note, withdrawal.row);
    if (outcome.action.action === 'withdraw') corrections.push({ id: outcome.action.existing.id, action: 'withdraw', note: outcome.note?.message ?? '' });
  }
  return { inserts, corrections, notices };
}

function inFileWithdrawalNote(withdrawal: MappedWithdrawal): ReportNote {
  return {
    row: withdrawal.row,
    message: `Row ${withdrawal.row}: document ${withdrawal.documentId} is both sent and withdrawn in this file; the withdrawal is not applied`,
    text: { key: 'documentWithdrawnInFile', params: { id: withdrawal.documentId } },
  };
}

export interface OutcomeInput {
  flow: string;
  /** Problems found by mapping (already capped by the caller); `row: null` ones are file-level. */
  problems: readonly MappingProblem[];
  rejectWholeFile: boolean;
  /** Corrections the store could no longer apply: their row left `rejected`/`dead` meanwhile (a `retry`). */
  lapsed?: readonly LapsedCorrection[];
  /**
   * A file with no usable record is archived all the same (its problems reported), unless a problem
   * is file-level: 1C's exchange messages carry whatever changed, often no purchase order at all,
   * and one read whole is taken (and acknowledged) even when every order in it has a problem.
   */
  acceptEmpty?: boolean;
  /** Notes the stage adds to the report (what an exchange message was taken as). */
  notes?: readonly ReportNote[];
  /** How the file's problems number its rows, said in its report. */
  rows?: RowNumbering | undefined;
}

/** The file's outcome and report, once every chunk is decided. */
export function planOutcome(state: FilePlanState, input: OutcomeInput, file: Pick<FileRecord, 'originalName' | 'sha256'>): OutcomePlan {
  const lapses = input.lapsed ?? [];
  // A correction that lapsed is a conflict, as it would have been had the retry come first; a
  // document's replacement or withdrawal that lapsed was claimed meanwhile: it counts as sent.
  const lapsed = lapses
    .filter((lapse) => lapse.action === 'correct')
    .map((lapse) =>
      conflictProblem({ firstRow: lapse.sourceRow ?? 0, externalId: lapse.externalId }, `submission ${lapse.submissionId} (state ${lapse.state})`),
    );
  const lapseNotices = lapses.flatMap(lapsedNotice);
  const usable = state.usable - lapsed.length;
  const problems: MappingProblem[] = [...input.problems, ...state.conflicts.items, ...lapsed];
  if (state.conflicts.omitted > 0) {
    problems.push({
      row: state.conflicts.firstOmittedRow,
      field: 'externalId',
      code: 'EXTERNAL_ID_CONFLICT',
      message: `${file.originalName}: ${state.conflicts.omitted} more externalId conflicts from row ${state.conflicts.firstOmittedRow} on are not listed (the report shows the first ${MAX_LISTED_CONFLICTS})`,
      text: { key: 'moreConflicts', params: { n: state.conflicts.omitted, row: state.conflicts.firstOmittedRow ?? 0, shown: MAX_LISTED_CONFLICTS } },
    });
  }
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  const notes: ReportNote[] = [...(input.notes ?? []), ...state.documentNotes.items, ...state.duplicateNotes.items];
  if (state.duplicateNotes.omitted > 0) {
    notes.push({
      row: state.duplicateNotes.firstOmittedRow,
      message: `${state.duplicateNotes.omitted} more requests from row ${state.duplicateNotes.firstOmittedRow} on are already in the outbox with the same content; not listed, not recorded again`,
      text: { key: 'moreDuplicates', params: { n: state.duplicateNotes.omitted, row: state.duplicateNotes.firstOmittedRow ?? 0 } },
    });
  }
  // The same judgement as every preview's (`mapping/judge-file.ts`).
  const verdict = judgeOutcome(
    { submissions: state.submissions, usable, problems },
    { flow: input.flow, fileLabel: file.originalName, rejectWholeFile: input.rejectWholeFile, acceptEmpty: input.acceptEmpty },
  );
  problems.push(...verdict.added);
  notes.push(...verdict.notes);
  const { reject } = verdict;
  const report: FileReport = { file: file.originalName, sha256: file.sha256, ...(input.rows ? { rows: input.rows } : {}), problems, notes };
  // A document with a problem in a file taken is shown until its source sends it again (1C only
  // does once it is changed and saved); in a file rejected, its problems are the file's.
  const notices = reject ? lapseNotices : [...lapseNotices, ...problemNotices(input.problems)];
  return { state: reject ? 'rejected' : 'archived', duplicates: state.duplicates, report, notices };
}

/** The notice of a document's replacement or withdrawal that came after its request was claimed. */
function lapsedNotice(lapse: LapsedCorrection): NoticeChange[] {
  const existing: ExistingSubmission = {
    id: lapse.submissionId,
    payloadHash: '',
    state: lapse.state,
    externalId: lapse.externalId,
    payload: lapse.payload,
    contentHash: lapse.contentHash,
    documentNumber: lapse.documentNumber,
    documentDate: null,
    firstClaimedAt: null,
    platformId: lapse.platformId,
  };
  if (lapse.action === 'withdraw') return [withdrawnNotice(lapse.documentId, existing)];
  if (lapse.action !== 'replace' || lapse.newContentHash === lapse.contentHash) return [];
  const document = { id: lapse.documentId, number: lapse.documentNumber, date: null };
  return [editedNotice({ document, externalId: lapse.externalId }, existing, describeChanges(lapse.payload, lapse.newPayload))];
}

/** Most problems kept in one document's notice. */
const MAX_NOTICE_PROBLEMS = 5;

/** One notice per document with problems (a mapping with `document.id`), naming its first problems. */
function problemNotices(problems: readonly MappingProblem[]): NoticeChange[] {
  const byDocument = new Map<string, MappingProblem[]>();
  for (const problem of problems) {
    if (problem.row === null || problem.documentId === undefined) continue;
    const list = byDocument.get(problem.documentId) ?? [];
    if (list.length < MAX_NOTICE_PROBLEMS) list.push(problem);
    byDocument.set(problem.documentId, list);
  }
  return [...byDocument].map(([documentId, list]): NoticeChange => {
    const detail: NoticeDetail = {
      kind: 'problem',
      problems: list.map((p) => ({ code: p.code, field: p.field, message: p.message, ...(p.text ? { text: p.text } : {}) })),
    };
    return {
      op: 'upsert',
      documentId,
      kind: NOTICE_KIND.problem,
      submissionId: null,
      documentNumber: list[0]!.documentNumber ?? list[0]!.externalId ?? null,
      detail: JSON.stringify(detail),
    };
  });
}

/** The plan of a whole file decided at once: `planChunk` over all of it, then `planOutcome`. */
export function planFile(input: PlanInput, file: Pick<FileRecord, 'originalName' | 'sha256'>, existing: ReadonlyMap<string, ExistingSubmission>): FilePlan {
  const state = startFilePlan();
  const chunk = planChunk(state, input.submissions, existing, input.withdrawals);
  const outcome = planOutcome(state, input, file);
  const recorded = outcome.state === 'archived';
  return {
    ...outcome,
    inserts: recorded ? chunk.inserts : [],
    corrections: recorded ? chunk.corrections : [],
    notices: [...(chunk.notices ?? []), ...(outcome.notices ?? [])],
  };
}

export function conflictProblem(submission: Pick<PreparedSubmission, 'firstRow' | 'externalId'>, where: string): MappingProblem {
  return {
    row: submission.firstRow,
    field: 'externalId',
    code: 'EXTERNAL_ID_CONFLICT',
    message: `Row ${submission.firstRow}: externalId "${submission.externalId}" was recorded before (${where}) with a different payload; not submitted`,
    externalId: submission.externalId,
    value: submission.externalId,
    text: { key: 'externalIdConflict' },
  };
}

export function duplicateNote(submission: PreparedSubmission): ReportNote {
  return {
    row: submission.firstRow,
    externalId: submission.externalId,
    message: `Row ${submission.firstRow}: "${submission.externalId}" is already in the outbox with the same content; not recorded again`,
    text: { key: 'duplicate', params: { externalId: submission.externalId } },
  };
}
