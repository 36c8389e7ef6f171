/** The store's helper thread: checkpoints out of the daemon's commits that still bound the WAL. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDurability } from '../../src/store/durability.js';
import { createStore, openStore, storePath } from '../../src/store/open-store.js';
import type { CheckpointOutcome } from '../../src/store/space-guard.js';
import { CATCH_UP_FRAMES, startStoreThread } from '../../src/store/store-thread.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('store thread', () => {
  it("moves the connection's automatic checkpoint up to CATCH_UP_FRAMES and keeps the WAL small from its worker", async () => {
    await withTempDir(async (dir) => {
      const file = storePath(dir);
      const component = createStore(file, { checkpointIntervalMs: 20 });
      const { db, thread } = await component.start();
      try {
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CATCH_UP_FRAMES);
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
        // A checkpoint cannot reset the WAL while a commit lands, and one every 20 ms leaves the
        // connection's own catch-up (at CATCH_UP_FRAMES) few moments when the checkpoint lock is
        // free, so a loaded machine sees several MiB more than one commit; without the worker the
        // WAL would hold all 48 MiB.
        expect(largestWal).toBeLessThan(24 * 1024 * 1024);
      } finally {
        await component.stop();
      }
    });
  });

  it('keeps the WAL bounded under a stream of commits that never leaves the worker a quiet moment', async () => {
    await withTempDir(async (dir) => {
      const file = storePath(dir);
      const component = createStore(file);
      const { db } = await component.start();
      try {
        db.exec('CREATE TABLE blob (b BLOB)');
        const insert = db.prepare('INSERT INTO blob VALUES (?)');
        const chunk = Buffer.alloc(64 * 1024, 7);
        let largestWal = 0;
        // 64 MiB in commits of 64 KiB, back to back, with the daemon's checkpoint interval: a
        // checkpoint beside them always finds that a commit landed while it copied, so the WAL
        // never starts over by the worker's checkpoints alone and, before the connection
        // checkpointed itself past CATCH_UP_FRAMES, held it all (docs/reliability.md, "The state
        // disk fills").
        for (let commit = 0; commit < 1024; commit += 1) {
          insert.run(chunk);
          if (commit % 16 === 0) largestWal = Math.max(largestWal, fs.statSync(`${file}-wal`).size);
        }
        expect(largestWal).toBeLessThan(24 * 1024 * 1024);
        // And the file gives the space of a grown WAL back once it starts over (journal_size_limit).
        db.pragma('wal_checkpoint(PASSIVE)');
        insert.run(chunk);
        expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(CATCH_UP_FRAMES * (4096 + 24));
      } finally {
        await component.stop();
      }
    });
  });

  it('checkpoints right after an fsync, before its answer, while fsyncs keep coming, so the next commit starts the WAL over', async () => {
    await withTempDir(async (dir) => {
      const file = storePath(dir);
      const db = openStore(file, { synchronous: 'NORMAL' });
      const outcomes: CheckpointOutcome[] = [];
      // The timer out of the way: the checkpoints below can only be the ones that ride on an fsync.
      const thread = startStoreThread(db, { checkpointIntervalMs: 60_000, onCheckpoint: (outcome) => outcomes.push(outcome), onGone: () => undefined });
      const durability = createDurability(db, thread);
      const walSalt = (): string => {
        const header = Buffer.alloc(8);
        const fd = fs.openSync(`${file}-wal`, 'r');
        try {
          fs.readSync(fd, header, 0, 8, 16);
        } finally {
          fs.closeSync(fd);
        }
        return header.toString('hex');
      };
      try {
        db.exec('CREATE TABLE row (id INTEGER PRIMARY KEY, b BLOB)');
        const insert = db.prepare('INSERT INTO row (b) VALUES (?)');
        const chunk = Buffer.alloc(6 * 1024, 7);
        let restarts = 0;
        let salt = '';
        // As the listener's batcher does: a group commits, waits for its fsync, and the next one
        // commits only then, so a checkpoint run before the fsync's answer has the WAL to itself.
        const until = Date.now() + 10_000;
        while (outcomes.length < 3 && Date.now() < until) {
          insert.run(chunk);
          const now = walSalt();
          if (salt !== '' && now !== salt) restarts += 1;
          salt = now;
          await durability.durable();
        }
        expect(outcomes.length).toBeGreaterThanOrEqual(3);
        expect(outcomes.every((outcome) => outcome.ok && outcome.log > 0 && outcome.checkpointed === outcome.log)).toBe(true);
        // Each one caught up, so the commit after it wrote the WAL from its start (a new salt).
        expect(restarts).toBeGreaterThanOrEqual(outcomes.length - 1);
      } finally {
        await durability.close();
        await thread.close();
        db.close();
      }
    });
  });
});
