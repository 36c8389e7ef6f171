/**
 * Whether the inbox is on a local disk (`intake.inboxDisk`), and the two ways of reading its file
 * metadata that follow from it: synchronously on a local disk, through the thread pool on a share.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inboxDiskOf, localFileSystemOf } from '../../src/intake/inbox-disk.js';
import { LOCAL_DISK, POOLED_DISK } from '../../src/shared/disk-calls.js';
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

describe('the metadata calls', () => {
  it.each([
    ['local', LOCAL_DISK],
    ['pooled', POOLED_DISK],
  ] as const)('%s: lstat and fstat say what fs says; a missing name is a rejection (ENOENT), never a throw', async (_name, calls) => {
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
        let missing: Promise<unknown> | undefined;
        expect(() => (missing = calls.lstat(path.join(dir, 'absent')))).not.toThrow();
        await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
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
