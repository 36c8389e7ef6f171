/** Streamed SHA-256 of an opened input file, read from byte 0 (the descriptor is then mapped as is). */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { readChunks } from '../shared/input-file.js';

export interface FileDigest {
  sha256: string;
  /** Bytes actually read: compared with the size the stability check saw. */
  size: number;
}

export async function hashFile(handle: FileHandle, signal?: AbortSignal): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of readChunks(handle, signal)) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { sha256: hash.digest('hex'), size };
}
