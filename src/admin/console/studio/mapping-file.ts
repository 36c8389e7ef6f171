/**
 * A flow's mapping file as the mapping page reads and writes it. Saving checks the YAML first
 * (as `check` does), refuses when the file changed on disk since the page read it, keeps the
 * previous content as `<file>.<YYYYMMDD-HHMMSS>.bak` beside it (`-2`, `-3`… when that name is
 * taken; created with O_EXCL|O_NOFOLLOW, never over another file), and replaces the file with
 * the hardened atomic writer (same folder, fsync, rename, folder fsync), keeping its mode. A link
 * at the configured path is followed once, to the real file, so the link stays a link.
 *
 * In production the mappings live in /etc, which the unit's `ProtectSystem=strict` makes
 * read-only for the service: that is `MAPPING_NOT_WRITABLE`, saying what to do, and nothing is
 * written. The page asks the same question before anyone types (`writeProblem`).
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { ConnectorError } from '../../../errors.js';
import { localStamp } from '../../../shared/local-time.js';
import { writeFileAtomic } from '../../../shared/write-file-atomic.js';
import { checkMappingText, type MappingCheck } from './check-mapping.js';
import { MAX_EDITOR_BYTES } from './limits.js';

/** The file's content as the page shows it, and its version (SHA-256) for "changed since". */
export interface MappingFileText {
  file: string;
  text: string;
  version: string | null;
  /** Why it could not be read (the editor then starts empty). */
  error: string | null;
}

export type SaveResult =
  | { saved: true; file: string; backup: string | null; unchanged: boolean }
  | { saved: false; reason: 'invalid'; check: Extract<MappingCheck, { ok: false }> }
  | { saved: false; reason: 'changed'; message: string };

/** Errors that mean the daemon may not write there (permissions, a read-only mount, an immutable folder). */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);
const BACKUP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const BACKUP_TRIES = 20;

export function versionOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function readMappingText(flow: FlowConfig): Promise<MappingFileText> {
  try {
    const bytes = await fs.readFile(flow.mapping);
    if (bytes.length > MAX_EDITOR_BYTES)
      return { file: flow.mapping, text: '', version: versionOf(bytes), error: `is ${bytes.length} bytes, more than ${MAX_EDITOR_BYTES}` };
    return { file: flow.mapping, text: bytes.toString('utf8'), version: versionOf(bytes), error: null };
  } catch (error) {
    return { file: flow.mapping, text: '', version: null, error: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/** Why saving would fail before anyone tries (`MAPPING_NOT_WRITABLE`), or null. */
export async function writeProblem(flow: FlowConfig): Promise<ConnectorError | null> {
  const file = await realFile(flow.mapping);
  try {
    await fs.access(path.dirname(file), constants.W_OK);
    return null;
  } catch (error) {
    return writeError(error, file);
  }
}

/** Check `text` as the flow's mapping and, if it loads, write it over the file (see the module comment). */
export async function saveMappingFile(flow: FlowConfig, text: string, options: { version: string | null; now: number }): Promise<SaveResult> {
  const file = await realFile(flow.mapping);
  const check = checkMappingText(text, flow, file);
  if (!check.ok) return { saved: false, reason: 'invalid', check };
  const bytes = Buffer.from(text, 'utf8');
  let current: Buffer | null = null;
  let mode = 0o640;
  try {
    current = await fs.readFile(file);
    mode = (await fs.stat(file)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw writeError(error, file);
  }
  if (options.version !== null && current !== null && versionOf(current) !== options.version) {
    return {
      saved: false,
      reason: 'changed',
      message: `${file} changed on disk since the page read it: reload the page (your text is below) and apply your edits again`,
    };
  }
  if (current?.equals(bytes)) return { saved: true, file, backup: null, unchanged: true };

  const folder = path.dirname(file);
  let backup: string | null = null;
  try {
    if (current !== null) backup = await writeBackup(file, current, mode, options.now);
    await writeFileAtomic(folder, path.basename(file), bytes, { mode });
  } catch (error) {
    if (backup !== null) await fs.rm(backup, { force: true }).catch(() => undefined);
    throw writeError(error, file);
  }
  return { saved: true, file, backup, unchanged: false };
}

/**
 * A failed write as the operator needs to read it: `MAPPING_NOT_WRITABLE` with the way out when
 * the folder refuses writes, else `CONSOLE_ACTION_FAILED` with the errno. Nothing was saved.
 */
export function writeError(error: unknown, file: string): ConnectorError {
  const code = (error as NodeJS.ErrnoException).code;
  const folder = path.dirname(file);
  if (code !== undefined && NOT_WRITABLE.has(code)) {
    const why = code === 'EROFS' ? 'a read-only file system: the unit’s ProtectSystem=strict makes /etc read-only' : 'no permission';
    return new ConnectorError(
      'MAPPING_NOT_WRITABLE',
      `${folder} is not writable by the daemon (${code}, ${why}); nothing was saved. Either let the service write it ` +
        `(systemctl edit procurement-connector: [Service] ReadWritePaths=${folder}, and give the service user write access to the folder), ` +
        `or copy the YAML into ${file} yourself and run systemctl reload procurement-connector.`,
      { cause: error },
    );
  }
  return new ConnectorError('CONSOLE_ACTION_FAILED', `${file} could not be written (${code ?? (error as Error).message}); nothing was saved`, { cause: error });
}

/** `<file>.<YYYYMMDD-HHMMSS>.bak`, or `…-2.bak`, … when taken; never over an existing entry, never through a link. */
async function writeBackup(file: string, content: Buffer, mode: number, now: number): Promise<string> {
  const stamp = localStamp(now);
  let lastError: unknown;
  for (let n = 1; n <= BACKUP_TRIES; n += 1) {
    const name = `${file}.${stamp}${n === 1 ? '' : `-${n}`}.bak`;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(name, BACKUP_FLAGS, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      lastError = error;
      continue;
    }
    try {
      await handle.writeFile(content);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fs.rm(name, { force: true }).catch(() => undefined);
      throw error;
    }
    await handle.close();
    return name;
  }
  throw lastError;
}

/** The configured path with a final link followed once (the file a link points at is the one to replace). */
async function realFile(configured: string): Promise<string> {
  try {
    return await fs.realpath(configured);
  } catch {
    return path.resolve(configured);
  }
}
