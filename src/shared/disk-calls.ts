/**
 * How the intake calls an inbox's disk for what every file costs: the open of an input file and
 * its close, `lstat` of a name, `fstat` of an open descriptor, the one read of a small file, and
 * the renames that move it on (into `processing/`, then into the archive).
 *
 * Through libuv's thread pool (`fs.promises`), each call wakes a pool thread and waits for its
 * answer to come back: 22–35 µs of the event loop for an `fstat` on the bench machine, and about
 * 90 µs for an open, a rename or a read while files stream in, when the woken thread takes the
 * event loop's core. Made synchronously on a local disk, a metadata call costs 2–5 µs (the kernel
 * answers from the inode it holds in memory), an open and its close about 10, a rename 12–17 (a
 * change to a directory the kernel holds; the journal is written later, as for SQLite's own writes,
 * which the event loop already makes synchronously), and a read of a file just written 5–20 µs
 * (from the page cache; at worst one disk read of at most `READ_CHUNK_BYTES`). Nothing in a scan
 * then waits by itself, so the scan gives the event loop its turns (`scan-inbox.ts`,
 * `shared/turn-slicer.ts`). `docs/performance.md`, *8*.
 *
 * On a share (SMB, NFS, a FUSE mount) the same call may wait for the server, and for ever on a
 * hard mount whose server is gone: there every call goes through the pool, so a hung share holds up
 * its own flow's scan and nothing else. Creating a file, and reading a large one, always go
 * through the pool, whatever the disk.
 */
import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * What the readers need of an open input file: positional reads, its `fstat`, and closing it.
 * A `FileHandle` is one (its calls go through libuv's thread pool); the intake on a local disk
 * opens a plain descriptor instead (`DescriptorHandle`, below).
 */
export interface InputHandle {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<Stats>;
  close(): Promise<void>;
}

export interface DiskCalls {
  /** `open` of an input file with these flags (`INPUT_OPEN_FLAGS`: never a symlink followed, never a FIFO waited on). */
  open(p: string, flags: number): Promise<InputHandle>;
  /** `lstat` of a path (never follows a symlink). */
  lstat(p: string): Promise<Stats>;
  /** `fstat` of an open descriptor. */
  fstat(handle: InputHandle): Promise<Stats>;
  /** `rename` within the inbox's own tree (the inbox, `processing/`, the archive, `rejected/`). */
  rename(from: string, to: string): Promise<void>;
  /**
   * One positional read, the bytes read resolved. Synchronous on a local disk, so a loop of them
   * would never let the event loop run: for the one read of a small file (`hashFile`), never a
   * large file's chunks.
   */
  readOnce(handle: InputHandle, buffer: Buffer, length: number, position: number): Promise<number>;
}

const readInPool = promisify(fsSync.read);

/**
 * An input file opened with a synchronous `open` on a local disk: its `fstat` and `close` are
 * synchronous calls too, its reads (a large file's chunks, as the readers ask) go through the
 * pool as a `FileHandle`'s do, so that mapping a large file lets the event loop run between reads.
 * Unlike a `FileHandle`, nothing closes it when it is collected: its owner always closes it (the
 * intake does, in `takeFile`'s `finally`); a second `close` is a no-op, never the close of a
 * descriptor number reused meanwhile.
 */
export class DescriptorHandle implements InputHandle {
  #fd: number;
  /** Reads in the pool: the descriptor is closed once they have ended (a reader stopped early may leave one). */
  readonly #reading = new Set<Promise<unknown>>();

  constructor(fd: number) {
    this.#fd = fd;
  }

  get fd(): number {
    return this.#fd;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    const reading = readInPool(this.#open(), buffer, offset, length, position);
    this.#reading.add(reading);
    try {
      return { bytesRead: (await reading).bytesRead };
    } finally {
      this.#reading.delete(reading);
    }
  }

  async stat(): Promise<Stats> {
    return fsSync.fstatSync(this.#open());
  }

  async close(): Promise<void> {
    if (this.#fd < 0) return;
    const fd = this.#fd;
    this.#fd = -1;
    if (this.#reading.size > 0) await Promise.allSettled(this.#reading);
    fsSync.closeSync(fd);
  }

  #open(): number {
    if (this.#fd < 0) throw Object.assign(new Error('file closed'), { code: 'EBADF' });
    return this.#fd;
  }
}

/** Every call through libuv's thread pool: for a share, and whenever the disk is not known to be local. */
export const POOLED_DISK: DiskCalls = {
  open: (p, flags) => fs.open(p, flags),
  lstat: (p) => fs.lstat(p),
  fstat: (handle) => handle.stat(),
  rename: (from, to) => fs.rename(from, to),
  readOnce: async (handle, buffer, length, position) => (await handle.read(buffer, 0, length, position)).bytesRead,
};

/** Synchronous calls, for an inbox on a local disk. A failure is a rejection, as with `POOLED_DISK`. */
export const LOCAL_DISK: DiskCalls = {
  open: async (p, flags) => new DescriptorHandle(fsSync.openSync(p, flags)),
  lstat: async (p) => fsSync.lstatSync(p),
  fstat: async (handle) => fsSync.fstatSync(handle.fd),
  rename: async (from, to) => fsSync.renameSync(from, to),
  readOnce: async (handle, buffer, length, position) => fsSync.readSync(handle.fd, buffer, 0, length, position),
};
