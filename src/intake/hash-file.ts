/** Streamed SHA-256 of an opened input file, read from byte 0 (the descriptor is then mapped as is). */
import { createHash } from 'node:crypto';
import { READ_CHUNK_BYTES, type InputHandle } from '../shared/input-file.js';
import { POOLED_DISK, type DiskCalls } from '../shared/disk-calls.js';

export interface FileDigest {
  sha256: string;
  /** Bytes actually read: compared with the size the stability check saw. */
  size: number;
  /**
   * The whole file as hashed, when it was read in one read (`expectedSize` up to `READ_CHUNK_BYTES`):
   * a small file is then mapped from these very bytes, not read again (`OpenedInput.bytes`).
   */
  bytes?: Buffer;
}

export interface HashOptions {
  /**
   * The size the stability check saw: reading stops there, which spares a small file its second
   * read (the one that finds the end). The caller must then fstat the file and find it still that
   * size, so that bytes appended meanwhile are a changed file, never a shorter hash.
   */
  expectedSize?: number;
  /**
   * How the inbox's disk is called (`shared/disk-calls.ts`): a file read in one read is read
   * through `disk.readOnce` (synchronously on a local disk); a larger one always through the pool,
   * a chunk at a time, so that hashing it lets the event loop run between its reads.
   */
  disk?: DiskCalls;
}

export async function hashFile(handle: InputHandle, { expectedSize, disk = POOLED_DISK }: HashOptions = {}): Promise<FileDigest> {
  const hash = createHash('sha256');
  // One buffer for every read: `update` is done with a chunk before the next read. A fresh buffer
  // per read made hashing a large file hold tens of MB of spent buffers (V8 collects them only
  // when their external memory adds up, and hashing allocates next to nothing else on the heap).
  const buffer = Buffer.allocUnsafe(expectedSize === undefined ? READ_CHUNK_BYTES : Math.max(1, Math.min(READ_CHUNK_BYTES, expectedSize)));
  const read = expectedSize !== undefined && expectedSize <= READ_CHUNK_BYTES ? disk.readOnce : POOLED_DISK.readOnce;
  let size = 0;
  let reads = 0;
  for (;;) {
    const length = expectedSize === undefined ? buffer.length : Math.min(buffer.length, expectedSize - size);
    if (length <= 0) break;
    const bytesRead = await read(handle, buffer, length, size);
    if (bytesRead === 0) break;
    size += bytesRead;
    reads += 1;
    hash.update(buffer.subarray(0, bytesRead));
  }
  // One read filled the buffer from byte 0: it holds the whole file (a buffer reused for a second read would not).
  const whole = reads === 1 && expectedSize !== undefined && size === expectedSize;
  return { sha256: hash.digest('hex'), size, ...(whole ? { bytes: buffer.subarray(0, size) } : {}) };
}
