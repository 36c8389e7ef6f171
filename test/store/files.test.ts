/** Claiming a file by its content (`store/files.ts`). */
import { describe, expect, it } from 'vitest';
import { claimFile, claimFiles, getFile, listFiles, unclaimFiles, type NewFile } from '../../src/store/files.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withStore } from '../helpers/store.js';

const file = (sha256: string, originalName: string): NewFile => ({ flow: 'requests', sha256, originalName, sizeBytes: 120, now: 1_700_000_000_000 });

describe('claimFile', () => {
  it('returns the new row whole, as the store holds it: processing, at its processing path, with its read counted', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        const claim = claimFile(db, file('a'.repeat(64), 'a.csv'), (id, name) => `/inbox/processing/${id}-${name}`, { readStarts: true });
        if (!claim.ok) throw new Error('expected a claim');
        expect(claim.row).toEqual(getFile(db, claim.row.id));
        expect(claim.row).toMatchObject({
          flow: 'requests',
          originalName: 'a.csv',
          sizeBytes: 120,
          state: 'processing',
          currentPath: `/inbox/processing/${claim.row.id}-a.csv`,
          readAttempts: 1,
          claimedAt: 1_700_000_000_000,
          finishedAt: null,
          reportPending: 0,
        });
      }),
    );
  });

  it('the same content claimed again gets the earlier row, and no second one is made', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        const first = claimFile(db, file('b'.repeat(64), 'b.csv'), (id, name) => `/p/${id}-${name}`);
        const again = claimFile(db, file('b'.repeat(64), 'copy of b.csv'), (id, name) => `/p/${id}-${name}`);
        if (!first.ok) throw new Error('expected a claim');
        expect(again).toEqual({ ok: false, existing: first.row });
        expect(first.row.readAttempts).toBe(0);
      }),
    );
  });
});

describe('claimFiles', () => {
  it('claims files in their order in one transaction, up to the first that is not new: the files after it are left to their own turn', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        const pathFor = (id: number, name: string) => `/p/${id}-${name}`;
        const claims = claimFiles(
          db,
          [file('1'.repeat(64), '1.csv'), file('2'.repeat(64), '2.csv'), file('1'.repeat(64), 'copy of 1.csv'), file('3'.repeat(64), '3.csv')],
          pathFor,
          {
            readStarts: true,
          },
        );
        expect(claims.map((c) => c.ok)).toEqual([true, true, false]);
        const [one, two, copy] = claims;
        if (!one?.ok || !two?.ok || copy?.ok !== false) throw new Error('expected two claims and a duplicate');
        expect(two.row.id).toBeGreaterThan(one.row.id);
        expect(copy.existing).toEqual(one.row);
        expect(
          listFiles(db, 'requests')
            .map((f) => f.originalName)
            .sort(),
        ).toEqual(['1.csv', '2.csv']);

        // A claim dropped (its file never left the inbox) leaves no row; a recorded one is not dropped.
        db.prepare(`UPDATE files SET state = 'archived' WHERE id = ?`).run(one.row.id);
        unclaimFiles(db, [two.row.id, one.row.id]);
        expect(getFile(db, two.row.id)).toBeUndefined();
        expect(getFile(db, one.row.id)).toMatchObject({ state: 'archived' });
      }),
    );
  });

  it('gives each row the id SQLite would, one above the largest, and the processing path of that id', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        const pathFor = (id: number, name: string) => `/p/${id}-${name}`;
        const ids = (claims: ReturnType<typeof claimFiles>) => claims.map((c) => (c.ok ? [c.row.id, c.row.currentPath] : ['dup', c.existing.id]));
        expect(ids(claimFiles(db, [file('1'.repeat(64), '1.csv'), file('2'.repeat(64), '2.csv')], pathFor))).toEqual([
          [1, '/p/1-1.csv'],
          [2, '/p/2-2.csv'],
        ]);
        // A duplicate takes no id: the next new file has the one after the largest.
        expect(ids(claimFiles(db, [file('3'.repeat(64), '3.csv'), file('1'.repeat(64), 'again.csv')], pathFor))).toEqual([
          [3, '/p/3-3.csv'],
          ['dup', 1],
        ]);
        expect(ids(claimFiles(db, [file('4'.repeat(64), '4.csv')], pathFor))).toEqual([[4, '/p/4-4.csv']]);
        // The largest dropped, its id is given again, as SQLite gives a rowid; one below it is not.
        unclaimFiles(db, [4, 2]);
        expect(ids(claimFiles(db, [file('5'.repeat(64), '5.csv'), file('6'.repeat(64), '6.csv')], pathFor))).toEqual([
          [4, '/p/4-5.csv'],
          [5, '/p/5-6.csv'],
        ]);
        expect(db.prepare('SELECT id, current_path FROM files ORDER BY id').raw().all()).toEqual([
          [1, '/p/1-1.csv'],
          [3, '/p/3-3.csv'],
          [4, '/p/4-5.csv'],
          [5, '/p/5-6.csv'],
        ]);
      }),
    );
  });
});
