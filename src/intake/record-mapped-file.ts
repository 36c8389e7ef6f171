/**
 * Recording a file as it is mapped: the mapper's stream is prepared and recorded in chunks, each
 * decided by the plan (`plan-file.ts`) and staged by the store in its own short transaction; one
 * transaction then decides the file's outcome, and its staged rows are released or deleted
 * (`settle-staged.ts`). `store/record-file.ts` says why, and why a crash anywhere in between
 * leaves nothing half-recorded and nothing staged deliverable. Memory holds one chunk, the capped
 * problems and notes, and what the plan carries between chunks; never the whole file's
 * submissions (`docs/performance.md`: what the peak still depends on). A file whose submissions
 * all fit in its first chunk (most: one request, or a few) skips the staging: it is planned and
 * recorded in one transaction (`recordWholeFile`), nothing staged and nothing to release.
 */
import type { MappedItem, MappedWithdrawal } from '../mapping/types.js';
import { FILE_STATE, getFile, type FileRecord, type FileState } from '../store/files.js';
import { finishRecording, recordWholeFile, stageChunk, type LapsedCorrection, type PreparedSubmission, type RecordFileResult } from '../store/record-file.js';
import type { Db } from '../store/open-store.js';
import type { Clock, ReportNote, RowNumbering } from '../shared/types.js';
import { catchMapperFailure, collectProblems } from '../mapping/collect-problems.js';
import { planChunk, planOutcome, startFilePlan } from './plan-file.js';
import { settleFile, settleUnfinishedRecordings } from './settle-staged.js';
import { prepareSubmission } from './submission-keys.js';
import type { RecordingGroup } from './recording-group.js';

/**
 * A chunk is recorded once it holds this many submissions or this many characters of payload,
 * whichever comes first (about 100 requests of 10 lines). Small on purpose: the chunk's payloads
 * must die young. Held across several young-generation GCs, V8 found nearly all of them alive and
 * began allocating such strings straight into the old generation, which then grew with the file;
 * a commit per chunk costs far less than that did.
 */
export const RECORD_CHUNK_SUBMISSIONS = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
export const RECORD_CHUNK_PAYLOAD_CHARS = 128 * 1024;

export interface MappedFileRecord {
  flow: string;
  fileId: number;
  /**
   * The file's state as the caller claimed or read it in this turn of the intake's lane: a file not
   * `processing` is not read. Looked up when absent. A stale one costs no more than a read: the
   * transaction that records finds a file recorded already (`alreadyRecorded`).
   */
  knownState?: FileState;
  /** The file's name in messages. */
  fileLabel: string;
  /** How its problems number its rows, said in its report. */
  rows?: RowNumbering | undefined;
  /** The mapper's output for the file. */
  items: AsyncIterable<MappedItem>;
  /** Prefix of idempotency keys. */
  sourceSystem: string;
  rejectWholeFile: boolean;
  clock: Clock;
  /** Where the file goes for an outcome; called once, inside the last transaction. */
  destinationFor: (state: 'archived' | 'rejected') => string;
  /** An exchange message's outcome rules and what else its deciding transaction writes (`exchange-message.ts`). */
  exchange?: MessageOutcome;
  /** Told when the mapper itself throws something other than a `ConnectorError` (a fault of ours). */
  onReaderFault?: (error: unknown) => void;
  /**
   * A scan's group of small files' recordings (`recording-group.ts`): a file whose submissions fit
   * in one chunk is recorded with its group. A file that turns out larger flushes the group first.
   */
  group?: RecordingGroup | undefined;
}

/** How an exchange message's file is decided beyond a plain file's rules. */
export interface MessageOutcome {
  /** Notes for its report (what the message was taken as). */
  notes: readonly ReportNote[];
  /** Written in the transaction that decides the file, with its outcome. */
  alsoRecord: (state: 'archived' | 'rejected') => void;
}

/** Map, decide and record one claimed file. Idempotent per file: a file already recorded is not read again. */
export async function recordMappedFile(db: Db, input: MappedFileRecord): Promise<RecordFileResult> {
  const { flow, fileId, clock } = input;
  // Staged rows of the flow are taken to be this file's (`plan-file.ts`): clear what others left.
  await settleUnfinishedRecordings(db, flow, clock);
  const plan = startFilePlan();
  const problems = collectProblems(input.fileLabel);
  const outcomeOf = (row: FileRecord, lapsed: readonly LapsedCorrection[] = []) =>
    planOutcome(
      plan,
      {
        flow,
        problems: problems.list(),
        rejectWholeFile: input.rejectWholeFile,
        rows: input.rows,
        lapsed,
        ...(input.exchange ? { acceptEmpty: true, notes: input.exchange.notes } : {}),
      },
      row,
    );
  const decided = { destinationFor: input.destinationFor, ...(input.exchange ? { alsoRecord: input.exchange.alsoRecord } : {}) };
  if ((input.knownState ?? getFile(db, fileId)?.state) === FILE_STATE.processing) {
    const stagedAt = clock();
    let staged = false;
    let chunk: PreparedSubmission[] = [];
    let withdrawals: MappedWithdrawal[] = [];
    let chunkChars = 0;
    const keysOf = (submissions: readonly PreparedSubmission[], withdrawn: readonly MappedWithdrawal[]) => [
      ...submissions.map((s) => s.dedupeKey),
      ...withdrawn.map((w) => w.documentId),
    ];
    // A dated document is also looked up by its number among requests recorded, on or after its
    // date, before documents had an identity (a day early for time zones).
    const legacyOf = (submissions: readonly PreparedSubmission[]) =>
      new Map(
        submissions.flatMap((s) => {
          const datedAt = s.document?.date ? Date.parse(s.document.date) - DAY_MS : Number.NaN;
          return s.document?.number && Number.isFinite(datedAt) ? [[s.document.id, { number: s.document.number, datedAt }] as const] : [];
        }),
      );
    const flush = () => {
      // The files waiting in the group came before this one: recorded first.
      input.group?.flush();
      const batch = chunk;
      const withdrawn = withdrawals;
      chunk = [];
      withdrawals = [];
      chunkChars = 0;
      staged = true;
      stageChunk(db, {
        flow,
        fileId,
        now: stagedAt,
        dedupeKeys: keysOf(batch, withdrawn),
        legacyKeys: legacyOf(batch),
        plan: (existing) => planChunk(plan, batch, existing, withdrawn),
      });
    };
    for await (const item of catchMapperFailure(input.items, input.fileLabel, input.onReaderFault)) {
      if (item.kind === 'problem') {
        if (problems.add(item.problem)) continue;
        break;
      }
      if (item.kind === 'withdrawal') withdrawals.push(item.withdrawal);
      else {
        const s = prepareSubmission(item.submission, input.sourceSystem);
        chunk.push(s);
        chunkChars += s.payload.length;
      }
      if (chunk.length + withdrawals.length >= RECORD_CHUNK_SUBMISSIONS || chunkChars >= RECORD_CHUNK_PAYLOAD_CHARS) flush();
    }
    if (!staged) {
      // The whole file came in one chunk: planned and recorded in one transaction, nothing staged.
      const whole = chunk;
      const withdrawn = withdrawals;
      const record = () =>
        recordWholeFile(db, {
          ...decided,
          flow,
          fileId,
          now: clock(),
          dedupeKeys: keysOf(whole, withdrawn),
          legacyKeys: legacyOf(whole),
          // The chunk is planned first: the outcome counts what it decided.
          plan: (row, existing) => {
            const planned = planChunk(plan, whole, existing, withdrawn);
            const outcome = outcomeOf(row);
            return { ...planned, ...outcome, notices: [...(planned.notices ?? []), ...(outcome.notices ?? [])] };
          },
        });
      return input.group ? input.group.record(record) : record();
    }
    if (chunk.length > 0 || withdrawals.length > 0) flush();
  }
  input.group?.flush();
  const result = finishRecording(db, { ...decided, fileId, now: clock(), plan: outcomeOf });
  await settleFile(db, { id: fileId, state: result.state }, clock);
  return result;
}
