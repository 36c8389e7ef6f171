/**
 * A file system whose write takes no bytes and reports no error (a full or failing device can do
 * it): the writer must not loop for ever, and says so with a stable code and EIO's transient errno,
 * leaving no temp file behind. `node:fs`'s `write` is replaced for this file only.
 */
import fs from 'node:fs';
import type * as NodeFs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof NodeFs>();
  const { promisify } = await import('node:util');
  const takesNothing = (...args: unknown[]): void => {
    const callback = args.at(-1) as (error: null, written: number, buffer: unknown) => void;
    process.nextTick(callback, null, 0, args[1]);
  };
  // Through the event loop, as a real write is: a writer that looped on it would meet the test's timeout.
  const takesNothingLater = (_fd: number, buffer: unknown) => new Promise((resolve) => setImmediate(resolve, { bytesWritten: 0, buffer }));
  Object.assign(takesNothing, { [promisify.custom]: takesNothingLater });
  const mocked = { ...real, write: takesNothing };
  return { ...mocked, default: mocked };
});

const { writeFileAtomic } = await import('../../src/shared/write-file-atomic.js');

describe('writeFileAtomic when a write takes no bytes', () => {
  it('fails with EXPORT_WRITE_FAILED (errno EIO) at once, and leaves no temp file', async () => {
    await withTempDir(async (folder) => {
      await expect(writeFileAtomic(folder, 'status-1.csv', Buffer.from('orderId;status\n'))).rejects.toMatchObject({
        code: 'EXPORT_WRITE_FAILED',
        details: { errno: 'EIO' },
      });
      expect(fs.readdirSync(folder)).toEqual([]);
    });
  });
});
