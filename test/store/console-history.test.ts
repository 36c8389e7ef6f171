/**
 * The charts' queries (`store/console-history.ts`) on a real store file: which hour of the window a
 * row falls in at its edges, what is counted once, and that both read an index, never a table scan.
 */
import { describe, expect, it } from 'vitest';
import {
  attemptOutcomesAfter,
  attemptOutcomesByHour,
  eventsByHour,
  HISTORY_SQL,
  lastAttemptId,
  type AttemptOutcomeCount,
  type HourWindow,
} from '../../src/store/console-history.js';
import type { Db } from '../../src/store/open-store.js';
import { deliverAt, receiveEventAt } from '../helpers/console/history-rows.js';
import { validRequest } from '../helpers/fixtures.js';
import { seededRandom } from '../../src/sandbox/faults.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';

const HOUR = 3_600_000;
// Any instant will do: the store counts hours from `since`, it knows no time zone.
const SINCE = Date.UTC(2026, 2, 14, 10, 30);
const WINDOW: HourWindow = { since: SINCE, until: SINCE + 24 * HOUR, hourMs: HOUR };

async function withHistoryStore(fn: (db: Db) => void): Promise<void> {
  await withTempDir((dir) => withStore(dir, fn));
}

describe('attemptOutcomesByHour', () => {
  it('puts an attempt in the hour its finished_at falls in: since is hour 0, until is out, and so is what came before since', async () => {
    await withHistoryStore((db) => {
      deliverAt(db, 'requests', 'before', [{ at: SINCE - 1, outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'first', [{ at: SINCE, outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'end-of-hour-0', [{ at: SINCE + HOUR - 1, outcome: 'rejected' }]);
      deliverAt(db, 'requests', 'hour-1', [{ at: SINCE + HOUR, outcome: 'rejected' }]);
      deliverAt(db, 'requests', 'last', [{ at: WINDOW.until - 1, outcome: 'held' }]);
      deliverAt(db, 'requests', 'after', [{ at: WINDOW.until, outcome: 'dead' }]);
      expect(attemptOutcomesByHour(db, WINDOW)).toEqual([
        { flow: 'requests', hour: 0, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 0, outcome: 'rejected', submissions: 1 },
        { flow: 'requests', hour: 1, outcome: 'rejected', submissions: 1 },
        { flow: 'requests', hour: 23, outcome: 'held', submissions: 1 },
      ]);
    });
  });

  it('counts a submission once per outcome and hour however often it was tried, and keeps flows apart', async () => {
    await withHistoryStore((db) => {
      const at = SINCE + 5 * HOUR;
      deliverAt(db, 'requests', 'R-1', [
        { at: at + 1_000, outcome: 'retry' },
        { at: at + 2_000, outcome: 'retry' },
        { at: at + 3_000, outcome: 'retry' },
        { at: at + 4_000, outcome: 'accepted' },
      ]);
      deliverAt(db, 'requests', 'R-2', [
        { at: at + 5_000, outcome: 'retry' },
        { at: at + HOUR, outcome: 'dead' },
      ]);
      deliverAt(db, 'confirmations', 'ORD-1', [{ at: at + 6_000, outcome: 'accepted' }]);
      expect(attemptOutcomesByHour(db, WINDOW)).toEqual([
        { flow: 'confirmations', hour: 5, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 5, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 5, outcome: 'retry', submissions: 2 },
        { flow: 'requests', hour: 6, outcome: 'dead', submissions: 1 },
      ]);
    });
  });

  it('counts the outcomes of one group together: a submission retried and paused in one hour counts once there', async () => {
    await withHistoryStore((db) => {
      const at = SINCE + 2 * HOUR;
      deliverAt(db, 'requests', 'R-1', [
        { at: at + 1_000, outcome: 'retry' },
        { at: at + 2_000, outcome: 'paused' },
        { at: at + 3_000, outcome: 'accepted' },
      ]);
      deliverAt(db, 'requests', 'R-2', [
        { at: at + 4_000, outcome: 'aborted' },
        { at: at + 5_000, outcome: 'rejected' },
      ]);
      expect(attemptOutcomesByHour(db, WINDOW)).toEqual([
        { flow: 'requests', hour: 2, outcome: 'aborted', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'paused', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'rejected', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'retry', submissions: 1 },
      ]);
      expect(attemptOutcomesByHour(db, WINDOW, { paused: 'retry', aborted: 'retry' })).toEqual([
        { flow: 'requests', hour: 2, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'rejected', submissions: 1 },
        { flow: 'requests', hour: 2, outcome: 'retry', submissions: 2 },
      ]);
    });
  });
});

describe('attemptOutcomesAfter', () => {
  const GROUPS = { paused: 'retry', aborted: 'retry' };
  const OUTCOMES = ['accepted', 'retry', 'paused', 'aborted', 'rejected', 'held', 'dead'];
  /** An attempt of submission `id` finished at `at`, written as delivery writes it (only the columns the charts read matter). */
  const attempt = (db: Db, id: number, at: number, outcome: string) =>
    db
      .prepare('INSERT INTO submission_attempts (submission_id, request_id, started_at, finished_at, outcome) VALUES (?, ?, ?, ?, ?)')
      .run(id, `r-${id}-${at}`, at - 50, at, outcome);
  /** Rows keyed by flow, hour and outcome, with `more` added. */
  const add = (rows: AttemptOutcomeCount[], more: AttemptOutcomeCount[]) => {
    const sum = new Map(rows.map((row) => [`${row.flow}/${row.hour}/${row.outcome}`, row.submissions]));
    for (const row of more) sum.set(`${row.flow}/${row.hour}/${row.outcome}`, (sum.get(`${row.flow}/${row.hour}/${row.outcome}`) ?? 0) + row.submissions);
    return Object.fromEntries([...sum].sort(([a], [b]) => a.localeCompare(b)));
  };

  it('adds to the counts up to an attempt exactly what counting every attempt again adds: a submission tried again in an hour and outcome it already has counts once', async () => {
    await withHistoryStore((db) => {
      const random = seededRandom(47);
      const ids = ['requests', 'confirmations'].flatMap((flow) => Array.from({ length: 12 }, (_, i) => addRequestRow(db, flow, validRequest(`${flow}-${i}`))));
      for (let step = 0; step < 40; step += 1) {
        const before = attemptOutcomesByHour(db, WINDOW, GROUPS);
        const mark = lastAttemptId(db);
        // A few attempts, anywhere in the window or just outside it, some in hours and outcomes their submission already has.
        for (let n = Math.floor(random() * 6); n > 0; n -= 1) {
          const at = SINCE - HOUR + Math.floor(random() * 26 * HOUR);
          attempt(db, ids[Math.floor(random() * ids.length)]!, at, OUTCOMES[Math.floor(random() * OUTCOMES.length)]!);
        }
        expect(lastAttemptId(db)).toBeGreaterThanOrEqual(mark);
        expect(add(before, attemptOutcomesAfter(db, WINDOW, mark, GROUPS)), `step ${step}`).toEqual(add(attemptOutcomesByHour(db, WINDOW, GROUPS), []));
      }
    });
  });

  it('counts nothing after the last attempt, and an attempt again only in an hour or outcome group its submission had not', async () => {
    await withHistoryStore((db) => {
      expect(lastAttemptId(db)).toBe(0);
      const id = deliverAt(db, 'requests', 'R-1', [{ at: SINCE + 1_000, outcome: 'retry' }]);
      const mark = lastAttemptId(db);
      expect(attemptOutcomesAfter(db, WINDOW, mark, GROUPS)).toEqual([]);
      attempt(db, id, SINCE + 2_000, 'paused');
      attempt(db, id, SINCE + HOUR + 1_000, 'paused');
      attempt(db, id, SINCE + HOUR + 2_000, 'accepted');
      expect(attemptOutcomesAfter(db, WINDOW, mark, GROUPS)).toEqual([
        { flow: 'requests', hour: 1, outcome: 'accepted', submissions: 1 },
        { flow: 'requests', hour: 1, outcome: 'retry', submissions: 1 },
      ]);
    });
  });
});

describe('eventsByHour', () => {
  it('counts events stored per hour, applied or stored only; a repeated eventId stores nothing and is not counted', async () => {
    await withHistoryStore((db) => {
      expect(receiveEventAt(db, 'EVT-0', 'ORD-1', SINCE - 1)).toBe('applied');
      expect(receiveEventAt(db, 'EVT-1', 'ORD-1', SINCE + 10)).toBe('applied');
      expect(receiveEventAt(db, 'EVT-2', 'ORD-2', SINCE + 20)).toBe('applied');
      // Dated before ORD-1's applied status: stored, not applied.
      expect(receiveEventAt(db, 'EVT-3', 'ORD-1', SINCE + 30, SINCE - 60_000)).toBe('stored');
      expect(receiveEventAt(db, 'EVT-1', 'ORD-1', SINCE + 40)).toBe('duplicate');
      expect(receiveEventAt(db, 'EVT-4', 'ORD-3', WINDOW.until - 1)).toBe('applied');
      expect(receiveEventAt(db, 'EVT-5', 'ORD-3', WINDOW.until)).toBe('applied');
      const hours = eventsByHour(db, WINDOW);
      expect(hours.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
      expect(hours.filter((h) => h.events > 0)).toEqual([
        { hour: 0, events: 3, applied: 2 },
        { hour: 23, events: 1, applied: 1 },
      ]);
    });
  });
});

describe('the charts’ query plans', () => {
  const plan = (db: Db, sql: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ...WINDOW, hours: 24, groups: '{}' }) as { detail: string }[]).map((row) => row.detail);

  it('range over an index of migration 7 that holds every column they read, and scan no table', async () => {
    await withHistoryStore((db) => {
      const attempts = plan(db, HISTORY_SQL.attemptOutcomesByHour);
      // The attempts after a mark by their ids, each one's earlier attempts by its submission.
      const after = (
        db.prepare(`EXPLAIN QUERY PLAN ${HISTORY_SQL.attemptOutcomesAfter}`).all({ ...WINDOW, afterId: 0, groups: '{}' }) as { detail: string }[]
      ).map((row) => row.detail);
      expect(after).toContain('SEARCH a USING INTEGER PRIMARY KEY (rowid>?)');
      expect(after).toContain('SEARCH b USING INDEX submission_attempts_submission (submission_id=? AND rowid<?)');
      expect(after.filter((step) => step.startsWith('SCAN'))).toEqual([]);
      expect(attempts).toContain('SEARCH a USING COVERING INDEX submission_attempts_finished (finished_at>? AND finished_at<?)');
      expect(attempts).toContain('SEARCH s USING INTEGER PRIMARY KEY (rowid=?)');
      const events = plan(db, HISTORY_SQL.eventsByHour);
      expect(events).toContain('SEARCH events USING COVERING INDEX events_received_applied (received_at>? AND received_at<?)');
      // The only scans are of the 24 numbered hours.
      expect([...attempts, ...events].filter((step) => step.startsWith('SCAN') && step !== 'SCAN hours' && step !== 'SCAN CONSTANT ROW')).toEqual([]);
    });
  });

  it('leave no other index on events.received_at: migration 7 replaced it, so an event still writes one', async () => {
    await withHistoryStore((db) => {
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql LIKE '%received_at%'`).pluck().all();
      expect(indexes).toEqual(['events_received_applied']);
    });
  });
});
