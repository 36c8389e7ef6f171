/**
 * The atomic writer against a folder someone else writes too: real symlinks, FIFOs and folders
 * planted where it writes. A FIFO test that regressed would hang on the open; the test's timeout
 * bounds that hang.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, utf8Length } from '../../src/shared/file-name.js';
import {
  MAX_TARGET_NAME_BYTES,
  removeStaleTempFiles,
  TEMP_NAME_EXTRA_BYTES,
  tempNameFor,
  writeFileAtomic,
  writeFilesAtomic,
} from '../../src/shared/write-file-atomic.js';
import { withTempDir } from '../helpers/temp-dir.js';

/** The daemon's own file an attacker would like us to overwrite. */
function plantVictim(dir: string): string {
  const victim = path.join(dir, 'state', 'connector.sqlite');
  fs.mkdirSync(path.dirname(victim), { recursive: true });
  fs.writeFileSync(victim, 'SQLite format 3\0 precious');
  return victim;
}

/** Names in `folder` (all of them, dot files too), sorted. */
const entries = (folder: string): string[] => fs.readdirSync(folder).sort();

/** A suffix source that hands out the given suffixes in order. */
function suffixes(...list: string[]): () => string {
  let i = 0;
  return () => list[i++] ?? 'ffffffffffff';
}

describe('writeFileAtomic', () => {
  it('writes the bytes under the final name and leaves no temp file', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      const target = await writeFileAtomic(folder, 'ack-1.csv', Buffer.from('a;b\n'));
      expect(target).toBe(path.join(folder, 'ack-1.csv'));
      expect(fs.readFileSync(target, 'utf8')).toBe('a;b\n');
      expect(entries(folder)).toEqual(['ack-1.csv']);
    });
  });

  it('does not write through a symlink planted at the old predictable temp name', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const victim = plantVictim(dir);
      fs.symlinkSync(victim, path.join(folder, '.ack-1.csv.tmp'));
      await writeFileAtomic(folder, 'ack-1.csv', Buffer.from('new'));
      expect(fs.readFileSync(victim, 'utf8')).toBe('SQLite format 3\0 precious');
      expect(fs.readFileSync(path.join(folder, 'ack-1.csv'), 'utf8')).toBe('new');
      expect(fs.lstatSync(path.join(folder, '.ack-1.csv.tmp')).isSymbolicLink()).toBe(true); // not ours to remove
    });
  });

  it('does not block on a FIFO planted at the old predictable temp name', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      execFileSync('mkfifo', [path.join(folder, '.ack-1.csv.tmp')]);
      await writeFileAtomic(folder, 'ack-1.csv', Buffer.from('new'));
      expect(fs.readFileSync(path.join(folder, 'ack-1.csv'), 'utf8')).toBe('new');
      expect(fs.lstatSync(path.join(folder, '.ack-1.csv.tmp')).isFIFO()).toBe(true);
    });
  });

  it('skips random temp names someone else holds (a symlink, a FIFO) and writes under a fresh one', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const victim = plantVictim(dir);
      const link = path.join(folder, tempNameFor('ack-1.csv', 'aaaaaaaaaaaa'));
      const fifo = path.join(folder, tempNameFor('ack-1.csv', 'bbbbbbbbbbbb'));
      fs.symlinkSync(victim, link);
      execFileSync('mkfifo', [fifo]);
      await writeFileAtomic(folder, 'ack-1.csv', Buffer.from('new'), { randomSuffix: suffixes('aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc') });
      expect(fs.readFileSync(victim, 'utf8')).toBe('SQLite format 3\0 precious');
      expect(fs.readFileSync(path.join(folder, 'ack-1.csv'), 'utf8')).toBe('new');
      expect(entries(folder)).toEqual([path.basename(link), path.basename(fifo), 'ack-1.csv'].sort());
    });
  });

  it('gives up with EEXIST when every temp name it draws is taken, writing nothing', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, tempNameFor('ack-1.csv', 'aaaaaaaaaaaa')), 'theirs');
      await expect(writeFileAtomic(folder, 'ack-1.csv', Buffer.from('new'), { randomSuffix: () => 'aaaaaaaaaaaa' })).rejects.toMatchObject({ code: 'EEXIST' });
      expect(entries(folder)).toEqual([tempNameFor('ack-1.csv', 'aaaaaaaaaaaa')]);
      expect(fs.readFileSync(path.join(folder, tempNameFor('ack-1.csv', 'aaaaaaaaaaaa')), 'utf8')).toBe('theirs');
    });
  });

  it('replaces an existing final file by rename, never by writing into it', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const target = path.join(folder, 'status-1.csv');
      fs.writeFileSync(target, 'old');
      fs.linkSync(target, path.join(dir, 'second-link')); // an in-place write would show through this link
      await writeFileAtomic(folder, 'status-1.csv', Buffer.from('new'));
      expect(fs.readFileSync(target, 'utf8')).toBe('new');
      expect(fs.readFileSync(path.join(dir, 'second-link'), 'utf8')).toBe('old');
      expect(entries(folder)).toEqual(['status-1.csv']);
    });
  });

  it('replaces a symlink at the final name instead of following it', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const victim = plantVictim(dir);
      fs.symlinkSync(victim, path.join(folder, 'status-1.csv'));
      await writeFileAtomic(folder, 'status-1.csv', Buffer.from('new'));
      expect(fs.readFileSync(victim, 'utf8')).toBe('SQLite format 3\0 precious');
      expect(fs.lstatSync(path.join(folder, 'status-1.csv')).isFile()).toBe(true);
    });
  });

  it('removeStaleTempFiles removes only its own old temp files: not fresh ones, not other dot files, never through a link', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const hourAgo = new Date(Date.now() - 3_600_000);
      const old = path.join(folder, tempNameFor('status-1.csv', '0123456789ab'));
      const fresh = path.join(folder, tempNameFor('status-2.csv', 'ba9876543210'));
      const foreign = path.join(folder, '.erp-lock.tmp');
      const link = path.join(folder, tempNameFor('status-3.csv', 'aaaaaaaaaaaa'));
      const victim = plantVictim(dir);
      for (const file of [old, fresh, foreign]) fs.writeFileSync(file, 'x');
      fs.symlinkSync(victim, link);
      for (const file of [old, foreign]) fs.utimesSync(file, hourAgo, hourAgo);
      fs.lutimesSync(link, hourAgo, hourAgo);

      expect(await removeStaleTempFiles(folder, 10 * 60_000)).toBe(1);
      expect(entries(folder)).toEqual([path.basename(foreign), path.basename(fresh), path.basename(link)].sort());
      expect(fs.readFileSync(victim, 'utf8')).toBe('SQLite format 3\0 precious');
      expect(await removeStaleTempFiles(path.join(dir, 'missing'), 0)).toBe(0);
    });
  });

  describe('noClobber (the export)', () => {
    it.each([
      ['a file someone else wrote', (target: string) => fs.writeFileSync(target, 'the ERP operator’s own file')],
      ['a symlink to the daemon’s store', (target: string, dir: string) => fs.symlinkSync(plantVictim(dir), target)],
      ['a FIFO', (target: string) => execFileSync('mkfifo', [target])],
    ])('never replaces %s at the final name: EEXIST, the entry untouched, no temp file left', async (_what, plant) => {
      await withTempDir(async (dir) => {
        const folder = path.join(dir, 'import');
        fs.mkdirSync(folder);
        const target = path.join(folder, 'status-1.csv');
        plant(target, dir);
        const before = fs.lstatSync(target);
        const [outcome] = await writeFilesAtomic(folder, [{ name: 'status-1.csv', bytes: Buffer.from('new') }], { noClobber: true });
        expect(outcome).toMatchObject({ ok: false, error: { code: 'EXPORT_WRITE_FAILED', details: { errno: 'EEXIST' } } });
        const after = fs.lstatSync(target);
        expect([after.ino, after.mtimeMs, after.mode]).toEqual([before.ino, before.mtimeMs, before.mode]);
        expect(entries(folder)).toEqual(['status-1.csv']);
      });
    });

    it('takes a file with exactly its bytes for its own earlier write (a lost written mark): ok, nothing replaced', async () => {
      await withTempDir(async (dir) => {
        const folder = path.join(dir, 'import');
        fs.mkdirSync(folder);
        const target = path.join(folder, 'status-1.csv');
        fs.writeFileSync(target, 'same bytes');
        const inode = fs.statSync(target).ino;
        const [outcome] = await writeFilesAtomic(folder, [{ name: 'status-1.csv', bytes: Buffer.from('same bytes') }], { noClobber: true });
        expect(outcome).toEqual({ ok: true, path: target });
        expect(fs.statSync(target).ino).toBe(inode);
        expect(entries(folder)).toEqual(['status-1.csv']);
      });
    });

    it('publishes a new name whole, with one link left and no temp file', async () => {
      await withTempDir(async (dir) => {
        const folder = path.join(dir, 'import');
        const [outcome] = await writeFilesAtomic(folder, [{ name: 'status-2.csv', bytes: Buffer.from('fresh') }], { noClobber: true });
        expect(outcome).toEqual({ ok: true, path: path.join(folder, 'status-2.csv') });
        expect(fs.readFileSync(path.join(folder, 'status-2.csv'), 'utf8')).toBe('fresh');
        expect(fs.statSync(path.join(folder, 'status-2.csv')).nlink).toBe(1);
        expect(entries(folder)).toEqual(['status-2.csv']);
      });
    });
  });

  it('removes its temp file when the write fails (a folder holds the final name)', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(path.join(folder, 'status-1.csv'), { recursive: true });
      await expect(writeFileAtomic(folder, 'status-1.csv', Buffer.from('new'))).rejects.toMatchObject({ code: 'EISDIR' });
      expect(entries(folder)).toEqual(['status-1.csv']);
    });
  });

  it('writes a final name of 255 bytes: the temp name is cut to fit, never past 255 bytes', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      const name = `${'中'.repeat(83)}ab.csv`;
      expect(utf8Length(name)).toBe(MAX_NAME_BYTES);
      await writeFileAtomic(folder, name, Buffer.from('x'));
      expect(entries(folder)).toEqual([name]);
      expect(utf8Length(tempNameFor(name, '0123456789ab'))).toBe(MAX_NAME_BYTES);
      expect(MAX_TARGET_NAME_BYTES + TEMP_NAME_EXTRA_BYTES).toBe(MAX_NAME_BYTES);
    });
  });

  it('names temp files `.<name>.<random>.tmp`: hidden from ERP patterns, and ending .tmp', () => {
    expect(tempNameFor('ack-1.csv', '0123456789ab')).toBe('.ack-1.csv.0123456789ab.tmp');
  });
});

describe('writeFilesAtomic (a group of files, one folder fsync)', () => {
  it('writes every file of the group, several at a time, and answers in the order given', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      const files = Array.from({ length: 12 }, (_, i) => ({ name: `status-${i}.csv`, bytes: Buffer.from(`row ${i}\n`) }));
      const outcomes = await writeFilesAtomic(folder, files, { concurrency: 3 });
      expect(outcomes).toEqual(files.map((file) => ({ ok: true, path: path.join(folder, file.name) })));
      expect(entries(folder)).toEqual(files.map((file) => file.name).sort());
      for (const file of files) expect(fs.readFileSync(path.join(folder, file.name), 'utf8')).toBe(file.bytes.toString());
    });
  });

  it('a file that fails (a folder holds its name) fails alone: the others land, and no temp file is left', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(path.join(folder, 'status-2.csv'), { recursive: true });
      const files = [1, 2, 3].map((n) => ({ name: `status-${n}.csv`, bytes: Buffer.from(`row ${n}\n`) }));
      const outcomes = await writeFilesAtomic(folder, files, { concurrency: 2 });
      expect(outcomes[0]).toEqual({ ok: true, path: path.join(folder, 'status-1.csv') });
      expect(outcomes[1]).toMatchObject({ ok: false, error: { code: 'EISDIR' } });
      expect(outcomes[2]).toEqual({ ok: true, path: path.join(folder, 'status-3.csv') });
      expect(entries(folder)).toEqual(['status-1.csv', 'status-2.csv', 'status-3.csv']);
      expect(fs.readdirSync(path.join(folder, 'status-2.csv'))).toEqual([]);
    });
  });

  it('keeps the temp-file hardening for every file of a group: planted links and FIFOs are skipped, never followed', async () => {
    await withTempDir(async (dir) => {
      const folder = path.join(dir, 'import');
      fs.mkdirSync(folder);
      const victim = plantVictim(dir);
      const link = path.join(folder, tempNameFor('ack-1.csv', 'aaaaaaaaaaaa'));
      const fifo = path.join(folder, tempNameFor('ack-2.csv', 'bbbbbbbbbbbb'));
      fs.symlinkSync(victim, link);
      execFileSync('mkfifo', [fifo]);
      // One at a time, so the suffixes go to the files in order: ack-1 draws aaaa (taken) then cccc, ack-2 bbbb (taken) then dddd.
      const outcomes = await writeFilesAtomic(
        folder,
        [
          { name: 'ack-1.csv', bytes: Buffer.from('one') },
          { name: 'ack-2.csv', bytes: Buffer.from('two') },
        ],
        { concurrency: 1, randomSuffix: suffixes('aaaaaaaaaaaa', 'cccccccccccc', 'bbbbbbbbbbbb', 'dddddddddddd') },
      );
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      expect(fs.readFileSync(victim, 'utf8')).toBe('SQLite format 3\0 precious');
      expect(fs.readFileSync(path.join(folder, 'ack-1.csv'), 'utf8')).toBe('one');
      expect(fs.readFileSync(path.join(folder, 'ack-2.csv'), 'utf8')).toBe('two');
      expect(entries(folder)).toEqual([path.basename(link), path.basename(fifo), 'ack-1.csv', 'ack-2.csv'].sort());
    });
  });

  it('reports every file failed, and writes none, when the folder cannot be made', async () => {
    await withTempDir(async (dir) => {
      const blocker = path.join(dir, 'not-a-folder');
      fs.writeFileSync(blocker, 'x');
      const outcomes = await writeFilesAtomic(path.join(blocker, 'import'), [
        { name: 'a.csv', bytes: Buffer.from('a') },
        { name: 'b.csv', bytes: Buffer.from('b') },
      ]);
      expect(outcomes).toMatchObject([
        { ok: false, error: { code: 'ENOTDIR' } },
        { ok: false, error: { code: 'ENOTDIR' } },
      ]);
    });
  });
});
