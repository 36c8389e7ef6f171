/**
 * The overview's last 24 hours, on a real store file filled at chosen times through the store's own
 * functions, read by a clock the test moves: the data (`data/history.ts`) hour by hour, and the page
 * over HTTP (the SVG's tooltips, summaries and the empty chart), in a zone whose hours are not UTC's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHistory, RECOUNT_MS, requestHistory } from '../../../../src/admin/console/data/history.js';
import { formatClock } from '../../../../src/admin/console/format.js';
import type { Db } from '../../../../src/store/open-store.js';
import { manualClock } from '../../../helpers/clock.js';
import { validRequest } from '../../../helpers/fixtures.js';
import { addRequestRow, withStore } from '../../../helpers/store.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { send } from '../../../helpers/console/http.js';
import { deliverAt, receiveEventAt } from '../../../helpers/console/history-rows.js';
import { withConsoleServer } from '../../../helpers/console/with-console-server.js';

// +05:30 all year: no daylight saving time, and its hours begin at UTC's half hours, so an hour
// counted in UTC instead of local time is caught.
const ZONE = 'Asia/Kolkata';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let savedZone: string | undefined;
beforeAll(() => {
  savedZone = process.env.TZ;
  process.env.TZ = ZONE;
});
afterAll(() => {
  if (savedZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedZone;
});

/** Local time in ZONE (process.env.TZ is set before any test runs). */
const local = (day: number, hour: number, minute = 0, second = 0, ms = 0) => new Date(2026, 2, day, hour, minute, second, ms).getTime();

async function withHistoryStore(fn: (db: Db) => Promise<void> | void): Promise<void> {
  await withTempDir((dir) => withStore(dir, fn));
}

describe('the last 24 hours (data)', () => {
  it('counts in local hours, the current partial hour last, across midnight; a later clock moves the window', async () => {
    await withHistoryStore((db) => {
      const clock = manualClock(local(15, 1, 20));
      deliverAt(db, 'requests', 'too-old', [{ at: local(14, 1, 59, 59, 999), outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'first-hour', [{ at: local(14, 2), outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'before-midnight', [{ at: local(14, 23, 59, 59, 999), outcome: 'rejected' }]);
      deliverAt(db, 'requests', 'midnight', [{ at: local(15, 0), outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'now', [{ at: clock(), outcome: 'held' }]);

      const history = requestHistory(db, ['requests'], clock()).get('requests')!;
      expect(history.hours).toHaveLength(24);
      // 02:00 on the 14th to 01:00 on the 15th, local: half past UTC's hours.
      expect(history.hours[0]).toBe('2026-03-13T20:30:00.000Z');
      expect(history.hours[21]).toBe('2026-03-14T17:30:00.000Z');
      expect(history.hours[22]).toBe('2026-03-14T18:30:00.000Z');
      expect(history.hours[23]).toBe('2026-03-14T19:30:00.000Z');
      expect(history.until).toBe(new Date(clock()).toISOString());
      const at = (i: number) => Object.fromEntries(Object.entries(history.series).map(([key, counts]) => [key, counts[i]]));
      expect(at(0)).toEqual({ accepted: 1, retry: 0, held: 0, rejected: 0, dead: 0 });
      expect(at(21)).toEqual({ accepted: 0, retry: 0, held: 0, rejected: 1, dead: 0 });
      expect(at(22)).toEqual({ accepted: 1, retry: 0, held: 0, rejected: 0, dead: 0 });
      expect(at(23)).toEqual({ accepted: 0, retry: 0, held: 1, rejected: 0, dead: 0 });
      expect(
        Object.values(history.series)
          .flat()
          .reduce((a, b) => a + b),
      ).toBe(4);

      // At 02:00 the 02:00 of yesterday has left the window and 01:00 is a whole hour.
      clock.advance(40 * MINUTE);
      const later = requestHistory(db, ['requests'], clock()).get('requests')!;
      expect(later.hours[0]).toBe('2026-03-13T21:30:00.000Z');
      expect(later.series.accepted.reduce((a, b) => a + b)).toBe(1);
      expect(later.series.held[22]).toBe(1);
      expect(later.series.held[23]).toBe(0);
    });
  });

  it('draws retry, paused and aborted as one “retrying”, keeps flows apart, and gives a flow with no attempts only zeros', async () => {
    await withHistoryStore((db) => {
      const now = local(15, 12, 30);
      deliverAt(db, 'requests', 'R-1', [
        { at: local(15, 10, 1), outcome: 'retry' },
        { at: local(15, 10, 2), outcome: 'paused' },
        { at: local(15, 10, 3), outcome: 'accepted' },
      ]);
      deliverAt(db, 'requests', 'R-2', [
        { at: local(15, 10, 4), outcome: 'aborted' },
        { at: local(15, 11, 5), outcome: 'retry' },
        { at: local(15, 11, 6), outcome: 'dead' },
      ]);
      deliverAt(db, 'confirmations', 'ORD-1', [{ at: local(15, 11, 7), outcome: 'accepted' }]);
      const histories = requestHistory(db, ['requests', 'confirmations', 'quiet'], now);
      const requests = histories.get('requests')!;
      // 10:00 is hour 21 of the window ending with 12:00.
      expect([requests.series.accepted[21], requests.series.retry[21], requests.series.dead[21]]).toEqual([1, 2, 0]);
      expect([requests.series.accepted[22], requests.series.retry[22], requests.series.dead[22]]).toEqual([0, 1, 1]);
      expect(histories.get('confirmations')!.series.accepted[22]).toBe(1);
      expect(histories.get('confirmations')!.series.retry.every((n) => n === 0)).toBe(true);
      expect(Object.values(histories.get('quiet')!.series).every((counts) => counts.length === 24 && counts.every((n) => n === 0))).toBe(true);
    });
  });

  it('counts real hours where the clock goes back: two bars are labelled 02:00 that night', async () => {
    await withHistoryStore((db) => {
      process.env.TZ = 'Europe/Berlin';
      try {
        // 04:30 CET on 25 October 2026, an hour and a half after 03:00 CEST became 02:00 CET.
        const now = Date.UTC(2026, 9, 25, 3, 30);
        deliverAt(db, 'requests', 'CEST', [{ at: Date.UTC(2026, 9, 25, 0, 10), outcome: 'accepted' }]);
        deliverAt(db, 'requests', 'CET', [{ at: Date.UTC(2026, 9, 25, 1, 10), outcome: 'rejected' }]);
        const history = requestHistory(db, ['requests'], now).get('requests')!;
        expect(history.hours.slice(-4).map(formatClock)).toEqual(['02:00', '02:00', '03:00', '04:00']);
        expect(history.hours.map((start, i) => (i === 0 ? HOUR : Date.parse(start) - Date.parse(history.hours[i - 1]!)))).toEqual(Array(24).fill(HOUR));
        expect([history.series.accepted[20], history.series.rejected[21]]).toEqual([1, 1]);
      } finally {
        process.env.TZ = ZONE;
      }
    });
  });

  it('counts on each page what was recorded since the last, as a count of every attempt does, and counts the window whole again within RECOUNT_MS', async () => {
    await withHistoryStore((db) => {
      const clock = manualClock(local(15, 12, 20));
      const retry = (id: number, at: number, outcome: string) =>
        db
          .prepare('INSERT INTO submission_attempts (submission_id, request_id, started_at, finished_at, outcome) VALUES (?, ?, ?, ?, ?)')
          .run(id, `again-${at}`, at - 50, at, outcome);
      const page = () => requestHistory(db, ['requests'], clock()).get('requests')!.series;
      const r1 = deliverAt(db, 'requests', 'R-1', [{ at: local(15, 12, 1), outcome: 'retry' }]);
      expect(page().retry[23]).toBe(1);
      // Tried again in the same hour, paused (drawn as retrying) and then retried: still one request there.
      retry(r1, local(15, 12, 5), 'paused');
      retry(r1, local(15, 12, 6), 'retry');
      deliverAt(db, 'requests', 'R-2', [{ at: local(15, 11, 59), outcome: 'accepted' }]);
      expect([page().retry[23], page().accepted[22]]).toEqual([1, 1]);
      retry(r1, local(15, 12, 10), 'dead');
      clock.advance(MINUTE);
      expect([page().retry[23], page().dead[23], page().accepted[22]]).toEqual([1, 1, 1]);

      // Attempts deleted and their ids given again (not something the daemon does: housekeeping
      // deletes only attempts older than the window): a page may miss it until the next recount.
      db.prepare('DELETE FROM submission_attempts WHERE id = (SELECT max(id) FROM submission_attempts)').run();
      retry(addRequestRow(db, 'requests', validRequest('R-3')), local(15, 12, 11), 'held');
      retry(r1, local(15, 12, 12), 'rejected');
      page();
      clock.advance(RECOUNT_MS);
      expect(clock()).toBeLessThan(local(15, 13));
      const recounted = page();
      expect([recounted.retry[23], recounted.dead[23], recounted.held[23], recounted.rejected[23], recounted.accepted[22]]).toEqual([1, 0, 1, 1, 1]);
    });
  });

  it('counts webhook events by the hour they were stored, applied or stored only', async () => {
    await withHistoryStore((db) => {
      const now = local(15, 0, 10);
      receiveEventAt(db, 'EVT-1', 'ORD-1', local(14, 23, 50));
      receiveEventAt(db, 'EVT-2', 'ORD-1', local(14, 23, 55), local(14, 23, 0));
      receiveEventAt(db, 'EVT-3', 'ORD-2', local(15, 0, 5));
      receiveEventAt(db, 'EVT-3', 'ORD-2', local(15, 0, 6));
      const history = eventHistory(db, now);
      expect([history.series.applied[22], history.series.storedOnly[22]]).toEqual([1, 1]);
      expect([history.series.applied[23], history.series.storedOnly[23]]).toEqual([1, 0]);
      expect(history.series.applied.reduce((a, b) => a + b) + history.series.storedOnly.reduce((a, b) => a + b)).toBe(3);
    });
  });
});

/** The text of every `<title>` in a chart's HTML (its hours' tooltips), in order. */
const titles = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!);
/** The chart figures of the page, each's HTML. */
const figures = (html: string) => [...html.matchAll(/<figure class="chart">[\s\S]*?<\/figure>/g)].map((m) => m[0]);
const ariaLabel = (figure: string) => /<svg [^>]*aria-label="([^"]*)"/.exec(figure)?.[1];

describe('the overview’s charts (HTTP)', () => {
  it('draw each flow’s outcomes and the webhook events per hour as SVG, with each hour’s numbers in its tooltip', async () => {
    await withHistoryStore(async (db) => {
      const clock = manualClock(local(15, 1, 20));
      deliverAt(db, 'requests', 'A-1', [{ at: local(14, 23, 10), outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'A-2', [
        { at: local(14, 23, 20), outcome: 'retry' },
        { at: local(15, 0, 20), outcome: 'accepted' },
      ]);
      deliverAt(db, 'requests', 'A-3', [{ at: local(15, 1, 5), outcome: 'rejected' }]);
      deliverAt(db, 'requests', 'A-4', [{ at: local(15, 1, 6), outcome: 'accepted' }]);
      receiveEventAt(db, 'EVT-1', 'ORD-1', local(15, 1, 10));
      receiveEventAt(db, 'EVT-2', 'ORD-1', local(15, 1, 11), local(15, 0, 0));

      await withConsoleServer({ db, clock, flows: [{ name: 'requests', kind: 'requests' }] }, async (url) => {
        const page = await send(`${url}/`);
        expect(page.status).toBe(200);
        expect(page.body).not.toMatch(/style=|<script>/);
        const [requests, events, ...others] = figures(page.body);
        expect(others).toEqual([]);
        expect(ariaLabel(requests!)).toBe('Requests per hour, last 24 h: 3 accepted, 1 retrying, 1 rejected');
        expect(ariaLabel(events!)).toBe('Webhook events per hour, last 24 h: 1 applied, 1 stored only');

        const hours = titles(requests!);
        expect(hours).toHaveLength(24);
        expect(hours[0]).toBe('02:00–03:00: none');
        expect(hours[21]).toBe('23:00–00:00: 1 accepted, 1 retrying');
        expect(hours[22]).toBe('00:00–01:00: 1 accepted');
        expect(hours[23]).toBe('01:00–01:20 (now): 1 accepted, 1 rejected');
        expect(titles(events!)[23]).toBe('01:00–01:20 (now): 1 applied, 1 stored only');
        expect(requests).toContain('<figcaption>Requests per hour, last 24 h</figcaption>');
        // The axis: hours every three, and its top (the tallest bar, 2, is its own nice number).
        expect([...requests!.matchAll(/>(\d\d:00)<\/text>/g)].map((m) => m[1])).toEqual([
          '03:00',
          '06:00',
          '09:00',
          '12:00',
          '15:00',
          '18:00',
          '21:00',
          '00:00',
        ]);
        expect(requests).toMatch(/<text class="max"[^>]*>2<\/text>/);
        expect(requests).toMatch(/<li>.*3 accepted<\/li>/);

        const json = (await send(`${url}/`, { headers: { accept: 'application/json' } })).json<{
          flows: { lastDay: { series: Record<string, number[]> } }[];
          webhook: { lastDay: { series: Record<string, number[]> } };
        }>();
        expect(json.flows[0]!.lastDay.series.accepted!.slice(21)).toEqual([1, 1, 1]);
        expect(json.webhook.lastDay.series.storedOnly![23]).toBe(1);
      });
    });
  });

  it('says so when a flow had nothing in the last 24 hours, and speaks Russian', async () => {
    await withHistoryStore(async (db) => {
      const clock = manualClock(local(15, 9, 45));
      deliverAt(db, 'requests', 'R-1', [{ at: local(15, 9, 30), outcome: 'accepted' }]);
      deliverAt(db, 'requests', 'R-2', [{ at: local(15, 9, 31), outcome: 'dead' }]);
      // Older than the window: the flow is empty for the chart.
      deliverAt(db, 'confirmations', 'ORD-1', [{ at: local(14, 9, 59), outcome: 'accepted' }]);
      const flows = [
        { name: 'requests', kind: 'requests' },
        { name: 'confirmations', kind: 'confirmations' },
      ] as const;

      await withConsoleServer({ db, clock, flows, webhook: false }, async (url) => {
        const [, confirmations, ...others] = figures((await send(`${url}/`)).body);
        expect(others).toEqual([]);
        expect(ariaLabel(confirmations!)).toBe('No confirmations in the last 24 hours');
        expect(confirmations).toContain('>No confirmations in the last 24 hours</text>');
        expect(confirmations).not.toContain('<title>');
        expect(confirmations).not.toContain('class="legend"');
      });

      await withConsoleServer({ db, clock, flows, language: 'ru' }, async (url) => {
        const [requests, confirmations, events] = figures((await send(`${url}/`)).body);
        expect(ariaLabel(requests!)).toBe('Заявки по часам за последние 24 ч: принято: 1, не доставлено: 1');
        expect(titles(requests!)[23]).toBe('09:00–09:45 (сейчас): принято: 1, не доставлено: 1');
        expect(ariaLabel(confirmations!)).toBe('За последние 24 часа подтверждений не было');
        expect(ariaLabel(events!)).toBe('За последние 24 часа событий не было');
      });
    });
  });
});
