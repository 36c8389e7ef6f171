/** `readFully`: a read that returns fewer bytes than asked is not the end of the file. */
import type { FileHandle } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readFully } from '../../src/shared/input-file.js';

/** A handle over `bytes` whose every read returns at most `most` bytes, as a pipe or FUSE file may. */
function stingyHandle(bytes: Buffer, most: number): FileHandle {
  const read = (buffer: Buffer, offset: number, length: number, position: number) => {
    const count = Math.max(0, Math.min(length, most, bytes.length - position));
    bytes.copy(buffer, offset, position, position + count);
    return Promise.resolve({ bytesRead: count, buffer });
  };
  return { read } as unknown as FileHandle;
}

describe('readFully', () => {
  it('reads every byte asked for across short reads (a ZIP directory read by yauzl once saw "unexpected EOF" here)', async () => {
    const bytes = Buffer.from('PK\x05\x06 the end of a central directory', 'latin1');
    const buffer = Buffer.alloc(10);
    expect(await readFully(stingyHandle(bytes, 3), buffer, 0, 10, 4)).toBe(10);
    expect(buffer.toString('latin1')).toBe(bytes.subarray(4, 14).toString('latin1'));
  });

  it('stops at the end of the file and says how much it read', async () => {
    const buffer = Buffer.alloc(8);
    expect(await readFully(stingyHandle(Buffer.from('abcde'), 2), buffer, 2, 6, 1)).toBe(4);
    expect(buffer.subarray(2, 6).toString()).toBe('bcde');
  });
});
