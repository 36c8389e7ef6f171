/**
 * A file's bytes held in memory, opened as the readers open a file (`FileHandle.read` at a
 * position, `stat`, `close`): a fuzz target runs thousands of inputs a second, and a temp file per
 * input would measure the disk. With `split`, a streaming read (a reader's own chunk, 16 KiB and
 * up) returns a random part of what it asked for, as a slow device may: the same bytes then reach
 * the decoders cut at other places (a multi-byte character, a CRLF, `]]>` or a quote across two
 * reads), and a reader must give the same result. Small positional reads (a container's signature,
 * a zip's directory) are always whole, as they are from a regular file.
 */
import type { FileHandle } from 'node:fs/promises';

/** Reads of this many bytes or more may come back short when splitting. */
const STREAMING_READ_BYTES = 16 * 1024;

export function memoryHandle(bytes: Buffer, split?: () => number): FileHandle {
  const handle = {
    read(buffer: Buffer, offset = 0, length = buffer.length - offset, position: number | null = 0) {
      const from = position ?? 0;
      let count = Math.max(0, Math.min(length, bytes.length - from));
      if (split !== undefined && length >= STREAMING_READ_BYTES && count > 1) count = 1 + Math.floor(split() * count);
      bytes.copy(buffer, offset, from, from + count);
      return Promise.resolve({ bytesRead: count, buffer });
    },
    stat() {
      return Promise.resolve({ size: bytes.length, mtimeMs: 0, isFile: () => true, dev: 0, ino: 0 });
    },
    close() {
      return Promise.resolve();
    },
  };
  return handle as unknown as FileHandle;
}
