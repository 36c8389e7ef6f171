/**
 * One entry's bytes, inflated as the consumer asks for them, with the compressed side read into a
 * few buffers that are reused instead of a fresh one per read.
 *
 * Why not yauzl's own read stream: it reads the compressed data into a new buffer per read and
 * pipes it into zlib, which holds each input buffer until all of its output has been taken. A
 * sheet's rows are taken slowly (each is mapped before the next), so every compressed buffer
 * outlived a few young collections, was promoted, and waited for a full collection to be freed:
 * on a large sheet that was tens of MB of dead buffers at the peak. Reused, the compressed side
 * costs a fixed 64 KiB.
 *
 * yauzl still reads the directory, finds each entry and checks its declared sizes; this reads
 * the entry's data range (after its local header) and holds the entry to its declared size as
 * yauzl does: more bytes than declared is refused at once (a zip bomb that lies about its
 * sizes), fewer is a damaged entry.
 */
import zlib from 'node:zlib';
import { ConnectorError } from '../../../errors.js';
import { readFully, type InputHandle } from '../../../shared/input-file.js';

/** Compressed bytes per read, and how many such buffers take turns. */
const READ_BYTES = 16 * 1024;
const BUFFERS = 4;
const INFLATED_CHUNK_BYTES = 16 * 1024;
const LOCAL_HEADER_BYTES = 30;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;

export interface EntryLocation {
  fileName: string;
  relativeOffsetOfLocalHeader: number;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
}

/**
 * An entry that inflates past its declared size (a zip bomb that lies), and a damaged entry: each
 * container reader words them its own way (`archiveError`, `zipError`), telling them apart by
 * `details.zip`.
 */
function tooManyBytes(): ConnectorError {
  return new ConnectorError('ARCHIVE_LIMIT_EXCEEDED', 'too many bytes in the stream', { details: { zip: 'inflates past its size' } });
}

function damaged(message: string): ConnectorError {
  return new ConnectorError('FILE_UNREADABLE', message, { details: { zip: 'damaged' } });
}

/** Where the entry's data starts: past its local header, whose name and extra field lengths are its own. */
export async function dataStart(handle: InputHandle, entry: EntryLocation): Promise<number> {
  const header = Buffer.alloc(LOCAL_HEADER_BYTES);
  const bytesRead = await readFully(handle, header, 0, LOCAL_HEADER_BYTES, entry.relativeOffsetOfLocalHeader);
  if (bytesRead < LOCAL_HEADER_BYTES || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) {
    throw damaged(`invalid local file header signature for ${entry.fileName}`);
  }
  return entry.relativeOffsetOfLocalHeader + LOCAL_HEADER_BYTES + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** An encrypted entry's data: `skip` bytes of encryption header first, then bytes `decrypt` turns plain, in order. */
export interface EntryCipher {
  skip: number;
  decrypt(bytes: Buffer): void;
}

/**
 * The entry's inflated chunks. Nothing is read or inflated ahead of the consumer by more than the
 * inflater's own buffer; leaving the loop early stops both. `count` sees every inflated chunk.
 * `cipher`, for an encrypted entry, deciphers the compressed bytes as they are read.
 */
export async function* inflateEntry(
  handle: InputHandle,
  entry: EntryLocation,
  count: (bytes: number) => void,
  signal: AbortSignal,
  cipher?: EntryCipher,
): AsyncGenerator<Buffer> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw damaged(`unsupported compression method ${entry.compressionMethod}`);
  const skip = cipher?.skip ?? 0;
  if (entry.compressedSize < skip) throw damaged('encrypted entry shorter than its encryption header');
  const start = (await dataStart(handle, entry)) + skip;
  const end = start + entry.compressedSize - skip;
  // Checked before anything inflates (as yauzl's own reader does): otherwise whether the inflater
  // finishes the data it has before the read past the end fails would decide the outcome.
  if (end > (await handle.stat()).size) throw damaged(`the data of ${entry.fileName} runs past the end of the file`);
  if (entry.compressionMethod === 0) {
    if (entry.compressedSize - skip !== entry.uncompressedSize) throw damaged('stored entry sizes do not match');
    for (let position = start; position < end;) {
      signal.throwIfAborted();
      const chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, end - position));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) throw damaged('unexpected EOF');
      position += bytesRead;
      const read = chunk.subarray(0, bytesRead);
      cipher?.decrypt(read);
      count(bytesRead);
      yield read;
    }
    return;
  }

  const inflate = zlib.createInflateRaw({ chunkSize: INFLATED_CHUNK_BYTES });
  const abort = () => inflate.destroy(signal.reason as Error);
  signal.addEventListener('abort', abort, { once: true });
  const free = Array.from({ length: BUFFERS }, () => Buffer.allocUnsafe(READ_BYTES));
  let waitingForBuffer: (() => void) | undefined;
  let feedError: unknown;
  // The feeder reads the next compressed piece only into a buffer zlib is done with.
  const feeding = (async () => {
    for (let position = start; position < end && !inflate.destroyed;) {
      while (free.length === 0 && !inflate.destroyed) await new Promise<void>((resolve) => (waitingForBuffer = resolve));
      if (inflate.destroyed) return;
      const buffer = free.pop()!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(READ_BYTES, end - position), position);
      if (bytesRead === 0) throw damaged('unexpected EOF');
      position += bytesRead;
      const read = buffer.subarray(0, bytesRead);
      cipher?.decrypt(read);
      inflate.write(read, () => {
        free.push(buffer);
        const wake = waitingForBuffer;
        waitingForBuffer = undefined;
        wake?.();
      });
    }
    if (!inflate.destroyed) inflate.end();
  })().catch((error: unknown) => {
    feedError = error;
    inflate.destroy(error as Error);
  });

  let inflated = 0;
  try {
    for await (const chunk of inflate) {
      inflated += (chunk as Buffer).length;
      if (inflated > entry.uncompressedSize) throw tooManyBytes();
      count((chunk as Buffer).length);
      // Handed over through a box emptied as it is read: this frame, suspended at the yield, must
      // not keep the chunk alive while the consumer works through it.
      const box: Buffer[] = [chunk as Buffer];
      yield box.pop()!;
    }
    if (feedError !== undefined) throw feedError;
    if (inflated < entry.uncompressedSize) throw damaged(`expected ${entry.uncompressedSize} bytes, got ${inflated}`);
  } finally {
    signal.removeEventListener('abort', abort);
    inflate.destroy();
    waitingForBuffer?.();
    await feeding;
  }
}
