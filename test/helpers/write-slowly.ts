/** `writeSlowly`: append chunks to a file with a pause between them, like an ERP exporting over SMB. */
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SlowWriteOptions {
  /** Pause between chunks. Default 100 ms. */
  intervalMs?: number;
  /** Called after each chunk is on disk (index from 0), e.g. to assert the file was not taken yet. */
  afterChunk?: (index: number) => Promise<void> | void;
  signal?: AbortSignal;
}

export async function writeSlowly(file: string, chunks: readonly string[], options: SlowWriteOptions = {}): Promise<void> {
  const handle = await fs.open(file, 'a');
  try {
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) await sleep(options.intervalMs ?? 100, undefined, { signal: options.signal });
      await handle.appendFile(chunk);
      await handle.datasync();
      await options.afterChunk?.(index);
    }
  } finally {
    await handle.close();
  }
}
