/**
 * Samples for the mapping page from a flow's archive: the newest files the daemon took and
 * archived (`<inbox>/archive/YYYY-MM-DD/`), and their bytes. A sample is named by an id the page
 * listed itself (`archive:2026-06-12/requests-0612.csv`) and is read only while that name is still
 * in its day folder: never a path a user typed.
 *
 * Other people write the inbox, so this reads it as intake does: a day folder that is a symlink is
 * skipped, the file is opened with O_NOFOLLOW|O_NONBLOCK and read only if it is a regular file, and
 * (on Linux) the descriptor's real path must lie inside the archive, which catches a folder swapped
 * for a link between the listing and the open. At most `MAX_SAMPLE_BYTES` are read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConnectorError } from '../../../errors.js';
import { INBOX_DIRS, isArchiveDayName } from '../../../shared/inbox-layout.js';
import { openRegularFile, type InputHandle } from '../../../shared/input-file.js';
import { ARCHIVE_SAMPLES, MAX_SAMPLE_BYTES } from './limits.js';

export interface SampleInfo {
  /** `archive:<day>/<name>` or `upload:<random>`: what the page's forms send back. */
  id: string;
  source: 'archive' | 'upload';
  /** The file's name: its extension picks the format (CSV, JSON, NDJSON, XLSX, XML), as in the inbox. */
  name: string;
  sizeBytes: number;
  /** ISO 8601: the file's modification time, or when the upload arrived. */
  at: string;
}

export interface Sample extends SampleInfo {
  bytes: Buffer;
}

/** What the intake leaves beside an archived file (its report, its done-marker) is not a sample. */
const NOT_A_SAMPLE = /\.(errors\.json|errors\.csv|done|ok)$/i;
const ARCHIVE_ID = /^archive:(\d{4}-\d{2}-\d{2})\/([^/\\\0]+)$/;

export function archiveSampleId(day: string, name: string): string {
  return `archive:${day}/${name}`;
}

/** The newest archived files of `inbox`: by day folder, newest first, then by modification time. */
export async function listArchiveSamples(inbox: string, limit = ARCHIVE_SAMPLES): Promise<SampleInfo[]> {
  const archive = path.join(inbox, INBOX_DIRS.archive);
  if (!(await isRealFolder(archive))) return [];
  const days = (await fs.readdir(archive).catch(() => [] as string[])).filter(isArchiveDayName).sort().reverse();
  const found: SampleInfo[] = [];
  for (const day of days) {
    if (found.length >= limit) break;
    const folder = path.join(archive, day);
    if (!(await isRealFolder(folder))) continue;
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    const files: SampleInfo[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !isSampleName(entry.name)) continue;
      const stat = await fs.lstat(path.join(folder, entry.name)).catch(() => null);
      if (!stat?.isFile()) continue;
      files.push({ id: archiveSampleId(day, entry.name), source: 'archive', name: entry.name, sizeBytes: stat.size, at: stat.mtime.toISOString() });
    }
    files.sort((a, b) => b.at.localeCompare(a.at) || a.name.localeCompare(b.name));
    found.push(...files.slice(0, limit - found.length));
  }
  return found;
}

/**
 * The bytes of archived sample `id` of `inbox`. Throws `FILE_UNREADABLE` when the id names nothing
 * in the archive (any more), `FILE_NOT_REGULAR` for a link or a FIFO, `FILE_TOO_LARGE` past the cap.
 */
export async function readArchiveSample(inbox: string, id: string): Promise<Sample> {
  const match = ARCHIVE_ID.exec(id);
  const gone = () => new ConnectorError('FILE_UNREADABLE', `${id.slice(0, 300)} is not in the archive of this flow (any more)`);
  if (!match || !isSampleName(match[2]!)) throw gone();
  const [, day, name] = match as unknown as [string, string, string];
  const archive = path.join(inbox, INBOX_DIRS.archive);
  const folder = path.join(archive, day);
  if (!(await isRealFolder(archive)) || !(await isRealFolder(folder))) throw gone();
  // Only a name the folder holds now: the id can never walk elsewhere.
  if (!(await fs.readdir(folder)).includes(name)) throw gone();
  const opened = await openRegularFile(path.join(folder, name));
  if (!opened.ok && opened.reason === 'missing') throw gone();
  if (!opened.ok && opened.reason === 'not-regular') throw new ConnectorError('FILE_NOT_REGULAR', `${name} is ${opened.what}; it was not read`);
  const { handle, stat } = opened;
  try {
    if (!(await liesInside(handle, archive)))
      throw new ConnectorError('FILE_NOT_REGULAR', `${name} was reached through a link out of the archive; it was not read`);
    const bytes = await readAtMost(handle, MAX_SAMPLE_BYTES);
    if (bytes === null || stat.size > MAX_SAMPLE_BYTES) throw tooLarge(name, Math.max(stat.size, MAX_SAMPLE_BYTES + 1));
    return { id, source: 'archive', name, sizeBytes: bytes.length, at: stat.mtime.toISOString(), bytes };
  } finally {
    await handle.close();
  }
}

export function tooLarge(name: string, size: number): ConnectorError {
  return new ConnectorError(
    'FILE_TOO_LARGE',
    `${name} is ${size} bytes; the mapping page reads samples of up to ${MAX_SAMPLE_BYTES} bytes (use \`preview\` for larger files)`,
  );
}

function isSampleName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !NOT_A_SAMPLE.test(name);
}

/** A folder itself, not a link to one. */
async function isRealFolder(folder: string): Promise<boolean> {
  const stat = await fs.lstat(folder).catch(() => null);
  return stat?.isDirectory() ?? false;
}

/** Where the open descriptor really is (Linux's /proc), inside `folder`; true where /proc cannot say. */
async function liesInside(handle: InputHandle, folder: string): Promise<boolean> {
  let real: string;
  try {
    real = await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return true;
  }
  const root = await fs.realpath(folder);
  return real.startsWith(`${root}${path.sep}`);
}

/** Up to `limit` bytes from byte 0; null when the file holds more (it may have grown since its stat). */
async function readAtMost(handle: InputHandle, limit: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(limit + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled > limit ? null : buffer.subarray(0, filled);
}
