/**
 * Small files' recordings committed in groups (`src/intake/recording-group.ts`), on a real store:
 * nothing of a group is committed before it is full or flushed, then one commit (one set of WAL
 * frames) records them all in the order they came; one recording that fails is rolled back alone;
 * a take is followed until its recording is queued, and heard of again when it ends.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRecordingGroup } from '../../src/intake/recording-group.js';
import type { Db } from '../../src/store/open-store.js';
import type { RecordFileResult } from '../../src/store/record-file.js';
import { withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';

/** A recording as the intake makes one: a transaction of its own. Here it writes one row, named. */
function recording(db: Db, name: string, fail = false): () => RecordFileResult {
  return () =>
    db.transaction(() => {
      db.prepare('INSERT INTO recorded (name) VALUES (?)').run(name);
      if (fail) throw new Error(`${name} failed`);
      return { state: 'archived', currentPath: name } as unknown as RecordFileResult;
    })();
}

function recorded(db: Db): string[] {
  return (db.prepare('SELECT name FROM recorded ORDER BY id').pluck().all() as string[]).slice();
}

/** WAL frames written so far (the store keeps them until a checkpoint, far beyond these few). */
function walFrames(db: Db): number {
  const size = fs.statSync(`${db.name}-wal`).size;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return size <= 32 ? 0 : (size - 32) / (24 + pageSize);
}

async function withTable<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  return withTempDir((dir) =>
    withStore(dir, async (db) => {
      db.pragma('wal_autocheckpoint = 0');
      db.exec('CREATE TABLE recorded (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
      return fn(db);
    }),
  );
}

describe('a group of recordings', () => {
  it('commits nothing before it is full, then records every file in one commit, in order', async () => {
    await withTable(async (db) => {
      const group = createRecordingGroup(db, 8);
      const before = walFrames(db);
      const done = Array.from({ length: 7 }, (_, i) => group.record(recording(db, `f${i}`)));
      expect(recorded(db)).toEqual([]);
      expect(walFrames(db)).toBe(before);
      const last = group.record(recording(db, 'f7'));
      expect(recorded(db)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
      // Eight transactions of their own would have written eight commits' frames, at least one each.
      expect(walFrames(db) - before).toBeLessThan(4);
      expect((await Promise.all([...done, last])).map((r) => r.currentPath)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
    });
  });

  it('a flush records what waits; a recording that fails is rolled back alone and its file hears the error', async () => {
    await withTable(async (db) => {
      const group = createRecordingGroup(db, 8);
      const a = group.record(recording(db, 'a'));
      const b = group.record(recording(db, 'b', true));
      const c = group.record(recording(db, 'c'));
      group.flush();
      expect(recorded(db)).toEqual(['a', 'c']);
      await expect(a).resolves.toMatchObject({ currentPath: 'a' });
      await expect(b).rejects.toThrow('b failed');
      await expect(c).resolves.toMatchObject({ currentPath: 'c' });
    });
  });

  it('a commit that fails records nothing of the group, and every file hears it', async () => {
    await withTable(async (db) => {
      const group = createRecordingGroup(db, 8);
      const a = group.record(recording(db, 'a'));
      // A recording that ends the transaction under the group: its commit then has nothing to commit.
      const b = group.record(() => {
        db.prepare('INSERT INTO recorded (name) VALUES (?)').run('b');
        db.exec('ROLLBACK');
        return {} as RecordFileResult;
      });
      group.flush();
      await expect(a).rejects.toThrow();
      await expect(b).rejects.toThrow();
      expect(recorded(db)).toEqual([]);
    });
  });

  it('follows a take until its recording is queued, then hears how it ended once the group is recorded', async () => {
    await withTable(async (db) => {
      const group = createRecordingGroup(db, 8);
      const ends: (string | null)[] = [];
      const take = async (name: string, fail = false) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await group.record(recording(db, name));
        if (fail) throw new Error(`${name} could not be moved`);
        return 'processed' as const;
      };
      expect(await group.follow(take('a'), (f) => ends.push(f ? String(f.error) : null))).toBe('waiting');
      expect(await group.follow(take('b', true), (f) => ends.push(f ? String(f.error) : null))).toBe('waiting');
      // A take that ends without recording anything is followed to its end.
      expect(await group.follow(Promise.resolve('duplicate' as const), () => ends.push('never'))).toBe('duplicate');
      await expect(group.follow(Promise.reject(new Error('claim failed')), () => ends.push('never'))).rejects.toThrow('claim failed');
      expect(recorded(db)).toEqual([]);
      expect(ends).toEqual([]);
      await group.settle();
      expect(recorded(db)).toEqual(['a', 'b']);
      expect(ends).toEqual([null, 'Error: b could not be moved']);
    });
  });
});
