/**
 * Recording a file: everything one input file puts into the outbox, and the file's own outcome,
 * decided in ONE transaction, executed from a plan the intake stage makes (`intake/plan-file.ts`);
 * the store reads what the plan needs and writes what it says.
 *
 * A file whose submissions all come in one chunk (most files: a 1C job writes one per request) is
 * recorded by `recordWholeFile` in exactly that one transaction, nothing staged. A larger file is
 * written in chunks, each in its own short transaction:
 * - `stageChunk` inserts a chunk's new submissions as `staged` rows of the file and its
 *   corrections into `staged_corrections`; nothing but the recording reads, counts or sends either;
 * - `finishRecording`, the one transaction that decides, applies the corrections and finishes the
 *   file row (`archived` or `rejected`); from its commit on, the file's staged rows are its
 *   requests (archived) or garbage (rejected);
 * - `releaseStagedSubmissions` / `deleteStagedSubmissions` (`submissions.ts`) then turn them
 *   `pending` or delete them, a batch per transaction; each refuses the other outcome's rows.
 * Only the deciding commit must be on disk before anything depends on it: intake awaits the
 * store's group commit (`durability.ts`) before it moves the file. The chunks and the release need
 * no such wait: lost to a power cut, recovery redoes them.
 * Why not one transaction around the whole stream: the daemon has one SQLite connection for every
 * stage, and a better-sqlite3 transaction cannot span an `await` without taking in the writes of
 * the webhook listener and of delivery made meanwhile; a second connection would instead lock them
 * out for as long as the file takes. Short transactions let the others commit in between, and the
 * release is batched for the same reason (one statement turning a large file's rows `pending`
 * would hold the others out while it runs; docs/performance.md, Intake).
 *
 * Crash safety: before `finishRecording` commits, the file row is `processing` and its rows are
 * staged: nothing of it can be sent, and the next run deletes them (`listUnsettledFiles`) and
 * records the file again from the start. After the commit, the row's state says what every staged
 * row of the file becomes, so an interrupted release is finished from the row alone, like the move.
 */

import type { Db } from './open-store.js';
import { FILE_STATE, finishFile, finishedRow, getFile, type FileOutcome, type FileRecord } from './files.js';
import {
  countStagedSubmissions,
  findLegacySubmission,
  findSubmissionByDedupeKey,
  insertSubmission,
  type LegacyKey,
  type SubmissionState,
} from './submissions.js';
import {
  applyStagedCorrections,
  deleteStagedCorrectionsOfFile,
  hasStagedCorrections,
  listLapsedCorrections,
  stageCorrection,
  type LapsedCorrection,
  type StagedCorrection,
} from './staged-corrections.js';
import { applyNoticeChanges, type NoticeChange } from './document-notices.js';
import { statement, transact } from './statement.js';
import type { DocumentRef, FileReport } from '../shared/types.js';
import { ConnectorError } from '../errors.js';

export type { LapsedCorrection } from './staged-corrections.js';

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
  /** The document it is of, when the mapping gives documents an identity (`document:`): then keyed by its id. */
  document?: DocumentRef | null | undefined;
  /** Documents: SHA-256 (hex) of the payload without its externalId, to tell a renumbered document from a changed one. */
  contentHash?: string | null | undefined;
}

/** What the outbox holds under a dedupe key, as the plan needs it. A `staged` row was recorded earlier in the same file. */
export interface ExistingSubmission {
  id: number;
  payloadHash: string;
  state: SubmissionState;
  /** The row of its file where it starts (the plan reads it for a `staged` row, to name it). */
  sourceRow?: number | null;
  externalId: string;
  /** The body that was (or will be) sent, for what a document's new version changes. */
  payload: string;
  contentHash: string | null;
  documentNumber: string | null;
  documentDate: string | null;
  /** Set by delivery's first claim and never cleared: from then on it may have reached the platform. */
  firstClaimedAt: number | null;
  platformId: string | null;
}

/**
 * A change to a row the outbox already holds, applied when the file is finished (`staged-corrections.ts`):
 * - `correct`: a row that ended rejected or dead takes a corrected payload, under its correction key;
 * - `replace`: a document's row still waiting and never claimed (or withdrawn) takes its new version, under the same key;
 * - `renumber`: a document's row takes its new number and date only;
 * - `withdraw`: a document's row still waiting and never claimed (or rejected) is withdrawn, never sent.
 */
export type PlannedCorrection =
  { id: number; action: 'correct' | 'replace' | 'renumber'; submission: PreparedSubmission } | { id: number; action: 'withdraw'; note: string };

/** What one chunk of a file writes: decided by intake (`intake/plan-file.ts`), executed here. */
export interface ChunkPlan {
  /** New rows, staged until the file is finished. */
  inserts: readonly PreparedSubmission[];
  /** Changes to rows the outbox holds, applied when the file is finished. */
  corrections: readonly PlannedCorrection[];
  /** What a person must hear of the chunk's documents, written with the chunk (none when absent). */
  notices?: readonly NoticeChange[];
}

/** What finishing a file does: decided by intake, executed here. */
export interface OutcomePlan {
  state: 'archived' | 'rejected';
  /** Submissions already in the outbox with the same payload (not recorded again). */
  duplicates: number;
  /** Stored on the row when it has problems or notes; written beside the file when it has problems. */
  report: FileReport;
  /**
   * What a person must hear of the file's documents beyond its chunks' (problems kept until 1C
   * sends the document again; changes that came too late); none when absent.
   */
  notices?: readonly NoticeChange[];
}

export interface StageChunkInput {
  flow: string;
  fileId: number;
  now: number;
  /** The dedupe keys of the chunk's submissions: the outbox rows the plan is made against. */
  dedupeKeys: readonly string[];
  /** Documents' numbers and dates by their identity, for requests recorded before documents had one (`findLegacySubmission`). */
  legacyKeys?: ReadonlyMap<string, LegacyKey> | undefined;
  /** The chunk's plan, made inside the transaction from what the outbox holds. */
  plan: (existing: ReadonlyMap<string, ExistingSubmission>) => ChunkPlan;
}

export interface FinishRecordingInput {
  fileId: number;
  now: number;
  /** The outcome, made inside the transaction from the file's row and its corrections that can no longer be applied. */
  plan: (file: FileRecord, lapsed: readonly LapsedCorrection[]) => OutcomePlan;
  /** Where the file goes for an outcome; called inside the transaction, once. */
  destinationFor: (state: 'archived' | 'rejected') => string;
  /**
   * What else the file's outcome writes, in the same transaction (an exchange message's number and
   * acknowledgement, `exchanges.ts`): called once, with the outcome, after the file row is finished.
   */
  alsoRecord?: (state: 'archived' | 'rejected') => void;
}

export interface RecordFileResult {
  state: 'archived' | 'rejected';
  currentPath: string;
  /** New rows recorded. */
  recorded: number;
  /** Failed rows updated in place to a corrected payload. */
  corrected: number;
  /** Submissions already in the outbox with the same payload (not recorded again). */
  duplicates: number;
  report: FileReport;
  /** True when the file had already been recorded (a second call changes nothing). */
  alreadyRecorded: boolean;
  /** The file's row as the recording left it (the caller moves the file by it, no second read). */
  file: FileRecord;
}

/** A file with staged rows or corrections left to settle, and its state (what they become). */
export interface UnsettledFile {
  id: number;
  state: FileRecord['state'];
}

/**
 * Per connection, the flows whose last listing found nothing to settle and that have staged no
 * chunk since: their next listing is known to be empty. Asked before every file is recorded, the
 * query cost a small file about 25 µs (`docs/performance.md`, *8*). Rows are staged only by
 * `stageChunk` (a file of more than one chunk), and only by the daemon's own connection: one daemon
 * per store (`state-lock.ts`), and a restart opens a new connection, which lists again.
 */
const settledFlows = new WeakMap<Db, Set<string>>();

/**
 * A flow's files that still have staged rows or staged corrections: the one being recorded, or
 * those a crash or a failed write interrupted before (or after) `finishRecording`.
 */
export function listUnsettledFiles(db: Db, flow: string): UnsettledFile[] {
  if (settledFlows.get(db)?.has(flow)) return [];
  // `+flow` keeps SQLite from reading every file the flow ever took (by `files_flow_claimed`): it
  // starts from the staged rows (partial indexes, nearly empty) and looks their files up by id, so
  // the cost does not grow with the history.
  const unsettled = statement(
    db,
    `SELECT id, state FROM files
       WHERE +flow = ? AND id IN (SELECT file_id FROM submissions WHERE state = 'staged' UNION SELECT file_id FROM staged_corrections)
       ORDER BY id`,
  ).all(flow) as UnsettledFile[];
  if (unsettled.length === 0) {
    const flows = settledFlows.get(db) ?? new Set<string>();
    settledFlows.set(db, flows.add(flow));
  }
  return unsettled;
}

/** Stage one chunk of a file by its plan, in one short transaction (nothing waits for it to be durable). */
export function stageChunk(db: Db, input: StageChunkInput): void {
  // Before the write: should it fail half-way, the next listing still looks.
  settledFlows.get(db)?.delete(input.flow);
  transact(db, () => {
    const plan = input.plan(existingUnder(db, input.flow, input.dedupeKeys, input.legacyKeys));
    for (const submission of plan.inserts) insertPlanned(db, input, submission, 'staged');
    stageCorrections(db, input.fileId, plan.corrections);
    applyNoticeChanges(db, input.flow, input.fileId, input.now, plan.notices ?? []);
  });
}

/**
 * What the outbox holds under each of `keys`: the rows a plan is made against. A document's
 * identity that finds nothing is looked up by its number among requests recorded before documents
 * had an identity (`legacyKeys`): an order sent then is the same order now.
 */
function existingUnder(db: Db, flow: string, keys: readonly string[], legacyKeys?: ReadonlyMap<string, LegacyKey>): Map<string, ExistingSubmission> {
  const existing = new Map<string, ExistingSubmission>();
  for (const key of keys) {
    if (existing.has(key)) continue;
    const legacy = legacyKeys?.get(key);
    const row = findSubmissionByDedupeKey(db, flow, key) ?? (legacy === undefined ? undefined : findLegacySubmission(db, flow, legacy));
    if (row) existing.set(key, row);
  }
  return existing;
}

function insertPlanned(db: Db, file: { flow: string; fileId: number; now: number }, submission: PreparedSubmission, state: 'staged' | 'pending'): void {
  insertSubmission(db, {
    flow: file.flow,
    kind: submission.kind,
    dedupeKey: submission.dedupeKey,
    externalId: submission.externalId,
    orderId: submission.orderId,
    payload: submission.payload,
    payloadHash: submission.payloadHash,
    idempotencyKey: submission.idempotencyKey,
    fileId: file.fileId,
    sourceRow: submission.firstRow,
    state,
    now: file.now,
    documentNumber: submission.document?.number ?? null,
    documentDate: submission.document?.date ?? null,
    contentHash: submission.contentHash ?? null,
  });
}

function stageCorrections(db: Db, fileId: number, corrections: ChunkPlan['corrections']): void {
  for (const correction of corrections) stageCorrection(db, stagedOf(fileId, correction));
}

function stagedOf(fileId: number, correction: PlannedCorrection): StagedCorrection {
  const base = { submissionId: correction.id, fileId, action: correction.action };
  if (correction.action === 'withdraw') {
    return { ...base, payload: '', payloadHash: '', idempotencyKey: '', sourceRow: null, note: correction.note };
  }
  const s = correction.submission;
  return {
    ...base,
    payload: s.payload,
    payloadHash: s.payloadHash,
    // A correction travels under a new key; a replacement under the document's own (it never left).
    idempotencyKey: correction.action === 'correct' ? s.correctionKey : s.idempotencyKey,
    sourceRow: s.firstRow,
    externalId: s.externalId,
    documentId: s.document?.id ?? null,
    documentNumber: s.document?.number ?? null,
    documentDate: s.document?.date ?? null,
    contentHash: s.contentHash ?? null,
  };
}

/**
 * Decide a file's outcome in one transaction, by its plan: apply its staged corrections and finish
 * its row. Its staged rows stay staged; the caller then releases (archived) or deletes (rejected)
 * them. Idempotent per file.
 */
export function finishRecording(db: Db, input: FinishRecordingInput): RecordFileResult {
  return transact(db, (): RecordFileResult => {
    const { fileId, now } = input;
    const file = fileToRecord(db, fileId);
    if (file.state !== FILE_STATE.processing) return alreadyRecorded(file);
    const plan = input.plan(file, listLapsedCorrections(db, fileId));
    const archived = plan.state === FILE_STATE.archived;
    const corrected = archived ? applyStagedCorrections(db, fileId, now) : 0;
    deleteStagedCorrectionsOfFile(db, fileId);
    const recorded = archived ? countStagedSubmissions(db, fileId) : 0;
    return decideFile(db, input, file, plan, { recorded, corrected });
  });
}

export interface WholeFileInput extends Omit<FinishRecordingInput, 'plan'> {
  flow: string;
  /** The dedupe keys of the file's submissions: the outbox rows the plan is made against. */
  dedupeKeys: readonly string[];
  legacyKeys?: ReadonlyMap<string, LegacyKey> | undefined;
  /** The whole file's plan, made inside the transaction from its row and what the outbox holds. */
  plan: (file: FileRecord, existing: ReadonlyMap<string, ExistingSubmission>) => ChunkPlan & OutcomePlan;
}

/**
 * Record a file whose submissions came in one chunk, all in ONE transaction: its new requests are
 * inserted `pending` (archived) or not at all (rejected), its corrections applied, its row
 * finished. Nothing is staged, so nothing is left to release: each request is written once, where
 * a file in chunks writes it staged and again released (most files are small: a 1C job that
 * writes one file per request). Idempotent per file, as `finishRecording` is.
 */
export function recordWholeFile(db: Db, input: WholeFileInput): RecordFileResult {
  return transact(db, (): RecordFileResult => {
    const { fileId, now } = input;
    const file = fileToRecord(db, fileId);
    if (file.state !== FILE_STATE.processing) return alreadyRecorded(file);
    const plan = input.plan(file, existingUnder(db, input.flow, input.dedupeKeys, input.legacyKeys));
    // Notices are facts about the documents read, whatever becomes of the file (as a file in chunks
    // writes them with each chunk); the plan's outcome adds its own only to a file it archives.
    applyNoticeChanges(db, input.flow, fileId, now, plan.notices ?? []);
    const decided = { ...plan, notices: [] };
    if (plan.state !== FILE_STATE.archived) return decideFile(db, input, file, decided, { recorded: 0, corrected: 0 });
    for (const submission of plan.inserts) insertPlanned(db, input, submission, 'pending');
    // Decided in this transaction against rows read in it: every correction's row is still rejected or dead.
    stageCorrections(db, fileId, plan.corrections);
    // Most files correct nothing: one lookup instead of four joins and a delete that find nothing.
    let corrected = 0;
    if (hasStagedCorrections(db, fileId)) {
      corrected = applyStagedCorrections(db, fileId, now);
      deleteStagedCorrectionsOfFile(db, fileId);
    }
    return decideFile(db, input, file, decided, { recorded: plan.inserts.length, corrected });
  });
}

function fileToRecord(db: Db, fileId: number): FileRecord {
  const file = getFile(db, fileId);
  if (!file) throw new ConnectorError('INTERNAL_ERROR', `files row ${fileId} does not exist`);
  return file;
}

/** Finish the file's row by its plan (inside the deciding transaction), with what it recorded. */
function decideFile(
  db: Db,
  input: Omit<FinishRecordingInput, 'plan'>,
  file: FileRecord,
  plan: OutcomePlan,
  counts: { recorded: number; corrected: number },
): RecordFileResult {
  const currentPath = input.destinationFor(plan.state);
  const { problems, notes } = plan.report;
  const outcome: FileOutcome = {
    state: plan.state,
    currentPath,
    requestCount: counts.recorded + counts.corrected,
    problemCount: problems.length,
    report: problems.length > 0 || notes.length > 0 ? plan.report : null,
    // Report files are written only for problems; a report of notes alone stays in the store.
    reportPending: problems.length > 0,
    now: input.now,
  };
  finishFile(db, input.fileId, outcome);
  applyNoticeChanges(db, file.flow, input.fileId, input.now, plan.notices ?? []);
  input.alsoRecord?.(plan.state);
  return {
    state: plan.state,
    currentPath,
    ...counts,
    duplicates: plan.duplicates,
    report: plan.report,
    alreadyRecorded: false,
    file: finishedRow(file, outcome),
  };
}

function alreadyRecorded(file: FileRecord): RecordFileResult {
  const report: FileReport = file.report ? (JSON.parse(file.report) as FileReport) : { file: file.originalName, sha256: file.sha256, problems: [], notes: [] };
  return {
    state: file.state === FILE_STATE.rejected ? 'rejected' : 'archived',
    currentPath: file.currentPath ?? '',
    recorded: 0,
    corrected: 0,
    duplicates: 0,
    report,
    alreadyRecorded: true,
    file,
  };
}
