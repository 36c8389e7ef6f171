/**
 * Taking a complete file: open it once (no symlink followed, no FIFO waited on, only a regular
 * file), hash that descriptor, claim it by INSERT against UNIQUE (flow, sha256), and only the
 * winner renames it into `processing/` (a rename inside one folder tree is atomic). The name may
 * have been swapped since the open, so the entry that reached `processing/` must be the opened file
 * (same device and inode) before anything is mapped, and what is mapped is the same descriptor.
 * A loser is the same content dropped again: it goes to `rejected/` with a FILE_DUPLICATE report
 * naming the earlier file. Files refused before any claim (empty, too large, not a regular file)
 * go there too.
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConnectorError, describeError, type ErrorCode } from '../errors.js';
import { escapeControlCharacters } from '../platform/contract.js';
import { openRegularFile, type InputHandle, type OpenResult } from '../shared/input-file.js';
import type { DiskCalls } from '../shared/disk-calls.js';
import { recordSetAsideFile, type SetAsideFile } from '../store/set-aside-files.js';
import { adoptClaim, claimFile, findFileBySha256, reclaimRejectedFile, unclaimFiles, type ClaimResult, type FileRecord, type NewFile } from '../store/files.js';
import { hashFile, type FileDigest } from './hash-file.js';
import type { Premapped } from '../mapping/map-thread.js';
import { localStamp } from '../shared/local-time.js';
import { markerNamesFor, rejectedName, uniquePath } from './inbox-names.js';
import { entryExists, fileLogger, isMissing, processingPathOf, type IntakeContext } from './intake-context.js';
import { processClaimedFile, rejectClaimedUnread } from './process-file.js';
import { REPORT_SUFFIX, writeReportFiles } from './report-files.js';
import { type FileReport } from '../shared/types.js';

/** A file to take: where it is now and the name it had in the inbox. */
export interface Candidate {
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
}

/** `changed`: the file changed or left while it was taken; whatever is there waits for the next scan. */
export type TakeOutcome = 'processed' | 'duplicate' | 'rejected' | 'changed';

/** Remove the done-markers of an inbox file (they are consumed with the file). */
export async function removeMarkers(ctx: IntakeContext, name: string): Promise<void> {
  for (const marker of markerNamesFor(name, ctx.flow.intake.doneMarker)) {
    await fs.rm(path.join(ctx.dirs.inbox, marker), { force: true });
  }
}

/**
 * Move an entry that got no row into `rejected/` with a one-problem report. Does not follow
 * symlinks. Such an entry has no row to remember its report, so the report is written first,
 * beside the name the entry will get: if it cannot be written (REPORT_WRITE_FAILED), the entry
 * stays where it is and the next scan rejects it again; a report is never lost after the move.
 */
export async function rejectUnclaimed(
  ctx: IntakeContext,
  entry: { path: string; name: string; size?: number },
  problem: { code: ErrorCode; message: string },
  sha256 = '',
): Promise<string | null> {
  // Named in the log and the report with any control character or bidi override escaped: the name is someone else's.
  const shown = escapeControlCharacters(entry.name);
  const log = fileLogger(ctx, shown);
  const target = uniquePath(ctx.dirs.rejected, rejectedName(localStamp(ctx.clock()), entry.name));
  const report: FileReport = { file: shown, sha256, problems: [{ row: null, field: null, code: problem.code, message: problem.message }], notes: [] };
  const dropReport = () => Promise.all(Object.values(REPORT_SUFFIX).map((suffix) => fs.rm(`${target}${suffix}`, { force: true }).catch(() => undefined)));
  try {
    await writeReportFiles(target, report);
  } catch (error) {
    await dropReport();
    throw new ConnectorError(
      'REPORT_WRITE_FAILED',
      `the report of ${entry.name} could not be written beside ${target}; the entry stays and is rejected again at the next scan: ${describeError(error)}`,
      { cause: error },
    );
  }
  try {
    await ctx.disk.rename(entry.path, target);
  } catch (error) {
    await dropReport();
    if (isMissing(error)) return null;
    throw error;
  }
  await removeMarkers(ctx, entry.name);
  log.warn({ code: problem.code, to: target }, `file rejected: ${problem.message}`);
  recordSetAside(ctx, {
    flow: ctx.flow.name,
    originalName: shown,
    sizeBytes: entry.size ?? 0,
    sha256,
    code: problem.code,
    message: problem.message,
    currentPath: target,
  });
  ctx.metrics?.files.inc({ flow: ctx.flow.name, outcome: problem.code === 'FILE_DUPLICATE' ? 'duplicate' : 'rejected' });
  return target;
}

/**
 * Keep the set-aside file for the console (`store/set-aside-files.ts`). The file and its report are
 * in `rejected/` already: a store that refuses the row costs the console's listing, not the report,
 * so the failure is logged and the scan goes on.
 */
function recordSetAside(ctx: IntakeContext, file: Omit<SetAsideFile, 'id' | 'setAsideAt'>): void {
  try {
    recordSetAsideFile(ctx.db, { ...file, setAsideAt: ctx.clock() });
  } catch (error) {
    fileLogger(ctx, file.originalName).error({ err: error, code: 'STORE_FAILED' }, 'the set-aside file could not be recorded for the console');
  }
}

function duplicateMessage(name: string, earlier: FileRecord): string {
  const when = new Date(earlier.claimedAt).toISOString();
  return `${name} has the same content as ${earlier.originalName} (file ${earlier.id}, taken ${when}, now ${earlier.state}); not submitted again`;
}

/** Does `p` name the very file `opened` describes (not a symlink, not another file swapped in)? */
async function holdsFile(p: string, opened: Stats, disk: DiskCalls): Promise<boolean> {
  try {
    const now = await disk.lstat(p);
    return now.isFile() && now.dev === opened.dev && now.ino === opened.ino;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** A candidate opened and hashed, ready to be claimed; or why it could not be opened (it left, or is no regular file). */
export type HashedCandidate = Exclude<OpenResult, { ok: true }> | HashedFile;

/** An opened candidate's descriptor, its hash, its fstat taken after the hash, and its bytes handed to the mapping thread. */
export interface HashedFile {
  ok: true;
  handle: InputHandle;
  digest: FileDigest;
  after: Stats;
  premapped?: Premapped | undefined;
}

/**
 * Open a candidate and hash it (read up to the size the scan saw; the fstat after it says whether
 * the file is still that size). No row and no name is touched: a scan may do this for the next
 * file while the one before is taken. The caller owns the descriptor when it is returned open.
 */
export async function openAndHash(candidate: Candidate, disk: DiskCalls, premap?: IntakeContext['premap']): Promise<HashedCandidate> {
  const opened = await openRegularFile(candidate.path, disk);
  if (!opened.ok) return opened;
  const { handle } = opened;
  try {
    const digest = await hashFile(handle, { expectedSize: candidate.size, disk });
    const after = await disk.fstat(handle);
    // Mapped ahead from the very bytes hashed, when they are the file the scan saw: used only if the claim is won.
    const whole = digest.bytes !== undefined && after.size === candidate.size && after.mtimeMs === candidate.mtimeMs ? digest.bytes : undefined;
    return { ok: true, handle, digest, after, premapped: whole && premap?.(whole, candidate.name) };
  } catch (error) {
    await opened.handle.close().catch(() => undefined);
    throw error;
  }
}

/** Close what `openAndHash` left open, for a candidate that will not be taken after all. */
export async function discardHashed(hashed: Promise<HashedCandidate>): Promise<void> {
  const done = await hashed.catch(() => undefined);
  if (done?.ok) await done.handle.close().catch(() => undefined);
}

/**
 * How a file is claimed: by itself (`claimFile`, counting the read that follows), or by a scan
 * with the files it hashed ahead (`scan-inbox.ts`).
 */
export type Claimer = (file: NewFile) => ClaimResult;

/** A candidate's row-to-be: its flow, the content its hash names, its name and size as the scan saw them. */
export function newFileOf(ctx: Pick<IntakeContext, 'flow' | 'clock'>, candidate: Candidate, sha256: string): NewFile {
  return { flow: ctx.flow.name, sha256, originalName: candidate.name, sizeBytes: candidate.size, now: ctx.clock() };
}

/**
 * Claim a complete file and process it. `changed` means the file changed (or left) while it was
 * taken; it stays where it is for the next scan. `hashed`: the candidate already opened and hashed
 * (`openAndHash`); the descriptor is closed here either way.
 */
export async function takeFile(
  ctx: IntakeContext,
  candidate: Candidate,
  hashed: Promise<HashedCandidate> = openAndHash(candidate, ctx.disk),
  claim?: Claimer,
): Promise<TakeOutcome> {
  const taken = await hashed;
  if (!taken.ok && taken.reason === 'missing') {
    fileLogger(ctx, candidate.name).debug('file left before it was opened');
    return 'changed';
  }
  if (!taken.ok) {
    // Swapped since the scan's lstat saw a regular file.
    await rejectUnclaimed(ctx, candidate, { code: 'FILE_NOT_REGULAR', message: `${candidate.name} is ${taken.what}; it was not read` });
    return 'rejected';
  }
  try {
    return await takeOpenedFile(
      ctx,
      candidate,
      taken,
      claim ?? ((file) => claimFile(ctx.db, file, (id, name) => processingPathOf(ctx.dirs, id, name), { readStarts: true })),
    );
  } finally {
    await taken.handle.close();
  }
}

/** Is the file still the one the scan saw, through its hash? If not, it is left for the next scan. */
export function hashedAsSeen(candidate: Candidate, { digest, after }: HashedFile): boolean {
  return digest.size === candidate.size && after.size === candidate.size && after.mtimeMs === candidate.mtimeMs;
}

async function takeOpenedFile(ctx: IntakeContext, candidate: Candidate, hashed: HashedFile, claimWith: Claimer): Promise<TakeOutcome> {
  const { handle, digest, after, premapped } = hashed;
  const log = fileLogger(ctx, candidate.name);
  if (!hashedAsSeen(candidate, hashed)) {
    log.debug('file changed while it was hashed; waiting');
    return 'changed';
  }
  const newFile = newFileOf(ctx, candidate, digest.sha256);
  // A new claim counts the read that follows it (one commit for both), as does an adopted one; a rejected row taken again counts it before the read.
  const claim = claimWith(newFile);
  let readCounted = claim.ok;
  let row: FileRecord | undefined;
  if (claim.ok) {
    row = claim.row;
  } else {
    // The earlier row may be a file of this scan still waiting for its group or its move.
    if (ctx.settleScan) await ctx.settleScan();
    const earlier = ctx.settleScan ? (findFileBySha256(ctx.db, ctx.flow.name, digest.sha256) ?? claim.existing) : claim.existing;
    if (earlier.state === 'rejected') {
      // The same content once rejected may come back after a mapping fix: take it again.
      row = reclaimRejectedFile(ctx.db, earlier.id, newFile, processingPathOf(ctx.dirs, earlier.id, candidate.name));
      if (row) log.info({ fileId: row.id }, 'file rejected before is taken again');
    } else if (earlier.state === 'processing' && !(await entryExists(processingPathOf(ctx.dirs, earlier.id, earlier.originalName)))) {
      // Our own claim, left by a crash before the rename into processing/: adopt it.
      adoptClaim(ctx.db, earlier.id, processingPathOf(ctx.dirs, earlier.id, candidate.name), candidate.name);
      row = { ...earlier, originalName: candidate.name };
      readCounted = true;
      log.info({ fileId: earlier.id }, 'file claimed before a restart is taken again');
    }
    if (!row) {
      await rejectUnclaimed(ctx, candidate, { code: 'FILE_DUPLICATE', message: duplicateMessage(candidate.name, earlier) }, digest.sha256);
      return 'duplicate';
    }
  }
  const processingPath = processingPathOf(ctx.dirs, row.id, row.originalName);
  if (processingPath !== candidate.path) {
    try {
      await ctx.disk.rename(candidate.path, processingPath);
    } catch (error) {
      if (!isMissing(error) || !claim.ok || (await entryExists(candidate.path))) throw error;
      // Gone between its claim and its rename (the ERP took it back): its new claim goes too, so no row waits for a file that will not come.
      unclaimFiles(ctx.db, [row.id]);
      log.debug({ fileId: row.id }, 'file left before it was moved into processing/; its claim dropped');
      return 'changed';
    }
  }
  if (path.dirname(candidate.path) === ctx.dirs.inbox) await removeMarkers(ctx, candidate.name);
  if (!(await holdsFile(processingPath, after, ctx.disk))) {
    // The name was pointed elsewhere between the open and the rename (a symlink to a credential,
    // a FIFO, another file): what now sits in processing/ was never checked, so it is not read.
    log.error({ fileId: row.id, code: 'FILE_NOT_REGULAR' }, 'file was replaced while it was taken; what reached processing/ is rejected unread');
    await rejectClaimedUnread(
      ctx,
      row,
      `${candidate.name} was replaced while it was being taken (what reached processing/ is not the file that was checked); it was not read`,
      'FILE_NOT_REGULAR',
      { key: 'replacedWhileTaken' },
    );
    return 'rejected';
  }
  log.info({ fileId: row.id, sha256: digest.sha256, size: candidate.size }, 'file taken');
  // A small file is mapped from the bytes it was hashed from (they are the claim's SHA-256).
  await processClaimedFile(ctx, row, handle, { size: after.size, mtimeMs: after.mtimeMs, bytes: digest.bytes, premapped }, { readCounted });
  return 'processed';
}
