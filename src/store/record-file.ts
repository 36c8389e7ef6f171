/**
 * The recording transaction: everything one input file puts into the outbox, and the file's own
 * outcome, in ONE SQLite transaction. Either all of a file's submissions and its `archived` /
 * `rejected` row are on disk, or none are; a crash before the commit re-runs the file, a crash after
 * it only has to finish moving the file (the row names where it goes).
 */

import type { Db } from './open-store.js';
import { FILE_STATE, finishFile, getFile, type FileRow } from './files.js';
import { correctFailedSubmission, findSubmissionByDedupeKey, insertSubmission, type SubmissionRow } from './submissions.js';
import { type FileReport, type MappingProblem, type ReportNote } from '../shared/types.js';
import { ConnectorError } from '../errors.js';

/** A mapped submission with its body, hash and keys (see `intake/submission-keys.ts`). */
export interface PreparedSubmission {
  kind: 'request' | 'confirmation';
  externalId: string;
  orderId: string | null;
  firstRow: number;
  /** The body exactly as it will be sent. */
  payload: string;
  /** SHA-256 (hex) of `payload`. */
  payloadHash: string;
  /** externalId for requests; `${orderId}:${payloadHash}` for confirmations. */
  dedupeKey: string;
  /** The key of a first recording. */
  idempotencyKey: string;
  /** The key used when this payload corrects a row that ended `rejected` or `dead`. */
  correctionKey: string;
}

export interface RecordFileInput {
  flow: string;
  fileId: number;
  submissions: readonly PreparedSubmission[];
  /** Problems found by mapping; `row: null` ones are file-level. */
  problems: readonly MappingProblem[];
  /** One problem anywhere rejects the whole file and records nothing. */
  rejectWholeFile: boolean;
  now: number;
  /** Where the file goes for an outcome; called inside the transaction, once. */
  destinationFor: (state: 'archived' | 'rejected') => string;
}

export interface RecordFileResult {
  state: 'archived' | 'rejected';
  currentPath: string;
  /** New rows inserted. */
  recorded: number;
  /** Failed rows updated in place to a corrected payload. */
  corrected: number;
  /** Submissions already in the outbox with the same payload (not recorded again). */
  duplicates: number;
  report: FileReport;
  /** True when the file had already been recorded (a second call changes nothing). */
  alreadyRecorded: boolean;
}

type Decision =
  | { action: 'insert'; s: PreparedSubmission }
  | { action: 'correct'; s: PreparedSubmission; existing: SubmissionRow }
  | { action: 'duplicate'; s: PreparedSubmission }
  | { action: 'conflict'; s: PreparedSubmission; problem: MappingProblem };

const FAILED_FINAL = new Set<string>(['rejected', 'dead']);

/** Decide each submission against the outbox and against earlier submissions of the same file. */
function decide(db: Db, flow: string, submissions: readonly PreparedSubmission[]): Decision[] {
  const inThisFile = new Map<string, PreparedSubmission>();
  return submissions.map((s): Decision => {
    const earlier = inThisFile.get(s.dedupeKey);
    if (earlier) {
      if (earlier.payloadHash === s.payloadHash) return { action: 'duplicate', s };
      return { action: 'conflict', s, problem: conflictProblem(s, `row ${earlier.firstRow} of this file`) };
    }
    inThisFile.set(s.dedupeKey, s);
    const existing = findSubmissionByDedupeKey(db, flow, s.dedupeKey);
    if (!existing) return { action: 'insert', s };
    if (existing.payload_hash === s.payloadHash) return { action: 'duplicate', s };
    if (s.kind === 'request' && FAILED_FINAL.has(existing.state)) return { action: 'correct', s, existing };
    return { action: 'conflict', s, problem: conflictProblem(s, `submission ${existing.id} (state ${existing.state})`) };
  });
}

function conflictProblem(s: PreparedSubmission, where: string): MappingProblem {
  return {
    row: s.firstRow,
    field: 'externalId',
    code: 'EXTERNAL_ID_CONFLICT',
    message: `Row ${s.firstRow}: externalId "${s.externalId}" was recorded before (${where}) with a different payload; not submitted`,
    externalId: s.externalId,
    value: s.externalId,
  };
}

function duplicateNote(s: PreparedSubmission): ReportNote {
  return {
    row: s.firstRow,
    externalId: s.externalId,
    message: `Row ${s.firstRow}: "${s.externalId}" is already in the outbox with the same content; not recorded again`,
  };
}

/** Record one file's submissions and outcome in one transaction. Idempotent per file. */
export function recordFile(db: Db, input: RecordFileInput): RecordFileResult {
  return db.transaction((): RecordFileResult => {
    const file = getFile(db, input.fileId);
    if (!file) throw new ConnectorError('INTERNAL_ERROR', `files row ${input.fileId} does not exist`);
    if (file.state !== FILE_STATE.processing) return alreadyRecorded(file);

    const decisions = decide(db, input.flow, input.submissions);
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

    let recorded = 0;
    let corrected = 0;
    if (reject) {
      if (usable > 0) notes.push({ row: null, message: `The file was rejected as a whole: none of its ${usable} valid record(s) was recorded` });
    } else {
      for (const d of decisions) {
        if (d.action === 'insert') {
          insertSubmission(db, {
            flow: input.flow,
            kind: d.s.kind,
            dedupeKey: d.s.dedupeKey,
            externalId: d.s.externalId,
            orderId: d.s.orderId,
            payload: d.s.payload,
            payloadHash: d.s.payloadHash,
            idempotencyKey: d.s.idempotencyKey,
            fileId: input.fileId,
            sourceRow: d.s.firstRow,
            now: input.now,
          });
          recorded += 1;
        } else if (d.action === 'correct') {
          const ok = correctFailedSubmission(db, d.existing.id, {
            payload: d.s.payload,
            payloadHash: d.s.payloadHash,
            idempotencyKey: d.s.correctionKey,
            fileId: input.fileId,
            sourceRow: d.s.firstRow,
            now: input.now,
          });
          if (ok) corrected += 1;
        }
      }
    }

    const state = reject ? FILE_STATE.rejected : FILE_STATE.archived;
    const currentPath = input.destinationFor(state);
    const report: FileReport = { file: file.original_name, sha256: file.sha256, problems, notes };
    finishFile(db, input.fileId, {
      state,
      currentPath,
      requestCount: recorded + corrected,
      problemCount: problems.length,
      report: problems.length > 0 || notes.length > 0 ? report : null,
      // Report files are written only for problems; a report of notes alone stays in the store.
      reportPending: problems.length > 0,
      now: input.now,
    });
    const duplicates = decisions.filter((d) => d.action === 'duplicate').length;
    return { state, currentPath, recorded, corrected, duplicates, report, alreadyRecorded: false };
  })();
}

function alreadyRecorded(file: FileRow): RecordFileResult {
  const report: FileReport = file.report ? (JSON.parse(file.report) as FileReport) : { file: file.original_name, sha256: file.sha256, problems: [], notes: [] };
  return {
    state: file.state === FILE_STATE.rejected ? 'rejected' : 'archived',
    currentPath: file.current_path ?? '',
    recorded: 0,
    corrected: 0,
    duplicates: 0,
    report,
    alreadyRecorded: true,
  };
}
