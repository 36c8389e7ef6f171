/**
 * The mapper reads an opened file (positional reads from byte 0), so a sample's bytes are handed
 * to it in a private temp file: a random name in the temp folder, created with
 * O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 (never a file or link someone planted there), unlinked
 * as soon as it is open, so nothing is left behind even if the process dies mid-preview.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OpenedInput } from '../../../shared/input-file.js';
import type { Sample } from './samples.js';

const FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Run `fn` with `sample` as an opened file named like the sample (its extension picks the format). */
export async function withSampleFile<T>(sample: Sample, fn: (input: OpenedInput) => Promise<T>): Promise<T> {
  const temp = path.join(os.tmpdir(), `.pc-console-sample-${randomBytes(12).toString('hex')}`);
  const handle = await fs.open(temp, FLAGS, 0o600);
  try {
    await fs.unlink(temp);
    await handle.writeFile(sample.bytes);
    return await fn({ handle, name: sample.name });
  } finally {
    await handle.close();
  }
}
