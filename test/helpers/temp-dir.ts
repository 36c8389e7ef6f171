/** `withTempDir(fn)`: a real folder for the test, removed afterwards whatever happens. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function withTempDir<T>(fn: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pc-test-'));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
