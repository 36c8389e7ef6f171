/**
 * Group commit (`store/durability.ts`): commits without their own fsync, one shared fsync for
 * everyone waiting, and, simulated as a power cut, nothing answered 200 outside what was synced.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDurability, QUICK_SYNC_MS } from '../../src/store/durability.js';
import type { StoreThread } from '../../src/store/store-thread.js';
import { createStore, openStore, storePath } from '../../src/store/open-store.js';
import { getEvent } from '../../src/store/events.js';
import { createWebhookListener } from '../../src/webhook/index.js';
import { webhookSchema } from '../../src/config/webhook-schema.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { buildEvent, postWebhook, SECRET } from '../helpers/with-listener.js';

describe('durability', () => {
  it('lets every caller waiting at one moment share one fsync', async () => {
    await withTempDir(async (dir) => {
      const { db, durability } = await createStore(storePath(dir)).start();
      db.exec('CREATE TABLE t (n INTEGER)');
      const before = durability.syncs;
      const waits = Array.from({ length: 100 }, (_, n) => {
        db.prepare('INSERT INTO t VALUES (?)').run(n);
        return durability.durable();
      });
      await Promise.all(waits);
      // The first caller starts an fsync; the 99 that arrive while it runs share the next one.
      expect(durability.syncs - before).toBeLessThanOrEqual(2);
      await durability.durable();
      expect(durability.syncs - before).toBeLessThanOrEqual(3);
      await durability.close();
      db.close();
    });
  });

  it('opens the daemon store with synchronous=NORMAL and every other store with FULL', async () => {
    await withTempDir(async (dir) => {
      const store = await createStore(storePath(dir)).start();
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
      await store.durability.close();
      store.db.close();
      const cli = openStore(storePath(dir));
      expect(cli.pragma('synchronous', { simple: true })).toBe(2);
      cli.close();
    });
  });

  it('resolves at once for an in-memory store', async () => {
    const db = new Database(':memory:');
    const durability = createDurability(db);
    await durability.durable();
    expect(durability.syncs).toBe(0);
    db.close();
  });

  it('durableNow() fsyncs on the event loop on a quick disk, hands the fsync to the thread on a slow one, and comes back when the disk is quick again', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(storePath(dir), { synchronous: 'NORMAL' });
      db.exec('CREATE TABLE t (n INTEGER)');
      // The helper thread, as far as durability sees it: it reports each fsync's time, here the
      // time a disk of the speed the test sets would take.
      let threadMs = 20;
      let threadSyncs = 0;
      let checkpointAsks = 0;
      const thread: StoreThread = {
        running: true,
        checkpoints: 0,
        sync: () => {
          threadSyncs += 1;
          return Promise.resolve(threadMs);
        },
        checkpointNow: () => {
          checkpointAsks += 1;
        },
        close: () => Promise.resolve(),
      };
      const durability = createDurability(db, thread);
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      try {
        // Nothing measured yet: the first one runs here, and is done when the call returns.
        insert.run(1);
        const pending = durability.durableNow();
        expect(durability.syncs).toBe(1);
        await pending;
        expect(threadSyncs).toBe(0);
        // The checkpoint that rides on the thread's fsyncs is asked for instead (once per quarter second).
        expect(checkpointAsks).toBe(1);

        // A slow disk (the thread's fsyncs take 20 ms): the average passes QUICK_SYNC_MS at once.
        insert.run(2);
        await durability.durable();
        expect(threadSyncs).toBe(1);
        insert.run(3);
        await durability.durableNow();
        expect(threadSyncs).toBe(2);

        // Quick again: within a few dozen fsyncs the average is back under it, and an fsync runs
        // here, done when the call returns. (Only that one: how long it took on this machine, a
        // loaded one say, decides the next.)
        threadMs = 0.05;
        let here = false;
        for (let n = 0; n < 100 && !here; n += 1) {
          insert.run(n);
          const before = { thread: threadSyncs, syncs: durability.syncs };
          const wait = durability.durableNow();
          here = durability.syncs === before.syncs + 1 && threadSyncs === before.thread;
          await wait;
        }
        expect(here).toBe(true);
        expect(threadSyncs).toBeGreaterThan(2);
        expect(QUICK_SYNC_MS).toBeLessThan(20);
      } finally {
        await durability.close();
        db.close();
      }
    });
  });

  it('durableNow() rejects with STORE_FAILED when the fsync on the event loop fails (the listener answers 503)', async () => {
    await withTempDir(async (dir) => {
      const file = storePath(dir);
      const db = openStore(file, { synchronous: 'NORMAL' });
      db.exec('CREATE TABLE t (n INTEGER)');
      const durability = createDurability(db);
      try {
        db.prepare('INSERT INTO t VALUES (1)').run();
        await durability.durableNow();
        // Its read-only descriptor of the WAL (SQLite's own is read-write), closed behind its back:
        // the next fdatasync fails with EBADF, as a failing disk's would with EIO.
        const ours = fs.readdirSync('/proc/self/fd').find((fd) => {
          try {
            const flags = Number.parseInt(/flags:\s*(\d+)/.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!, 8);
            return fs.readlinkSync(`/proc/self/fd/${fd}`) === `${file}-wal` && (flags & 3) === 0;
          } catch {
            return false;
          }
        });
        expect(ours).toBeDefined();
        fs.closeSync(Number(ours));
        db.prepare('INSERT INTO t VALUES (2)').run();
        await expect(durability.durableNow()).rejects.toMatchObject({ code: 'STORE_FAILED', message: expect.stringMatching(/fsync of .*-wal failed/) });
      } finally {
        db.close();
      }
    });
  });

  it.each(['durable', 'durableNow'] as const)(
    'power cut at random moments under load, the listener on %s(): a copy of the store without its unsynced tail holds every event answered 200 before it',
    async (wait) => {
      await withTempDir(async (dir) => {
        const file = storePath(path.join(dir, 'state'));
        // No checkpoint during the run: it would move frames into the main file behind a copy's back,
        // and a WAL restarted after one would no longer be measured by its size.
        const { db, durability } = await createStore(file, { checkpointIntervalMs: 3_600_000 }).start();
        db.pragma('wal_autocheckpoint = 0');
        const wal = `${file}-wal`;
        // What an fsync covers: the WAL as it was when the wait began (a wait always gets an fsync
        // that starts after it was asked for). Bytes past the largest such size may not be on disk.
        let synced = 0;
        const durable = async (): Promise<void> => {
          const size = fs.statSync(wal).size;
          await durability[wait]();
          synced = Math.max(synced, size);
        };
        const config = webhookSchema.parse({ port: 0, secrets: [SECRET] });
        const listener = createWebhookListener({ db, config, logger: silentLogger, durable });
        const { url } = await listener.start();
        const answered: string[] = [];
        const cuts: { answered: string[]; db: Buffer; wal: Buffer }[] = [];
        // The power fails at random moments while 16 senders keep posting: the disk then holds the
        // main file and the synced part of the WAL, and every 200 received so far must be in them.
        let sending = true;
        const cutter = (async () => {
          while (sending) {
            await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 15)));
            const seen = [...answered];
            cuts.push({ answered: seen, db: fs.readFileSync(file), wal: fs.readFileSync(wal).subarray(0, synced) });
          }
        })();
        try {
          let next = 0;
          const sender = async (): Promise<void> => {
            while (next < 600) {
              const event = buildEvent({ orderId: `ORD-2026-${String(next++).padStart(6, '0')}` });
              const answer = await postWebhook(url, event);
              if (answer.status === 200) answered.push(event.eventId as string);
            }
          };
          await Promise.all(Array.from({ length: 16 }, sender));
        } finally {
          sending = false;
          await cutter;
          await listener.stop();
          await durability.close();
          db.close();
        }
        expect(answered).toHaveLength(600);
        expect(cuts.length).toBeGreaterThan(5);
        // Cuts that fell mid-load, with answers already given and more to come.
        expect(cuts.filter((cut) => cut.answered.length > 0 && cut.answered.length < 600).length).toBeGreaterThan(3);
        for (const [index, cut] of cuts.entries()) {
          const copy = path.join(dir, `cut-${index}.sqlite`);
          fs.writeFileSync(copy, cut.db);
          fs.writeFileSync(`${copy}-wal`, cut.wal);
          const restored = new Database(copy);
          const missing = cut.answered.filter((eventId) => getEvent(restored, eventId) === undefined);
          restored.close();
          expect(missing, `events answered 200 but lost in cut ${index} (after ${cut.answered.length} answers)`).toEqual([]);
        }
      });
    },
    120_000,
  ); // rounds of 16 senders: far past the default 30 s on a loaded two-core machine
});
