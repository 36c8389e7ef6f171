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
 */
import type { FileRow } from '../store/files.js';
import type { ExistingSubmission, FilePlan, PreparedSubmission } from '../store/record-file.js';
import type { FileReport, MappingProblem, ReportNote } from '../shared/types.js';

export interface PlanInput {
  /** The flow's name, for the "holds no records" message. */
  flow: string;
  submissions: readonly PreparedSubmission[];
  /** Problems found by mapping; `row: null` ones are file-level. */
  problems: readonly MappingProblem[];
  /** One problem anywhere rejects the whole file and records nothing. */
  rejectWholeFile: boolean;
}

export type Decision =
  | { action: 'insert'; s: PreparedSubmission }
  | { action: 'correct'; s: PreparedSubmission; existing: ExistingSubmission }
  | { action: 'duplicate'; s: PreparedSubmission }
  | { action: 'conflict'; s: PreparedSubmission; problem: MappingProblem };

/** Final states a changed request may correct (a new payload under a new key); others are conflicts. */
const CORRECTABLE = new Set<string>(['rejected', 'dead']);

/** Decide each submission against the outbox (`existing`, by dedupe key) and against earlier submissions of the same file. */
export function decideSubmissions(submissions: readonly PreparedSubmission[], existing: ReadonlyMap<string, ExistingSubmission>): Decision[] {
  const inThisFile = new Map<string, PreparedSubmission>();
  return submissions.map((s): Decision => {
    const earlier = inThisFile.get(s.dedupeKey);
    if (earlier) {
      if (earlier.payloadHash === s.payloadHash) return { action: 'duplicate', s };
      return { action: 'conflict', s, problem: conflictProblem(s, `row ${earlier.firstRow} of this file`) };
    }
    inThisFile.set(s.dedupeKey, s);
    const found = existing.get(s.dedupeKey);
    if (!found) return { action: 'insert', s };
    if (found.payloadHash === s.payloadHash) return { action: 'duplicate', s };
    if (s.kind === 'request' && CORRECTABLE.has(found.state)) return { action: 'correct', s, existing: found };
    return { action: 'conflict', s, problem: conflictProblem(s, `submission ${found.id} (state ${found.state})`) };
  });
}

/** The whole plan of one file: what to insert and correct, its outcome and its report. */
export function planFile(input: PlanInput, file: Pick<FileRow, 'original_name' | 'sha256'>, existing: ReadonlyMap<string, ExistingSubmission>): FilePlan {
  const decisions = decideSubmissions(input.submissions, existing);
  const problems: MappingProblem[] = [...input.problems];
  const notes: ReportNote[] = [];
  for (const d of decisions) {
    if (d.action === 'conflict') problems.push(d.problem);
    if (d.action === 'duplicate') notes.push(duplicateNote(d.s));
  }
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  const usable = decisions.filter((d) => d.action !== 'conflict').length;
  if (input.submissions.length === 0 && problems.length === 0) {
    problems.push({
      row: null,
      field: null,
      code: 'MAPPING_FAILED',
      message: `${file.original_name} holds no ${input.flow} records (only a header, or nothing)`,
    });
  }
  const fileLevel = problems.some((p) => p.row === null);
  const reject = fileLevel || usable === 0 || (input.rejectWholeFile && problems.length > 0);
  if (reject && usable > 0) notes.push({ row: null, message: `The file was rejected as a whole: none of its ${usable} valid record(s) was recorded` });
  const report: FileReport = { file: file.original_name, sha256: file.sha256, problems, notes };
  return {
    state: reject ? 'rejected' : 'archived',
    inserts: reject ? [] : decisions.flatMap((d) => (d.action === 'insert' ? [d.s] : [])),
    corrections: reject ? [] : decisions.flatMap((d) => (d.action === 'correct' ? [{ id: d.existing.id, submission: d.s }] : [])),
    duplicates: decisions.filter((d) => d.action === 'duplicate').length,
    report,
  };
}

export function conflictProblem(s: PreparedSubmission, where: string): MappingProblem {
  return {
    row: s.firstRow,
    field: 'externalId',
    code: 'EXTERNAL_ID_CONFLICT',
    message: `Row ${s.firstRow}: externalId "${s.externalId}" was recorded before (${where}) with a different payload; not submitted`,
    externalId: s.externalId,
    value: s.externalId,
  };
}

export function duplicateNote(s: PreparedSubmission): ReportNote {
  return {
    row: s.firstRow,
    externalId: s.externalId,
    message: `Row ${s.firstRow}: "${s.externalId}" is already in the outbox with the same content; not recorded again`,
  };
}
