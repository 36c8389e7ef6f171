/** Streamed SHA-256 of a file, opened without following a symlink swapped in after the lstat. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export interface FileDigest {
  sha256: string;
  /** Bytes actually read: compared with the size the stability check saw. */
  size: number;
}

export async function hashFile(filePath: string, signal?: AbortSignal): Promise<FileDigest> {
  const handle = await fs.promises.open(filePath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, signal }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
    }
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest('hex'), size };
}
