/**
 * Atomic file write into a folder other people can write (an ERP import folder, `rejected/`): a
 * temp file in the same folder, write, fsync, rename over the final name, fsync the folder. The
 * reader sees either no file or the whole file; after the folder fsync the rename survives a power
 * cut.
 *
 * The temp file is the dangerous part, because anyone in the ERP's group can plant something at a
 * name they can guess: a symlink there would make us write through it (into our own SQLite file,
 * in the worst case), a FIFO would block the writer for ever. So the temp name carries a random
 * suffix, and it is opened with `O_CREAT|O_EXCL|O_NOFOLLOW|O_NONBLOCK`: the open succeeds only when
 * this call made the file itself, never follows a link and never waits on a FIFO. A name someone
 * else holds (`EEXIST`) is skipped for another random one. The final rename replaces whatever
 * entry holds the final name (a link is replaced, not followed); with `noClobber` (the export) a
 * file someone else put at the final name meanwhile is never replaced.
 *
 * `writeFilesAtomic` writes a group of files into one folder the same way, each file on its own,
 * and shares one folder fsync among them.
 */
import { randomUUID } from 'node:crypto';
import fsc, { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConnectorError } from '../errors.js';
import { MAX_NAME_BYTES, truncateUtf8 } from './file-name.js';
import { openRegularFile } from './input-file.js';

/** Hex characters of the temp name's random suffix: 48 bits, not guessable before the write. */
const SUFFIX_HEX = 12;
/** Bytes a temp name adds around the final name: `.` + name + `.` + suffix + `.tmp`. */
export const TEMP_NAME_EXTRA_BYTES = 1 + 1 + SUFFIX_HEX + '.tmp'.length;
/**
 * The longest final name (UTF-8 bytes) whose temp name still holds it whole within
 * `MAX_NAME_BYTES`. Names the daemon derives are fitted to this, so that the longest name it ever
 * creates, temp names included, is at most 255 bytes.
 */
export const MAX_TARGET_NAME_BYTES = MAX_NAME_BYTES - TEMP_NAME_EXTRA_BYTES;
/** Random names tried before giving up: each `EEXIST` means someone holds a name we drew. */
const TEMP_TRIES = 8;

// Linux has both flags; where one is missing (Windows) the value 0 leaves the open as it was.
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

export interface WriteFileAtomicOptions {
  /** Mode of a new file (before the umask). Default 0o644: the ERP's users read the files. */
  mode?: number;
  /**
   * Never replace a file someone else put at the final name: the temp file is published with
   * `link()` (which fails when the name is taken) instead of `rename()`. A file already there with
   * exactly these bytes is taken for our own earlier write (its `written` mark lost in a power
   * cut) and counts as written; any other entry there fails the file with `EEXIST`. Where the file
   * system has no hard links (some shares), the name is checked just before the rename instead.
   */
  noClobber?: boolean;
  /** The random part of the temp name; tests pass their own to plant things at the names it gives. */
  randomSuffix?: () => string;
}

/**
 * 48 random bits as hex: the last group of a version-4 UUID is random throughout, and
 * `randomUUID` draws from a buffered pool of the system's randomness instead of a call per name.
 */
const randomHex = (): string => randomUUID().slice(-SUFFIX_HEX);

/**
 * The temp name for `name` with `suffix`: `.<name>.<suffix>.tmp`, hidden (ERP include patterns
 * skip dot files) and ending `.tmp`. A final name longer than `MAX_TARGET_NAME_BYTES` is cut (at
 * a character boundary) in the temp name only, so the temp name always fits.
 */
export function tempNameFor(name: string, suffix: string): string {
  return `.${truncateUtf8(name, MAX_TARGET_NAME_BYTES)}.${suffix}.tmp`;
}

/**
 * Write `bytes` to `folder/name` atomically (see the module comment); creates `folder` when
 * missing. Returns the final path. On any failure the temp file is removed and the error (an
 * errno error: `EISDIR` when a folder holds the final name, …) is thrown as it came.
 */
export async function writeFileAtomic(folder: string, name: string, bytes: Buffer, options: WriteFileAtomicOptions = {}): Promise<string> {
  const [outcome] = await writeFilesAtomic(folder, [{ name, bytes }], options);
  if (!outcome!.ok) throw outcome!.error;
  return outcome!.path;
}

/** One file of a group. */
export interface FileToWrite {
  name: string;
  bytes: Buffer;
}

/** What became of one file of a group: its final path, or the error (an errno error, as it came). */
export type WriteOutcome = { ok: true; path: string } | { ok: false; error: unknown };

export interface WriteFilesAtomicOptions extends WriteFileAtomicOptions {
  /**
   * Files written at the same time, each on a thread of libuv's pool (4 threads by default, which
   * the store's fsync and every other file operation share). Default 2.
   */
  concurrency?: number;
  /** The caller made the folder already (the exporter, once a pass): no `mkdir` trip per group. */
  folderExists?: boolean;
}

/**
 * Write several files into one folder, each exactly as `writeFileAtomic` writes one (random temp
 * name opened `O_EXCL|O_NOFOLLOW|O_NONBLOCK`, write, fsync, rename), up to `concurrency` at a
 * time, then make all their renames durable with ONE folder fsync. What costs a power-safe file
 * is its fsyncs; a folder fsync per group instead of per file, and fsyncs that run side by side
 * (the file system commits them together), are what make a burst of files cheap.
 *
 * Never rejects: each file has its outcome, in the order given, and a failed file does not stop
 * the others (its temp file is removed). A file is `ok` only once the folder fsync after its
 * rename succeeded; when that fsync fails, every renamed file gets its error, since its rename may
 * not survive a power cut (the file is there, so writing it again under the same name with the
 * same bytes is harmless). The names must differ from each other.
 */
export async function writeFilesAtomic(folder: string, files: readonly FileToWrite[], options: WriteFilesAtomicOptions = {}): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = new Array<WriteOutcome>(files.length);
  try {
    if (!options.folderExists) await fs.mkdir(folder, { recursive: true });
  } catch (error) {
    return files.map(() => ({ ok: false, error }));
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      try {
        outcomes[index] = { ok: true, path: await writeAndRename(folder, file.name, file.bytes, options) };
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 2, files.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (outcomes.some((outcome) => outcome.ok)) {
    try {
      await syncFolder(folder);
    } catch (error) {
      return outcomes.map((outcome) => (outcome.ok ? { ok: false, error } : outcome));
    }
  }
  return outcomes;
}

/**
 * The per-file system calls, on plain descriptors: `fs.promises`' `FileHandle` costs more of the
 * event loop's time per call than the callback API (its object, its close tracking, a loop in
 * `writeFile`), and an export file is six calls (docs/performance.md, Export).
 */
const fd = {
  open: promisify(fsc.open),
  write: promisify(fsc.write),
  fsync: promisify(fsc.fsync),
  close: promisify(fsc.close),
  link: promisify(fsc.link),
  unlink: promisify(fsc.unlink),
  rename: promisify(fsc.rename),
};

/** Temp file, write, fsync, rename: the file is whole under its final name, not yet durably named. */
async function writeAndRename(folder: string, name: string, bytes: Buffer, options: WriteFileAtomicOptions): Promise<string> {
  const target = path.join(folder, name);
  const { descriptor, temp } = await openTemp(folder, name, options);
  try {
    try {
      await writeAll(descriptor, bytes);
      await fd.fsync(descriptor);
    } finally {
      await fd.close(descriptor);
    }
    if (options.noClobber) await publishWithoutClobbering(temp, target, bytes);
    else await fd.rename(temp, target);
  } catch (error) {
    await removeIfPresent(temp).catch(() => undefined);
    throw error;
  }
  return target;
}

/** Write all of `bytes` from the start of a new file (a write may take fewer bytes than given). */
async function writeAll(descriptor: number, bytes: Buffer): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten: written } = await fd.write(descriptor, bytes, done, bytes.length - done, done);
    // A write that takes nothing would loop for ever; the system reports no errno for it, so it is
    // given EIO's: transient, as a device that refuses bytes is (the write is tried again later).
    if (written === 0) {
      throw new ConnectorError('EXPORT_WRITE_FAILED', `EIO: the file system took no bytes at offset ${done}`, { details: { errno: 'EIO' } });
    }
    done += written;
  }
}

/** `link()` errors that mean "no hard links here", not "the name is taken". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Publish `temp` as `target` unless another file holds `target` (see `noClobber`); removes `temp`. */
async function publishWithoutClobbering(temp: string, target: string, bytes: Buffer): Promise<void> {
  try {
    await fd.link(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') {
      if (!(await holdsBytes(target, bytes))) throw nameTaken(target);
    } else if (NO_HARD_LINKS.has(code)) {
      if (await holdsBytes(target, bytes)) {
        // Our own earlier write: nothing to publish.
      } else if (await entryExists(target)) {
        throw nameTaken(target);
      } else {
        // No hard links on this file system: the check above and this rename leave a window of a
        // few microseconds, against one of hours between choosing a name and writing it.
        await fd.rename(temp, target);
        return;
      }
    } else {
      throw error;
    }
  }
  await removeIfPresent(temp);
}

/**
 * Remove a temp file of ours; one already gone is fine. `fs.rm` with `force` would do the same,
 * but it lstats the path twice before it unlinks: three trips through libuv's pool, not one, for
 * every export file.
 */
async function removeIfPresent(file: string): Promise<void> {
  try {
    await fd.unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The final name is someone else's: a permanent failure of this name, as the system's EEXIST is (`details.errno`). */
function nameTaken(target: string): ConnectorError {
  return new ConnectorError(
    'EXPORT_WRITE_FAILED',
    `EEXIST: ${path.basename(target)} is taken by something the daemon did not write (a file, a folder, a link); it is not replaced`,
    { details: { errno: 'EEXIST' } },
  );
}

async function entryExists(target: string): Promise<boolean> {
  try {
    await fs.lstat(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Is `target` a regular file holding exactly `bytes`? Opened as every input is (no link followed, no FIFO waited on). */
async function holdsBytes(target: string, bytes: Buffer): Promise<boolean> {
  const opened = await openRegularFile(target).catch(() => null);
  if (!opened?.ok) return false;
  try {
    if (opened.stat.size !== bytes.length) return false;
    const held = Buffer.alloc(bytes.length);
    const { bytesRead } = await opened.handle.read(held, 0, bytes.length, 0);
    return bytesRead === bytes.length && held.equals(bytes);
  } finally {
    await opened.handle.close();
  }
}

/** A temp name this module makes: `.<name>.<12 hex>.tmp`. */
const TEMP_NAME = new RegExp(`^\\..+\\.[0-9a-f]{${SUFFIX_HEX}}\\.tmp$`);

/**
 * Remove our own temp files older than `olderThanMs` from `folder` (regular files named as
 * `tempNameFor` names them; nothing is followed): what a crash between a temp file's write and
 * its rename (or, with `noClobber`, between the link and the removal of the temp name) left
 * behind. They are hidden from ERP patterns, but they would pile up. Returns how many went;
 * a folder that is missing or unreadable is nothing to sweep.
 */
export async function removeStaleTempFiles(folder: string, olderThanMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const entry = path.join(folder, name);
    try {
      const stat = await fs.lstat(entry);
      if (!stat.isFile() || now - stat.mtimeMs < olderThanMs) continue;
      await fs.rm(entry);
      removed += 1;
    } catch {
      // Gone meanwhile, or not ours to remove: left alone.
    }
  }
  return removed;
}

/** Create a temp file no one else made: a fresh random name per try, `EEXIST` means try again. */
async function openTemp(folder: string, name: string, options: WriteFileAtomicOptions): Promise<{ descriptor: number; temp: string }> {
  const suffix = options.randomSuffix ?? randomHex;
  let lastError: unknown;
  for (let i = 0; i < TEMP_TRIES; i += 1) {
    const temp = path.join(folder, tempNameFor(name, suffix()));
    try {
      return { descriptor: await fd.open(temp, TEMP_FLAGS, options.mode ?? 0o644), temp };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      lastError = error;
    }
  }
  throw lastError;
}

async function syncFolder(folder: string): Promise<void> {
  // O_DIRECTORY: a FIFO swapped in for the folder fails at once instead of blocking the open.
  const dir = await fs.open(folder, FOLDER_FLAGS);
  try {
    await dir.sync();
  } catch (error) {
    // Some filesystems (SMB/CIFS shares) refuse fsync on a directory; the rename itself is done.
    if (!['EINVAL', 'EPERM', 'EISDIR', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await dir.close();
  }
}
