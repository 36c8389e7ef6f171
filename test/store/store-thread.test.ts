/** The store's helper thread: checkpoints out of the daemon's commits that still bound the WAL. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStore, storePath } from '../../src/store/open-store.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('store thread', () => {
  it('turns the automatic checkpoint off in the connection and keeps the WAL small from its worker', async () => {
    await withTempDir(async (dir) => {
      const file = storePath(dir);
      const component = createStore(file, { checkpointIntervalMs: 20 });
      const { db, thread } = await component.start();
      try {
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
        db.exec('CREATE TABLE blob (b BLOB)');
        const insert = db.prepare('INSERT INTO blob VALUES (?)');
        const chunk = Buffer.alloc(64 * 1024, 7);
        let largestWal = 0;
        // 48 MiB written in commits of 1 MiB; without checkpoints the WAL would hold all of it.
        for (let round = 0; round < 48; round += 1) {
          db.transaction(() => {
            for (let i = 0; i < 16; i += 1) insert.run(chunk);
          })();
          const runs = thread.checkpoints;
          await waitUntil(() => thread.checkpoints > runs, 'a checkpoint by the worker');
          largestWal = Math.max(largestWal, fs.statSync(`${file}-wal`).size);
        }
        expect(thread.checkpoints).toBeGreaterThanOrEqual(48);
        // A checkpoint cannot reset the WAL while a commit lands, so a loaded machine sees a few MiB
        // more than one commit; without the worker the WAL would hold all 48 MiB.
        expect(largestWal).toBeLessThan(16 * 1024 * 1024);
      } finally {
        await component.stop();
      }
    });
  });
});
