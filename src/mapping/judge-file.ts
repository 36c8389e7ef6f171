/**
 * One judgement of a file, for the daemon and for every preview (`preview`, the console's mapping
 * page): whatever the daemon would set aside, a preview names with the same code. Three steps, each
 * used by both:
 * - before reading (`judgeBeforeReading`): an empty file (FILE_EMPTY) and one larger than
 *   `intake.maxFileBytes` (FILE_TOO_LARGE) are refused unread;
 * - while reading: the mapper's problems, bounded the same way (`collect-problems.ts`);
 * - at the end (`judgeOutcome`): a file with no records at all (a header alone) is a file-level
 *   MAPPING_FAILED; a file-level problem, a file with nothing usable, or any problem under
 *   `rejectWholeFile` rejects the whole file.
 * What only the store knows is not judged here: a file whose content was taken before
 * (FILE_DUPLICATE), a request recorded before with another payload (EXTERNAL_ID_CONFLICT), a file
 * changed while it was read (FILE_CHANGED). Pure but for the mapper's stream it reads.
 */
import type { MappingProblem, ReportNote } from '../shared/types.js';
import { catchMapperFailure, collectProblems } from './collect-problems.js';
import type { MappedItem } from './types.js';

/** A file refused before it is read, with the code and message its report carries. */
export interface RefusedUnread {
  code: 'FILE_EMPTY' | 'FILE_TOO_LARGE';
  message: string;
}

/** Is a complete file refused unread? Null when it is to be read. */
export function judgeBeforeReading(name: string, size: number, rules: { maxFileBytes: number }): RefusedUnread | null {
  if (size === 0) return { code: 'FILE_EMPTY', message: `${name} is empty (0 bytes)` };
  if (size > rules.maxFileBytes)
    return { code: 'FILE_TOO_LARGE', message: `${name} has ${size} bytes, more than intake.maxFileBytes (${rules.maxFileBytes}); it was not read` };
  return null;
}

export interface OutcomeRules {
  /** The flow's name, for the "holds no records" message. */
  flow: string;
  /** How the file is named in messages. */
  fileLabel: string;
  /** One problem anywhere rejects the whole file. */
  rejectWholeFile: boolean;
  /** A file with no usable record is taken all the same (1C's exchange messages, read whole), unless a problem is file-level. */
  acceptEmpty?: boolean | undefined;
}

export interface OutcomeCounts {
  /** Submissions the file holds, usable or not. */
  submissions: number;
  /** Submissions that would be recorded (not in conflict). */
  usable: number;
  /** The problems found so far (mapping, conflicts); `row: null` ones are file-level. */
  problems: readonly MappingProblem[];
}

export interface Outcome {
  reject: boolean;
  /** Problems the judgement itself adds (a file of no records). */
  added: MappingProblem[];
  /** Notes it adds (valid records not recorded because the whole file is rejected). */
  notes: ReportNote[];
}

/** Is the file, with these counts and problems, rejected? */
export function judgeOutcome(counts: OutcomeCounts, rules: OutcomeRules): Outcome {
  const added: MappingProblem[] = [];
  if (counts.submissions === 0 && counts.problems.length === 0 && rules.acceptEmpty !== true) {
    added.push({
      row: null,
      field: null,
      code: 'MAPPING_FAILED',
      message: `${rules.fileLabel} holds no ${rules.flow} records (only a header, or nothing)`,
      text: { key: 'noRecords' },
    });
  }
  const problems = [...counts.problems, ...added];
  const fileLevel = problems.some((p) => p.row === null);
  const reject = fileLevel || (counts.usable === 0 && rules.acceptEmpty !== true) || (rules.rejectWholeFile && problems.length > 0);
  const notes: ReportNote[] = [];
  if (reject && counts.usable > 0) {
    notes.push({
      row: null,
      message: `The file was rejected as a whole: none of its ${counts.usable} valid record(s) was recorded`,
      text: { key: 'rejectedWhole', params: { n: counts.usable } },
    });
  }
  return { reject, added, notes };
}

/** What a preview says of a file: the daemon's outcome, its report, and what decided a rejection. */
export interface FileJudgement {
  state: 'archived' | 'rejected';
  /** The code that rejects the file (its first file-level problem's, else its first problem's); null when it is taken. */
  code: string | null;
  submissions: number;
  withdrawals: number;
  /** Every problem seen, the judgement's own included (the report lists the first of them). */
  problemCount: number;
  /** The problems as the daemon's report would list them, in row order (file-level first). */
  problems: MappingProblem[];
  notes: ReportNote[];
}

/** The judgement of a file refused unread. */
export function refusedJudgement(refused: RefusedUnread): FileJudgement {
  const problem: MappingProblem = { row: null, field: null, code: refused.code, message: refused.message };
  return { state: 'rejected', code: refused.code, submissions: 0, withdrawals: 0, problemCount: 1, problems: [problem], notes: [] };
}

/**
 * Judge a file from the mapper's stream as the daemon would, with an empty outbox. `onItem` sees
 * every item as it comes (a preview shows the payloads); the problems of the judgement are bounded
 * as a report is. When `signal` stops the mapper, this throws its reason.
 */
export async function judgeMappedFile(
  items: AsyncIterable<MappedItem>,
  rules: OutcomeRules & { onItem?: (item: MappedItem) => void; onFault?: (error: unknown) => void; signal?: AbortSignal | undefined },
): Promise<FileJudgement> {
  const collected = collectProblems(rules.fileLabel);
  let submissions = 0;
  let withdrawals = 0;
  let problemCount = 0;
  for await (const item of catchMapperFailure(items, rules.fileLabel, rules.onFault)) {
    rules.onItem?.(item);
    if (item.kind === 'submission') submissions += 1;
    else if (item.kind === 'withdrawal') withdrawals += 1;
    else {
      problemCount += 1;
      if (!collected.add(item.problem)) break;
    }
  }
  // A preview stopped (its time limit) throws, as the mapper does: its failure is no judgement of the file.
  rules.signal?.throwIfAborted();
  const listed = collected.list();
  const outcome = judgeOutcome({ submissions, usable: submissions, problems: listed }, rules);
  const problems = [...listed, ...outcome.added].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  const deciding = problems.find((p) => p.row === null) ?? problems[0];
  return {
    state: outcome.reject ? 'rejected' : 'archived',
    code: outcome.reject ? (deciding?.code ?? null) : null,
    submissions,
    withdrawals,
    problemCount: problemCount + outcome.added.length,
    problems,
    notes: outcome.notes,
  };
}
