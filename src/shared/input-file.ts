/**
 * An input file opened once and read through that one descriptor. The folders an ERP writes are
 * writable by other people: a name checked a moment ago may now be a symlink to a credential or a
 * FIFO. So a file is opened with `O_NOFOLLOW` (a symlink is refused, never followed) and
 * `O_NONBLOCK` (a FIFO cannot block the open), then `fstat`ed: only a regular file is read. Reads
 * are positional from byte 0, so hashing and mapping the same descriptor see the same bytes, and
 * the descriptor stays open until its owner closes it (a stream of `FileHandle.createReadStream`
 * closes the handle when it is destroyed early, which is why it is not used here).
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ConnectorError } from '../errors.js';
import { POOLED_DISK, type DiskCalls, type InputHandle } from './disk-calls.js';

export type { InputHandle } from './disk-calls.js';

/** An input file already opened by the caller, who also closes it. */
export interface OpenedInput {
  handle: InputHandle;
  /** The file's name: its extension picks the format, and it names the file in messages. */
  name: string;
  /**
   * The file's whole content, read from `handle` by the caller (the intake's hash of a small file):
   * the container sniff and a small CSV take it from here instead of reading again. Only ever the
   * bytes of this descriptor from byte 0 to its end as it was then.
   */
  bytes?: Buffer | undefined;
}

/** Flags of every open of an input file. */
export const INPUT_OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

export type OpenResult =
  | { ok: true; handle: InputHandle; stat: Stats }
  /** Something other than a regular file; `what` says what, for the report (`a symbolic link`). */
  | { ok: false; reason: 'not-regular'; what: string }
  | { ok: false; reason: 'missing' };

/** The kind of a non-regular entry in words, for reports and logs. */
export function describeEntry(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isBlockDevice() || stat.isCharacterDevice()) return 'a device';
  return stat.isFile() ? 'a regular file' : 'not a regular file';
}

/**
 * Open `filePath` for reading if, and only if, it is a regular file. Returns a result instead of
 * throwing for the cases a hostile folder produces; other errors (EACCES, EIO) are thrown.
 */
export async function openRegularFile(filePath: string, disk: DiskCalls = POOLED_DISK): Promise<OpenResult> {
  let handle: InputHandle;
  try {
    handle = await disk.open(filePath, INPUT_OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing' };
    // O_NOFOLLOW on a symlink fails with ELOOP; opening a Unix socket fails with ENXIO.
    if (code === 'ELOOP') return { ok: false, reason: 'not-regular', what: 'a symbolic link' };
    if (code === 'ENXIO') return { ok: false, reason: 'not-regular', what: 'a socket' };
    throw error;
  }
  try {
    const stat = await disk.fstat(handle);
    if (stat.isFile()) return { ok: true, handle, stat };
    await handle.close();
    return { ok: false, reason: 'not-regular', what: describeEntry(stat) };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A system error reading an input file (`EIO`, `EACCES`), as the file's `FILE_UNREADABLE`: the
 * error's code is data, and the console words the rest.
 */
export function cannotReadFile(error: unknown): ConnectorError {
  const errno = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new ConnectorError('FILE_UNREADABLE', `cannot be read: ${errno}`, { cause: error, text: { key: 'cannotRead', params: { errno } } });
}

/** `openRegularFile` for `mapFile` and `preview`: anything but a regular file is a `ConnectorError`. */
export async function openInputFile(filePath: string): Promise<InputHandle> {
  let opened: OpenResult;
  try {
    opened = await openRegularFile(filePath);
  } catch (error) {
    throw cannotReadFile(error);
  }
  if (opened.ok) return opened.handle;
  if (opened.reason === 'missing') throw cannotReadFile(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }));
  throw new ConnectorError('FILE_NOT_REGULAR', `is ${opened.what}; it was not read`, { text: { key: 'notRegularFile' } });
}

/** Default size of one read. */
export const READ_CHUNK_BYTES = 256 * 1024;

/** The bytes of an opened file from position 0, chunk by chunk; never closes the handle. */
export async function* readChunks(handle: InputHandle, signal?: AbortSignal, chunkBytes = READ_CHUNK_BYTES): AsyncGenerator<Buffer> {
  let position = 0;
  for (;;) {
    signal?.throwIfAborted();
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield bytesRead === chunkBytes ? buffer : buffer.subarray(0, bytesRead);
  }
}

/**
 * `readChunks` as a byte stream, for pipelines (decode → csv-parse, readline): reads of
 * `readBytes`, with up to `READ_CHUNK_BYTES` read ahead while the consumer works.
 */
export function readStreamOf(handle: InputHandle, signal?: AbortSignal, readBytes = READ_CHUNK_BYTES): Readable {
  return Readable.from(readChunks(handle, signal, readBytes), { objectMode: false, highWaterMark: READ_CHUNK_BYTES });
}

/**
 * Read `length` bytes at `position`, or up to the end of the file: a read may return fewer bytes
 * than asked without being at the end (POSIX allows it), and yauzl and the header checks take a
 * short count for a truncated file. The count read is returned; less than `length` is the end.
 */
export async function readFully(handle: InputHandle, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, offset + done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}
