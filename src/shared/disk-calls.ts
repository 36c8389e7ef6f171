/**
 * How the intake calls an inbox's disk for what every file costs: `lstat` of a name, `fstat` of an
 * open descriptor, the one read of a small file, and the renames that move it on (into
 * `processing/`, then into the archive).
 *
 * Through libuv's thread pool (`fs.promises`), each call wakes a pool thread and waits for its
 * answer to come back: 22–35 µs of the event loop for an `fstat` on the bench machine, and about
 * 90 µs for a rename or a read while files stream in, when the woken thread takes the event loop's
 * core. Made synchronously on a local disk, a metadata call costs 2–5 µs (the kernel answers from the
 * inode it holds in memory), a rename 12–17 µs (a change to a directory the kernel holds; the journal
 * is written later, as for SQLite's own writes, which the event loop already makes synchronously),
 * and a read of a file just written 5–20 µs (from the page cache; at worst one disk read of at most
 * `READ_CHUNK_BYTES`). `docs/performance.md`, *8*.
 *
 * On a share (SMB, NFS, a FUSE mount) the same call may wait for the server, and for ever on a
 * hard mount whose server is gone: there every call goes through the pool, so a hung share holds up
 * its own flow's scan and nothing else. Opening, creating, and reading a large file always go
 * through the pool, whatever the disk.
 */
import fsSync, { type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';

export interface DiskCalls {
  /** `lstat` of a path (never follows a symlink). */
  lstat(p: string): Promise<Stats>;
  /** `fstat` of an open descriptor. */
  fstat(handle: FileHandle): Promise<Stats>;
  /** `rename` within the inbox's own tree (the inbox, `processing/`, the archive, `rejected/`). */
  rename(from: string, to: string): Promise<void>;
  /**
   * One positional read, the bytes read resolved. Synchronous on a local disk, so a loop of them
   * would never let the event loop run: for the one read of a small file (`hashFile`), never a
   * large file's chunks.
   */
  readOnce(handle: FileHandle, buffer: Buffer, length: number, position: number): Promise<number>;
}

/** Every call through libuv's thread pool: for a share, and whenever the disk is not known to be local. */
export const POOLED_DISK: DiskCalls = {
  lstat: (p) => fs.lstat(p),
  fstat: (handle) => handle.stat(),
  rename: (from, to) => fs.rename(from, to),
  readOnce: async (handle, buffer, length, position) => (await handle.read(buffer, 0, length, position)).bytesRead,
};

/** Synchronous calls, for an inbox on a local disk. A failure is a rejection, as with `POOLED_DISK`. */
export const LOCAL_DISK: DiskCalls = {
  lstat: async (p) => fsSync.lstatSync(p),
  fstat: async (handle) => fsSync.fstatSync(handle.fd),
  rename: async (from, to) => fsSync.renameSync(from, to),
  readOnce: async (handle, buffer, length, position) => fsSync.readSync(handle.fd, buffer, 0, length, position),
};
