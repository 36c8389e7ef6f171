/**
 * Whether the inbox is on a local disk (`intake.inboxDisk`), and the two ways of calling it that
 * follow from it (metadata, renames, a small file's read): synchronously on a local disk, through
 * the thread pool on a share.
 */
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { inboxDiskOf, localFileSystemOf } from '../../src/intake/inbox-disk.js';
import { DescriptorHandle, LOCAL_DISK, POOLED_DISK, type DiskCalls } from '../../src/shared/disk-calls.js';
import { hashFile } from '../../src/intake/hash-file.js';
import { INPUT_OPEN_FLAGS, openRegularFile, READ_CHUNK_BYTES } from '../../src/shared/input-file.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';

describe('localFileSystemOf', () => {
  it('knows the local file systems by their statfs type, and nothing that may be a share', () => {
    expect(localFileSystemOf(0xef53)).toBe('ext2/3/4');
    expect(localFileSystemOf(0x58465342)).toBe('xfs');
    expect(localFileSystemOf(0x01021994)).toBe('tmpfs');
    // NFS, SMB2, CIFS, FUSE (sshfs, ntfs-3g), 9p.
    for (const share of [0x6969, 0xfe534d42, 0xff534d42, 0x65735546, 0x01021997]) expect(localFileSystemOf(share)).toBeUndefined();
  });
});

describe('inboxDiskOf', () => {
  it('auto: local when the inbox is on a local file system, naming it', async () => {
    await withTempDir(async (dir) => {
      const { type } = await fs.statfs(dir);
      const disk = await inboxDiskOf(dir, { inboxDisk: 'auto', usePolling: false });
      const known = localFileSystemOf(type);
      if (known === undefined) {
        expect(disk).toMatchObject({ disk: 'network', why: `file system type 0x${type.toString(16)} is not known to be local` });
      } else {
        expect(disk).toEqual({ disk: 'local', why: `file system ${known}`, calls: LOCAL_DISK });
      }
    });
  });

  it('auto: a share when usePolling is on, or when the file system cannot be examined', async () => {
    await withTempDir(async (dir) => {
      expect(await inboxDiskOf(dir, { inboxDisk: 'auto', usePolling: true })).toEqual({
        disk: 'network',
        why: 'intake.usePolling is on',
        calls: POOLED_DISK,
      });
      expect(await inboxDiskOf(path.join(dir, 'absent'), { inboxDisk: 'auto', usePolling: false })).toEqual({
        disk: 'network',
        why: "the inbox's file system could not be examined (ENOENT)",
        calls: POOLED_DISK,
      });
    });
  });

  it('local or network as set, whatever the file system and usePolling say', async () => {
    await withTempDir(async (dir) => {
      expect(await inboxDiskOf(dir, { inboxDisk: 'local', usePolling: true })).toMatchObject({ disk: 'local', calls: LOCAL_DISK });
      expect(await inboxDiskOf(dir, { inboxDisk: 'network', usePolling: false })).toMatchObject({ disk: 'network', calls: POOLED_DISK });
    });
  });
});

describe('the disk calls', () => {
  it.each([
    ['local', LOCAL_DISK],
    ['pooled', POOLED_DISK],
  ] as const)('%s: lstat, fstat, rename and a read say what fs says; a missing name is a rejection (ENOENT), never a throw', async (_name, calls) => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'a.csv');
      await fs.writeFile(file, 'abc');
      await fs.symlink(file, path.join(dir, 'link'));
      const handle = await fs.open(file, 'r');
      try {
        const byHandle = await handle.stat();
        expect(await calls.fstat(handle)).toMatchObject({ ino: byHandle.ino, dev: byHandle.dev, size: 3, mtimeMs: byHandle.mtimeMs });
        expect((await calls.lstat(file)).ino).toBe(byHandle.ino);
        expect((await calls.lstat(path.join(dir, 'link'))).isSymbolicLink()).toBe(true);
        const buffer = Buffer.alloc(8);
        expect(await calls.readOnce(handle, buffer, 2, 1)).toBe(2);
        expect(buffer.subarray(0, 2).toString()).toBe('bc');
        await calls.rename(file, path.join(dir, 'b.csv'));
        expect((await fs.lstat(path.join(dir, 'b.csv'))).ino).toBe(byHandle.ino);
        for (const call of [() => calls.lstat(path.join(dir, 'absent')), () => calls.rename(path.join(dir, 'absent'), path.join(dir, 'c.csv'))]) {
          let missing: Promise<unknown> | undefined;
          expect(() => (missing = call())).not.toThrow();
          await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
        }
      } finally {
        await handle.close();
      }
    });
  });

  /**
   * Every thread of libuv's pool held by an `open` of a FIFO that no writer opens (what a share
   * whose server stopped answering does to a pooled call), for the length of `fn`.
   */
  async function withPoolHeld<T>(dir: string, fn: () => Promise<T>): Promise<T> {
    const fifos = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, (_, i) => path.join(dir, `hung-${i}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const hung = fifos.map((fifo) => fs.open(fifo, 'r'));
    try {
      return await fn();
    } finally {
      await release(fifos, hung);
    }
  }

  /** A writer's open lets each reader's open return; it fails (ENXIO) until that reader has begun. */
  async function release(fifos: string[], hung: Promise<fs.FileHandle>[]): Promise<void> {
    const writers: number[] = [];
    for (const fifo of fifos) {
      for (;;) {
        try {
          writers.push(fsSync.openSync(fifo, fsSync.constants.O_WRONLY | fsSync.constants.O_NONBLOCK));
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
          await sleep(5);
        }
      }
    }
    for (const handle of await Promise.all(hung)) await handle.close();
    for (const fd of writers) fsSync.closeSync(fd);
    for (const fifo of fifos) await fs.rm(fifo);
  }

  /** Does `call` settle within a second (the pooled calls wait until the pool is free again)? */
  const settlesSoon = (call: Promise<unknown>) => Promise.race([call.then(() => true), sleep(1_000).then(() => false)]);

  it('local: a small file is opened, hashed, its metadata read, renamed and closed while the thread pool is held (a hung share elsewhere); pooled: each call waits for the pool', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'a.csv');
      await fs.writeFile(file, 'abc');
      /** Each of a small file's calls in the intake's order (`take-file.ts`), and what the hash read. */
      const take = async (disk: DiskCalls, to: string) => {
        const handle = await disk.open(file, INPUT_OPEN_FLAGS);
        try {
          const digest = await hashFile(handle, { expectedSize: 3, disk });
          expect((await disk.fstat(handle)).size).toBe(3);
          await disk.rename(file, to);
          expect((await disk.lstat(to)).isFile()).toBe(true);
          return digest;
        } finally {
          await handle.close();
        }
      };
      const local = await withPoolHeld(dir, async () => {
        const call = take(LOCAL_DISK, path.join(dir, 'b.csv'));
        return { soon: await settlesSoon(call), call };
      });
      expect(local.soon).toBe(true);
      expect(await local.call).toMatchObject({ size: 3, bytes: Buffer.from('abc') });
      await fs.rename(path.join(dir, 'b.csv'), file);
      const pooled = await withPoolHeld(dir, async () => {
        const call = take(POOLED_DISK, path.join(dir, 'c.csv'));
        return { soon: await settlesSoon(call), call };
      });
      expect(pooled.soon).toBe(false);
      // Once the pool is free, the pooled calls end as the local ones did.
      expect(await pooled.call).toMatchObject({ size: 3, bytes: Buffer.from('abc') });
      expect(fsSync.existsSync(path.join(dir, 'c.csv'))).toBe(true);
    });
  });

  it("local: a descriptor opened synchronously reads through the pool (a large file's chunks), and closes once", async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'a.csv');
      await fs.writeFile(file, 'abcdef');
      const handle = await LOCAL_DISK.open(file, INPUT_OPEN_FLAGS);
      expect(handle).toBeInstanceOf(DescriptorHandle);
      const buffer = Buffer.alloc(4);
      const read = await withPoolHeld(dir, async () => {
        const call = handle.read(buffer, 0, 4, 2);
        return { soon: await settlesSoon(call), call };
      });
      expect(read.soon).toBe(false);
      expect(await read.call).toEqual({ bytesRead: 4 });
      expect(buffer.toString()).toBe('cdef');
      const fd = handle.fd;
      expect((await handle.stat()).size).toBe(6);
      await handle.close();
      await handle.close();
      // The descriptor is gone, and the handle never touches its number again.
      expect(() => fsSync.fstatSync(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
      await expect(handle.read(buffer, 0, 1, 0)).rejects.toMatchObject({ code: 'EBADF' });
      await expect(handle.stat()).rejects.toMatchObject({ code: 'EBADF' });
    });
  });

  it('local: opening refuses a symlink and does not wait on a FIFO, as the pooled open does', async () => {
    await withTempDir(async (dir) => {
      await fs.writeFile(path.join(dir, 'a.csv'), 'abc');
      await fs.symlink(path.join(dir, 'a.csv'), path.join(dir, 'link.csv'));
      execFileSync('mkfifo', [path.join(dir, 'fifo.csv')]);
      for (const disk of [LOCAL_DISK, POOLED_DISK]) {
        expect(await openRegularFile(path.join(dir, 'link.csv'), disk)).toEqual({ ok: false, reason: 'not-regular', what: 'a symbolic link' });
        expect(await openRegularFile(path.join(dir, 'fifo.csv'), disk)).toEqual({ ok: false, reason: 'not-regular', what: 'a FIFO' });
        expect(await openRegularFile(path.join(dir, 'absent.csv'), disk)).toEqual({ ok: false, reason: 'missing' });
      }
    });
  });

  it('a file larger than one read is hashed through the pool on either disk, a chunk at a time (the event loop runs between its reads)', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'big.csv');
      await fs.writeFile(file, Buffer.alloc(READ_CHUNK_BYTES + 1, 'x'));
      const handle = await fs.open(file, 'r');
      try {
        const hashed = await withPoolHeld(dir, async () => {
          const call = hashFile(handle, { expectedSize: READ_CHUNK_BYTES + 1, disk: LOCAL_DISK });
          return { soon: await settlesSoon(call), call };
        });
        expect(hashed.soon).toBe(false);
        expect(await hashed.call).toEqual({ sha256: expect.any(String), size: READ_CHUNK_BYTES + 1 });
      } finally {
        await handle.close();
      }
    });
  });
});

describe('the intake on each disk', () => {
  it.each([
    [{ ...NO_WAIT }, 'local'],
    [{ ...NO_WAIT, usePolling: true }, 'network'],
    [{ ...NO_WAIT, inboxDisk: 'network' as const }, 'network'],
  ])('%o: the start-up line says %s, and files are taken', async (rules, expected) => {
    await withIntake(rules, async (f) => {
      const { type } = await fs.statfs(f.inbox);
      const disk = localFileSystemOf(type) === undefined ? 'network' : expected;
      await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('R-1')]));
      await f.intake.start();
      await f.intake.scanNow();
      expect(f.logs()).toContainEqual(expect.objectContaining({ msg: 'intake started', inboxDisk: disk, inboxDiskWhy: expect.any(String) }));
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'a.csv', state: 'archived' })]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });
});
