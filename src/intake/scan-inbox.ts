/**
 * One full scan of an inbox's top level: the truth about what is there (watcher events are only
 * hints). Entries are judged with lstat, never followed; complete files are taken oldest first
 * (mtime, then name). A failure on one file is logged and the scan goes on with the next.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isConnectorError } from '../errors.js';
import { escapeControlCharacters } from '../platform/contract.js';
import { flowNameMatcher, isReservedName, isUnsafeName, markedNameOf, markerNamesFor } from './inbox-names.js';
import { UNGATED } from './file-gate.js';
import { createFileMoves } from './file-moves.js';
import { fileLogger, isMissing, processingPathOf, type IntakeContext } from './intake-context.js';
import type { StabilityTracker } from './stability.js';
import {
  discardHashed,
  hashedAsSeen,
  newFileOf,
  openAndHash,
  rejectUnclaimed,
  takeFile,
  type Candidate,
  type Claimer,
  type HashedCandidate,
  type HashedFile,
} from './take-file.js';
import { claimFiles, unclaimFiles, type FileRecord } from '../store/files.js';
import { READ_CHUNK_BYTES } from '../shared/input-file.js';
import { POOLED_DISK } from '../shared/disk-calls.js';
import { judgeBeforeReading } from '../mapping/judge-file.js';
import { createRecordingGroup, type RecordingGroup } from './recording-group.js';
import { createTurnSlicer } from '../shared/turn-slicer.js';

export interface ScanResult {
  /** Files taken (processed or found duplicate) in this scan. */
  taken: number;
  /** Earliest time a waiting file may become ready; null when none waits on time. */
  nextCheckAt: number | null;
  /** Files whose taking failed (logged); one may be left in processing/ for recovery. */
  failed: number;
}

export interface ScanOptions {
  /** Aborted when the intake stops: checked between files, and ends a wait for the file gate (the file stays for the next start). */
  signal: AbortSignal;
  /** Called with the inbox's names as the scan lists them, before it takes any file (an exchange flow watches its folder with it). */
  onListing?: (names: readonly string[]) => void;
}

/** The longest stretch a scan holds the event loop, but for one file's take (`shared/turn-slicer.ts`). */
export const SCAN_SLICE_MS = 2;

/**
 * Small files opened and hashed ahead of their turn on a local disk, their bytes handed to the
 * mapping thread: far enough ahead that the thread has mapped a file by the time it is taken (one
 * ahead, the loop waited for it), few enough that the descriptors and bytes held stay small (at
 * most 256 KiB each). On a share, one.
 */
export const LOOKAHEAD_FILES = 8;

export async function scanInbox(base: IntakeContext, tracker: StabilityTracker, options: ScanOptions): Promise<ScanResult> {
  // The scan's small files are recorded in groups and its recorded files moved in groups, all of
  // them before it ends.
  const moves = createFileMoves(base);
  const recordings = createRecordingGroup(base.db);
  let failedMoves = 0;
  const settleScan = async (): Promise<void> => {
    await recordings.settle();
    failedMoves += await moves.drain();
  };
  try {
    const result = await takeReadyFiles({ ...base, moves, recordings, settleScan }, tracker, options);
    await settleScan();
    return { ...result, failed: result.failed + failedMoves };
  } catch (error) {
    await settleScan();
    throw error;
  }
}

async function takeReadyFiles(ctx: IntakeContext & { recordings: RecordingGroup }, tracker: StabilityTracker, options: ScanOptions): Promise<ScanResult> {
  const rules = ctx.flow.intake;
  const matches = flowNameMatcher(ctx.flow);
  const names = await fs.readdir(ctx.dirs.inbox);
  options.onListing?.(names);
  const present = new Set(names);
  const candidates: Candidate[] = [];
  let taken = 0;
  let failed = 0;
  const { recordings } = ctx;
  /** How a take that waited for its group ended. */
  const ended =
    (candidate: Candidate) =>
    (failure: { error: unknown } | null): void => {
      if (!failure) {
        taken += 1;
        return;
      }
      failed += 1;
      fileLogger(ctx, candidate.name).error(failureFields(failure.error), 'taking the file failed; it will be tried again');
    };
  let nextCheckAt: number | null = null;
  const waitUntil = (at: number) => {
    nextCheckAt = nextCheckAt === null ? at : Math.min(nextCheckAt, at);
  };

  // The event loop gets a turn every 2 ms of the scan: on a local disk its calls are synchronous,
  // and a listing or a storm of small files would otherwise hold it until the scan ends.
  const pauseIfDue = createTurnSlicer(SCAN_SLICE_MS);
  for (const name of names) {
    await pauseIfDue();
    if (isReservedName(name) || markedNameOf(name, rules.doneMarker) !== null || !matches(name)) continue;
    const entryPath = path.join(ctx.dirs.inbox, name);
    try {
      if (isUnsafeName(name)) {
        await rejectUnclaimed(
          ctx,
          { path: entryPath, name },
          { code: 'FILE_NOT_REGULAR', message: `"${escapeControlCharacters(name)}" is not a safe file name` },
        );
        continue;
      }
      const stat = await ctx.disk.lstat(entryPath);
      if (!stat.isFile()) {
        const what = stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a folder' : 'not a regular file';
        await rejectUnclaimed(ctx, { path: entryPath, name }, { code: 'FILE_NOT_REGULAR', message: `${name} is ${what}; it was not read` });
        continue;
      }
      candidates.push({ path: entryPath, name, size: stat.size, mtimeMs: stat.mtimeMs });
    } catch (error) {
      if (!isMissing(error)) fileLogger(ctx, name).error(failureFields(error), 'cannot examine inbox entry');
    }
  }
  candidates.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // A file judged ready ahead stays ready at its turn (the time only moves on); one that was not is
  // judged again then, as every file was before, so that a file settling meanwhile is not put off.
  const readyAhead = new Set<Candidate>();
  const verdictOf = (candidate: Candidate): Verdict => {
    if (readyAhead.has(candidate)) return 'ready';
    const verdict = judge(ctx, tracker, candidate, present, waitUntil);
    if (verdict === 'ready') readyAhead.add(candidate);
    return verdict;
  };
  const lookahead = createLookahead(candidates, verdictOf, options.signal, ctx);
  try {
    for (const [index, candidate] of candidates.entries()) {
      await pauseIfDue();
      if (options.signal.aborted) break;
      try {
        const ready = verdictOf(candidate);
        if (ready === 'wait') continue;
        tracker.forget(candidate.name);
        // Refused unread as any preview refuses it (`mapping/judge-file.ts`): empty (the verdict `empty`), or too large.
        const refused = judgeBeforeReading(candidate.name, candidate.size, rules);
        if (refused !== null) {
          await rejectUnclaimed(ctx, candidate, refused);
        } else {
          // Called only once the gate lets the file in: a scan stopped at the gate leaves what was hashed ahead to `discard`.
          // A small file whose recording waits for its group leaves the gate then; it is counted when it ends.
          const take = () => recordings.follow(takeFile(ctx, candidate, lookahead.take(index), lookahead.claimerFor(index)), ended(candidate));
          const outcome = await (ctx.fileGate ?? UNGATED).run(take, options.signal);
          if (outcome === 'changed' || outcome === 'waiting') continue;
        }
        taken += 1;
      } catch (error) {
        // Stopped while it waited for the gate: the file was not touched.
        if (options.signal.aborted && error === options.signal.reason) break;
        failed += 1;
        // Leave the file for the next scan; a file that fails every time keeps being logged.
        fileLogger(ctx, candidate.name).error(failureFields(error), 'taking the file failed; it will be tried again');
      }
    }
  } finally {
    await lookahead.discard();
    await recordings.settle();
  }
  tracker.retain(present);
  return { taken, nextCheckAt, failed };
}

/** Log fields of a failure: the error (its serializer keeps the stack) and its catalogue code (REPORT_WRITE_FAILED…) when it has one. */
function failureFields(error: unknown): Record<string, unknown> {
  return { err: error, ...(isConnectorError(error) ? { code: error.code } : {}) };
}

type Verdict = 'ready' | 'empty' | 'wait';

/**
 * The next small file in line, opened and hashed while the one before is taken (`openAndHash`
 * touches no row and no name), and a small CSV's bytes handed to the mapping thread (`ctx.premap`):
 * claims, moves and recordings stay one file after another, in order, while the thread maps the
 * next. Only a file read in one read is hashed ahead (the gate bounds the files held, not a hash's
 * buffer).
 *
 * The files hashed ahead are also claimed ahead, with the one whose turn it is (`claimerFor`): one
 * commit for a file and those after it, instead of one commit each, which was the largest single
 * cost of a storm of small files. A claim is committed before its file is renamed into
 * `processing/` either way, so a crash between the two is what recovery already knows: the scan
 * adopts the claim when it finds the file again (`take-file.ts`). Claims the scan did not reach
 * (it was stopped) are dropped when it ends (`discard`).
 */
function createLookahead(candidates: readonly Candidate[], verdictOf: (candidate: Candidate) => Verdict, signal: AbortSignal, ctx: IntakeContext) {
  const { disk, premap } = ctx;
  const rules = ctx.flow.intake;
  const ahead = new Map<Candidate, Promise<HashedCandidate>>();
  /** Files hashed ahead whose hash is done and found them as the scan saw them. */
  const hashedAhead = new Map<Candidate, HashedFile>();
  /** Rows claimed ahead, each waiting for its file's turn. */
  const claimedAhead = new Map<Candidate, FileRecord>();
  // On a share each file hashed ahead holds a thread of the pool (4 in all) for as long as the share takes to answer.
  const depth = disk === POOLED_DISK ? 1 : LOOKAHEAD_FILES;
  const processingPathFor = (id: number, name: string) => processingPathOf(ctx.dirs, id, name);
  return {
    /** What was hashed ahead for candidate `index`, if anything; and the files after it not yet started on, when they are ready and small. */
    take(index: number): Promise<HashedCandidate> | undefined {
      const candidate = candidates[index]!;
      const hashed = ahead.get(candidate);
      ahead.delete(candidate);
      hashedAhead.delete(candidate);
      for (const file of candidates.slice(index + 1, index + 1 + depth)) {
        if (signal.aborted || ahead.has(file)) continue;
        if (!(file.size > 0 && file.size <= Math.min(READ_CHUNK_BYTES, rules.maxFileBytes) && verdictOf(file) === 'ready')) continue;
        const started = openAndHash(file, disk, premap);
        // Its failure is met when its turn comes (`takeFile` awaits it), not as an unhandled rejection meanwhile.
        started.then(
          (done) => {
            if (done.ok && ahead.get(file) === started && hashedAsSeen(file, done)) hashedAhead.set(file, done);
          },
          () => undefined,
        );
        ahead.set(file, started);
      }
      return hashed;
    },
    /**
     * How candidate `index` is claimed: by the claim made ahead for it, or with the files right
     * after it whose hash is done. The claims made ahead are always the files right after the last
     * one taken, none skipped: a file whose turn comes meets a claim of a later file only when it
     * has the same content, and then as a later file (never one to adopt).
     */
    claimerFor(index: number): Claimer {
      const candidate = candidates[index]!;
      return (file) => {
        const row = claimedAhead.get(candidate);
        claimedAhead.delete(candidate);
        if (row?.sha256 === file.sha256) return { ok: true, row };
        if (row) {
          // Not the content claimed for it (it cannot be: both are its hash ahead): claim afresh, none ahead kept.
          unclaimFiles(ctx.db, [row.id, ...[...claimedAhead.values()].map((r) => r.id)]);
          claimedAhead.clear();
        }
        const next: Candidate[] = [];
        for (const c of candidates.slice(index + 1, index + 1 + depth)) {
          // Only a file its turn will take as it is: ready, hashed as the scan saw it, and not refused unread.
          if (!hashedAhead.has(c) || judgeBeforeReading(c.name, c.size, rules) !== null) break;
          next.push(c);
        }
        const claims = claimFiles(ctx.db, [file, ...next.map((c) => newFileOf(ctx, c, hashedAhead.get(c)!.digest.sha256))], processingPathFor, {
          readStarts: true,
        });
        for (const [i, claim] of claims.slice(1).entries()) if (claim.ok) claimedAhead.set(next[i]!, claim.row);
        return claims[0]!;
      };
    },
    /** Close what was hashed ahead for files the scan stopped before, and drop their claims. */
    async discard(): Promise<void> {
      const left = [...ahead.values()];
      ahead.clear();
      hashedAhead.clear();
      await Promise.all(left.map(discardHashed));
      const unclaimed = [...claimedAhead.values()].map((row) => row.id);
      claimedAhead.clear();
      try {
        unclaimFiles(ctx.db, unclaimed);
      } catch (error) {
        // Left as a crash would leave them: the next scan adopts each claim when it finds its file.
        ctx.logger.child({ flow: ctx.flow.name }).warn(failureFields(error), 'claims made ahead could not be dropped; the next scan adopts them');
      }
    },
  };
}

/** Is the file complete? With a done-marker, its marker decides; otherwise size and mtime must settle. */
function judge(ctx: IntakeContext, tracker: StabilityTracker, candidate: Candidate, present: ReadonlySet<string>, waitUntil: (at: number) => void): Verdict {
  const mode = ctx.flow.intake.doneMarker;
  if (mode !== 'none') {
    if (!markerNamesFor(candidate.name, mode).some((m) => present.has(m))) return 'wait';
    return candidate.size === 0 ? 'empty' : 'ready';
  }
  const verdict = tracker.observe(candidate.name, { size: candidate.size, mtimeMs: candidate.mtimeMs }, ctx.clock());
  if (verdict.kind === 'wait') {
    if (verdict.mtimeAheadMs !== undefined) {
      fileLogger(ctx, candidate.name).warn(
        { mtimeAheadMs: Math.round(verdict.mtimeAheadMs) },
        'file modification time is in the future (is the clock of whoever writes the inbox ahead?); its age is counted from when it was first seen',
      );
    }
    waitUntil(verdict.checkAt);
    return 'wait';
  }
  return verdict.kind === 'empty-expired' ? 'empty' : 'ready';
}
