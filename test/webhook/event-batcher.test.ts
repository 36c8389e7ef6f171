import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { createEventBatcher } from '../../src/webhook/event-batcher.js';
import { deleteEventsOlderThan, getEvent } from '../../src/store/events.js';
import type { WebhookEvent } from '../../src/platform/contract.js';
import { createLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

/** An event and its raw body, as the listener hands them to the batcher. */
function event(n: number, orderId = `ORD-2026-${String(n).padStart(6, '0')}`): [WebhookEvent, string] {
  const fields = {
    eventId: `EVT-${String(n).padStart(6, '0')}`,
    eventType: 'order.status.changed',
    eventDate: '2026-06-12T10:00:00Z',
    orderId,
    status: 'shipped',
  };
  return [fields, JSON.stringify(fields)];
}

describe('createEventBatcher', () => {
  it('commits the events of one tick in one transaction and fails only the bad one', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      db.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON order_statuses WHEN NEW.order_id = 'ORD-2026-000666'
               BEGIN SELECT RAISE(ABORT, 'refused by test'); END`);
      const commits: string[][] = [];
      const batcher = createEventBatcher({ db, now: () => 1_000, onCommitted: (outcomes) => commits.push(outcomes) });
      const results = await Promise.all([
        batcher.submit(...event(1)),
        batcher.submit(...event(2, 'ORD-2026-000666')),
        batcher.submit(...event(3)),
        batcher.submit(...event(1)),
      ]);
      expect(results.map((r) => (r.ok ? r.outcome : 'failed'))).toEqual(['applied', 'failed', 'applied', 'duplicate']);
      expect(commits).toEqual([['applied', 'applied', 'duplicate']]);
      expect(getEvent(db, 'EVT-000002')).toBeUndefined();
      expect(getEvent(db, 'EVT-000003')).toMatchObject({ applied: 1, receivedAt: 1_000 });
      db.close();
    });
  });

  it('holds the next group until the previous group is durable, then commits it as one transaction', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const syncs: (() => void)[] = [];
      const durable = () => new Promise<void>((resolve) => syncs.push(resolve));
      const commits: string[][] = [];
      const batcher = createEventBatcher({ db, now: () => 1_000, durable, onCommitted: (outcomes) => commits.push(outcomes) });
      const first = batcher.submit(...event(1));
      await waitUntil(() => syncs.length === 1, 'the first group to wait for its fsync');
      const second = batcher.submit(...event(2));
      await new Promise((resolve) => setImmediate(resolve));
      const third = batcher.submit(...event(3));
      await new Promise((resolve) => setImmediate(resolve));
      // The first group's fsync is still running: the others wait for it, uncommitted.
      expect(getEvent(db, 'EVT-000002')).toBeUndefined();
      expect(syncs).toHaveLength(1);
      syncs[0]!();
      await first;
      await waitUntil(() => syncs.length === 2, 'the second group to wait for its fsync');
      expect(getEvent(db, 'EVT-000003')).toBeDefined();
      syncs[1]!();
      await Promise.all([second, third]);
      expect(commits).toEqual([['applied'], ['applied', 'applied']]);
      db.close();
    });
  });

  it('fails every event of the batch when the transaction cannot run', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const batcher = createEventBatcher({ db, now: () => 1_000 });
      db.close();
      const results = await Promise.all([batcher.submit(...event(1)), batcher.submit(...event(2))]);
      expect(results.every((r) => !r.ok)).toBe(true);
    });
  });

  it('deletes event ids older than the cutoff only', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      let now = 1_000;
      const batcher = createEventBatcher({ db, now: () => now });
      await batcher.submit(...event(1));
      now = 5_000;
      await batcher.submit(...event(2));
      expect(deleteEventsOlderThan(db, 2_000)).toBe(1);
      expect(getEvent(db, 'EVT-000001')).toBeUndefined();
      expect(getEvent(db, 'EVT-000002')).toBeDefined();
      db.close();
    });
  });

  it('logs the stored events in one line (a second at most), each under its outcome, flushed by drain()', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const lines: Record<string, unknown>[] = [];
      const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
      const batcher = createEventBatcher({ db, now: () => 1_000, logger });
      await Promise.all([batcher.submit(...event(1)), batcher.submit(...event(2)), batcher.submit(...event(1))]);
      await batcher.submit(...event(3));
      // Within the second: nothing written yet; drain() (the listener's stop) writes it.
      expect(lines).toHaveLength(0);
      await batcher.drain();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'info',
        msg: '3 applied, 1 duplicate webhook event(s) stored',
        applied: 'EVT-000001 ORD-2026-000001 shipped, EVT-000002 ORD-2026-000002 shipped, EVT-000003 ORD-2026-000003 shipped',
        duplicate: 'EVT-000001 ORD-2026-000001 shipped',
      });
      db.close();
    });
  });
});
