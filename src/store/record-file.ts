/**
 * The recording transaction: everything one input file puts into the outbox, and the file's own
 * outcome, in ONE SQLite transaction, executed from a plan the intake stage makes
 * (`intake/plan-file.ts`); the store reads what the plan needs and writes what it says. Either all of a file's submissions and its `archived` /
 * `rejected` row are on disk, or none are; a crash before the commit re-runs the file, a crash after
 * it only has to finish moving the file (the row names where it goes).
 */

import type { Db } from './open-store.js';
import { FILE_STATE, finishFile, getFile, type FileRow } from './files.js';
import { correctFailedSubmission, findSubmissionByDedupeKey, insertSubmission, type SubmissionState } from './submissions.js';
import type { FileReport } from '../shared/types.js';
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

/** What the outbox holds under a dedupe key, as the plan needs it. */
export interface ExistingSubmission {
  id: number;
  payloadHash: string;
  state: SubmissionState;
}

/** What recording one file does: decided by intake (`intake/plan-file.ts`), executed here. */
export interface FilePlan {
  state: 'archived' | 'rejected';
  /** New rows to insert. */
  inserts: readonly PreparedSubmission[];
  /** Rows that ended rejected or dead, to update in place to a corrected payload (under its correction key). */
  corrections: readonly { id: number; submission: PreparedSubmission }[];
  /** Submissions already in the outbox with the same payload (not recorded again). */
  duplicates: number;
  /** Stored on the row when it has problems or notes; written beside the file when it has problems. */
  report: FileReport;
}

export interface RecordFileInput {
  flow: string;
  fileId: number;
  now: number;
  /** The dedupe keys of the file's submissions: the outbox rows the plan is made against. */
  dedupeKeys: readonly string[];
  /** The plan, made inside the transaction from the file's row and what the outbox holds. */
  plan: (file: FileRow, existing: ReadonlyMap<string, ExistingSubmission>) => FilePlan;
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

/** Record one file's submissions and outcome in one transaction, by the plan. Idempotent per file. */
export function recordFile(db: Db, input: RecordFileInput): RecordFileResult {
  return db.transaction((): RecordFileResult => {
    const file = getFile(db, input.fileId);
    if (!file) throw new ConnectorError('INTERNAL_ERROR', `files row ${input.fileId} does not exist`);
    if (file.state !== FILE_STATE.processing) return alreadyRecorded(file);

    const existing = new Map<string, ExistingSubmission>();
    for (const key of new Set(input.dedupeKeys)) {
      const row = findSubmissionByDedupeKey(db, input.flow, key);
      if (row) existing.set(key, { id: row.id, payloadHash: row.payload_hash, state: row.state });
    }
    const plan = input.plan(file, existing);

    for (const s of plan.inserts) {
      insertSubmission(db, {
        flow: input.flow,
        kind: s.kind,
        dedupeKey: s.dedupeKey,
        externalId: s.externalId,
        orderId: s.orderId,
        payload: s.payload,
        payloadHash: s.payloadHash,
        idempotencyKey: s.idempotencyKey,
        fileId: input.fileId,
        sourceRow: s.firstRow,
        now: input.now,
      });
    }
    let corrected = 0;
    for (const { id, submission: s } of plan.corrections) {
      const ok = correctFailedSubmission(db, id, {
        payload: s.payload,
        payloadHash: s.payloadHash,
        idempotencyKey: s.correctionKey,
        fileId: input.fileId,
        sourceRow: s.firstRow,
        now: input.now,
      });
      if (ok) corrected += 1;
    }

    const currentPath = input.destinationFor(plan.state);
    const { problems, notes } = plan.report;
    finishFile(db, input.fileId, {
      state: plan.state,
      currentPath,
      requestCount: plan.inserts.length + corrected,
      problemCount: problems.length,
      report: problems.length > 0 || notes.length > 0 ? plan.report : null,
      // Report files are written only for problems; a report of notes alone stays in the store.
      reportPending: problems.length > 0,
      now: input.now,
    });
    return {
      state: plan.state,
      currentPath,
      recorded: plan.inserts.length,
      corrected,
      duplicates: plan.duplicates,
      report: plan.report,
      alreadyRecorded: false,
    };
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
