/**
 * The operator's "take again" (the console): a rejected file, once its mapping was fixed, goes back
 * into the inbox under its original name, and the next scans take it like any new file. Its row
 * stays `rejected` until then; the claim finds that row by the content's SHA-256 and takes it back
 * (`reclaimRejectedFile`), so the file keeps its id and its history.
 *
 * `rejected/` is written by other people too, so nothing there is trusted: the entry must still be
 * a regular file (lstat, no symlink followed) inside this flow's `rejected/`, and the move never
 * replaces an entry of the inbox: a hard link to a free name (EEXIST tries the next), then the old
 * name is removed; where the share has no hard links, a rename to a name checked free just before.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConnectorError } from '../errors.js';
import type { MessageText } from '../shared/types.js';
import { escapeControlCharacters } from '../platform/contract.js';
import { fitFileName, MAX_NAME_BYTES } from '../shared/file-name.js';
import { getFile, markReportWritten } from '../store/files.js';
import { isUnsafeName, markerNamesFor } from './inbox-names.js';
import { entryExists, fileLogger, isMissing, type IntakeContext } from './intake-context.js';
import { REPORT_SUFFIX, reportNameFor } from './report-files.js';

export interface RetakeOutcome {
  fileId: number;
  /** The name the file got in the inbox (its original name, or `name-2.csv` when that was taken). */
  inboxName: string;
}

/**
 * Names tried in the inbox: the original, then `stem-2.ext`, `stem-3.ext`… An exchange message
 * keeps a name the exchange takes and 1C never writes over (1C replaces only its own exact name):
 * `Message_2_<peer>_<node>.xml`, the form 1C itself writes with an infobase prefix.
 */
function candidateName(original: string, n: number): string {
  if (n === 1) return original;
  if (original.startsWith('Message_')) return fitFileName(`Message_${n}${original.slice('Message'.length)}`, MAX_NAME_BYTES);
  const ext = path.extname(original);
  return fitFileName(`${original.slice(0, original.length - ext.length)}-${n}${ext}`, MAX_NAME_BYTES);
}

const MAX_NAME_TRIES = 100;

/** A refusal: the sentence for the log, and its key for the console (`details.text`). */
function refused(message: string, details: Record<string, unknown>, text: MessageText): ConnectorError {
  return new ConnectorError('CONSOLE_ACTION_FAILED', message, { details: { ...details, text } });
}

/** Move rejected file `fileId` of this flow back into the inbox. Throws `CONSOLE_ACTION_FAILED` saying why it cannot. */
export async function retakeRejectedFile(ctx: IntakeContext, fileId: number): Promise<RetakeOutcome> {
  const row = getFile(ctx.db, fileId);
  if (!row || row.flow !== ctx.flow.name)
    throw refused(`File ${fileId} is not a file of flow ${ctx.flow.name}`, { fileId }, { key: 'retakeNoFile', params: { id: fileId } });
  if (row.state !== 'rejected')
    throw refused(
      `File ${fileId} (${row.originalName}) is ${row.state}, not rejected: there is nothing to take again`,
      { fileId },
      { key: 'retakeNotRejected', params: { name: row.originalName } },
    );
  const from = row.currentPath;
  if (!from || path.dirname(from) !== ctx.dirs.rejected) {
    throw refused(
      `File ${fileId} (${row.originalName}) is not in ${ctx.dirs.rejected}; drop it into the inbox by hand`,
      { fileId, path: from },
      { key: 'retakeGone', params: { name: row.originalName } },
    );
  }
  if (isUnsafeName(row.originalName)) {
    throw refused(
      `File ${fileId} has an unsafe name "${escapeControlCharacters(row.originalName)}"`,
      { fileId },
      { key: 'retakeUnsafeName', params: { id: fileId } },
    );
  }
  let stat;
  try {
    stat = await fs.lstat(from);
  } catch (error) {
    if (isMissing(error)) {
      throw refused(
        `File ${fileId} (${row.originalName}) is no longer in rejected/ (${from})`,
        { fileId, path: from },
        { key: 'retakeGone', params: { name: row.originalName } },
      );
    }
    throw error;
  }
  if (!stat.isFile())
    throw refused(
      `${from} is not a regular file any more; it was not moved`,
      { fileId, path: from },
      { key: 'retakeNotRegular', params: { name: row.originalName } },
    );

  const inboxName = await moveIntoInbox(ctx, from, row.originalName);
  const log = fileLogger(ctx, row.originalName);
  // The reports beside it described the old mapping's verdict; the next one is written when the file is taken.
  for (const suffix of Object.values(REPORT_SUFFIX)) {
    await fs.rm(path.join(ctx.dirs.rejected, reportNameFor(path.basename(from), suffix)), { force: true }).catch((error: unknown) => {
      log.warn({ fileId, err: error }, 'an old report of a file taken again could not be removed');
    });
  }
  if (row.reportPending === 1) markReportWritten(ctx.db, row.id);
  const mode = ctx.flow.intake.doneMarker;
  if (mode !== 'none') await fs.writeFile(path.join(ctx.dirs.inbox, markerNamesFor(inboxName, mode)[0]!), '', { flag: 'wx' }).catch(() => undefined);
  log.info({ fileId, from, to: inboxName }, 'rejected file moved back into the inbox to be taken again');
  return { fileId, inboxName };
}

async function moveIntoInbox(ctx: IntakeContext, from: string, originalName: string): Promise<string> {
  for (let n = 1; n <= MAX_NAME_TRIES; n += 1) {
    const name = candidateName(originalName, n);
    const to = path.join(ctx.dirs.inbox, name);
    try {
      await fs.link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
      // No hard links on this share: rename, to a name found free just before.
      if (await entryExists(to)) continue;
      await fs.rename(from, to);
      return name;
    }
    await fs.unlink(from);
    return name;
  }
  throw refused(
    `No free name for ${originalName} in ${ctx.dirs.inbox} after ${MAX_NAME_TRIES} tries`,
    { path: from },
    { key: 'retakeNoName', params: { name: originalName } },
  );
}
