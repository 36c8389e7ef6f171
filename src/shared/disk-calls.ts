/**
 * How the intake reads a file's metadata (`lstat` of a name, `fstat` of an open descriptor).
 *
 * Through libuv's thread pool (`fs.promises`), one such call costs the event loop 22–35 µs on the
 * bench machine: a request queued, a pool thread woken, its answer handed back and a promise
 * settled. Made synchronously on a local disk it costs 2–5 µs, because the kernel answers from the
 * inode it holds in memory (an open descriptor's always, a name's just listed almost always). A
 * small file's take makes five of them, about a sixth of the intake's event loop with thousands of
 * files waiting (`docs/performance.md`, *8*).
 *
 * On a share (SMB, NFS, a FUSE mount) the same call may wait for the server, and for ever on a
 * hard mount whose server is gone: there every call goes through the pool, so a hung share holds up
 * its own flow's scan and nothing else. Reading data, renaming and creating always go through the
 * pool, whatever the disk: they may wait for the disk itself.
 */
import fsSync, { type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';

export interface DiskCalls {
  /** `lstat` of a path (never follows a symlink). */
  lstat(p: string): Promise<Stats>;
  /** `fstat` of an open descriptor. */
  fstat(handle: FileHandle): Promise<Stats>;
}

/** Every call through libuv's thread pool: for a share, and whenever the disk is not known to be local. */
export const POOLED_DISK: DiskCalls = {
  lstat: (p) => fs.lstat(p),
  fstat: (handle) => handle.stat(),
};

/** Synchronous calls, for an inbox on a local disk. A failure is a rejection, as with `POOLED_DISK`. */
export const LOCAL_DISK: DiskCalls = {
  lstat: async (p) => fsSync.lstatSync(p),
  fstat: async (handle) => fsSync.fstatSync(handle.fd),
};
