/** Streamed SHA-256 of an opened input file, read from byte 0 (the descriptor is then mapped as is). */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { READ_CHUNK_BYTES } from '../shared/input-file.js';

export interface FileDigest {
  sha256: string;
  /** Bytes actually read: compared with the size the stability check saw. */
  size: number;
}

export async function hashFile(handle: FileHandle, signal?: AbortSignal): Promise<FileDigest> {
  const hash = createHash('sha256');
  // One buffer for every read: `update` is done with a chunk before the next read. A fresh buffer
  // per read made hashing a large file hold tens of MB of spent buffers (V8 collects them only
  // when their external memory adds up, and hashing allocates next to nothing else on the heap).
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let size = 0;
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, size);
    if (bytesRead === 0) break;
    size += bytesRead;
    hash.update(buffer.subarray(0, bytesRead));
  }
  return { sha256: hash.digest('hex'), size };
}
