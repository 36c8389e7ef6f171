/**
 * The overview's last 24 hours: per flow, what delivery did with its submissions each hour, and the
 * webhook events stored each hour; in the server's local hours, the current (partial) one last.
 *
 * Where the times come from, and why: `submission_attempts` keeps every attempt with its outcome
 * and the time it was recorded (`finished_at`), and nothing ever rewrites it. A submission's own
 * `updated_at` would say only where each row stands now, at its last change: a request rejected at
 * 09:00 and requeued and accepted at 14:00 would show only at 14:00, and one retried all afternoon
 * only at its last try. The attempts show both, each in its hour.
 *
 * Limits (the README says them too):
 * - A request is counted once per outcome and hour: tried five times in an hour and then accepted,
 *   it counts once under "retrying" and once under "accepted" there. A bar adds up outcomes, not
 *   distinct requests.
 * - Requests not yet tried (pending, waiting out a backoff) are in no hour; the counts by state
 *   above the chart have them.
 * - Housekeeping deletes attempts with their finished rows after `retentionDays` (at least 1), so
 *   a day's history is always there.
 * - Hours are real hours counted back from the start of the current local hour: on the night a
 *   clock goes back an hour, two bars are labelled 02:00; when it goes forward, 02:00 has none.
 * - Webhook events are stored once per eventId: repeats and refused requests are in no hour (the
 *   card shows refusals since start from the metrics).
 * - Times are the daemon's clock when it recorded them: if that clock is set back, the hours it
 *   repeats hold the rows of both passes.
 */
import {
  attemptOutcomesAfter,
  attemptOutcomesByHour,
  eventsByHour,
  lastAttemptId,
  type AttemptOutcomeCount,
  type HourWindow,
} from '../../../store/console-history.js';
import type { Db } from '../../../store/open-store.js';
import { transact } from '../../../store/statement.js';
import { iso, startOfLocalHour } from '../format.js';

export const HOUR_MS = 3_600_000;
export const HOURS = 24;

/** Outcomes of a flow's submissions as the chart stacks them, bottom up. */
export const REQUEST_OUTCOMES = ['accepted', 'retry', 'held', 'rejected', 'dead'] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/**
 * Attempt outcomes that send a row back to the outbox, drawn as "retrying": a failure to retry
 * (`retry`), a token the platform refused (`paused`: the row waits for the flow to resume), an
 * attempt given up at shutdown (`aborted`).
 */
const RETRY_GROUP: Readonly<Record<string, RequestOutcome>> = { retry: 'retry', paused: 'retry', aborted: 'retry' };

/** Webhook events: applied (changed their order's status) or stored only (older than the applied status, or no status change). */
export const EVENT_OUTCOMES = ['applied', 'storedOnly'] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** Counts per hour of a few series over the last 24 hours. */
export interface HourlyHistory<K extends string> {
  /** Start of each hour (ISO 8601, UTC), oldest first; the last is the current hour. */
  hours: string[];
  /** The time of the page: the last hour is counted up to here. */
  until: string;
  /** Per series, its count in each hour (in the order of `hours`). */
  series: Record<K, number[]>;
}

/** The 24 hours ending with the current local hour `now` is in. */
export function lastDayWindow(now: number): HourWindow {
  const current = startOfLocalHour(now);
  return { since: current - (HOURS - 1) * HOUR_MS, until: current + HOUR_MS, hourMs: HOUR_MS };
}

function emptyHistory<K extends string>(range: HourWindow, now: number, keys: readonly K[]): HourlyHistory<K> {
  const hours = Array.from({ length: HOURS }, (_, i) => iso(range.since + i * HOUR_MS)!);
  const series = Object.fromEntries(keys.map((key) => [key, new Array<number>(HOURS).fill(0)])) as Record<K, number[]>;
  return { hours, until: new Date(now).toISOString(), series };
}

function add<K extends string>(history: HourlyHistory<K>, key: K, hour: number, n: number): void {
  const counts = history.series[key];
  if (hour >= 0 && hour < HOURS) counts[hour] = (counts[hour] ?? 0) + n;
}

/**
 * The request chart's counts as of attempt `upTo`, kept between pages of one store: a page counts
 * only the attempts recorded since the last one (`attemptOutcomesAfter`), where counting the whole
 * window again sorted every attempt of the day on every page, a cost that grew with the day's
 * traffic and was paid on the event loop the intake and delivery share.
 */
interface AttemptTally {
  since: number;
  until: number;
  upTo: number;
  countedAt: number;
  counts: Map<string, AttemptOutcomeCount>;
}

const tallies = new WeakMap<Db, AttemptTally>();

/**
 * How long a tally is added to before the window is counted whole again. Attempts are never
 * rewritten, and housekeeping deletes only those older than a day, outside the window; a recount
 * now and then still bounds what a count kept by additions could miss (ids of deleted attempts
 * given again by SQLite, a clock set back).
 */
export const RECOUNT_MS = 10 * 60_000;

const tallyKey = (row: AttemptOutcomeCount) => `${row.flow}\u0000${row.hour}\u0000${row.outcome}`;

/** `attemptOutcomesByHour` over `range` for the chart, from the store's tally when it has one for the window. */
function lastDayCounts(db: Db, range: HourWindow, now: number): Iterable<AttemptOutcomeCount> {
  // One read transaction: the last id and the attempts counted up to it are of one snapshot.
  return transact(db, () => {
    const upTo = lastAttemptId(db);
    const kept = tallies.get(db);
    const fresh =
      kept !== undefined &&
      kept.since === range.since &&
      kept.until === range.until &&
      upTo >= kept.upTo &&
      now >= kept.countedAt &&
      now - kept.countedAt < RECOUNT_MS;
    if (!fresh) {
      const counts = new Map(attemptOutcomesByHour(db, range, RETRY_GROUP).map((row) => [tallyKey(row), row]));
      tallies.set(db, { since: range.since, until: range.until, upTo, countedAt: now, counts });
      return counts.values();
    }
    if (upTo > kept.upTo) {
      for (const row of attemptOutcomesAfter(db, range, kept.upTo, RETRY_GROUP)) {
        const key = tallyKey(row);
        const had = kept.counts.get(key);
        kept.counts.set(key, had ? { ...had, submissions: had.submissions + row.submissions } : row);
      }
      kept.upTo = upTo;
    }
    return kept.counts.values();
  });
}

/** Per flow name, its submissions' outcomes per hour; a flow with no attempts in the window has all zeros. */
export function requestHistory(db: Db, flows: readonly string[], now: number): Map<string, HourlyHistory<RequestOutcome>> {
  const range = lastDayWindow(now);
  const byFlow = new Map(flows.map((flow) => [flow, emptyHistory(range, now, REQUEST_OUTCOMES)]));
  for (const row of lastDayCounts(db, range, now)) {
    const history = byFlow.get(row.flow);
    // An outcome this code does not know sends its row back to pending, as every non-final one does.
    const key = (REQUEST_OUTCOMES as readonly string[]).includes(row.outcome) ? (row.outcome as RequestOutcome) : 'retry';
    if (history) add(history, key, row.hour, row.submissions);
  }
  return byFlow;
}

/** Webhook events stored per hour, applied or not. */
export function eventHistory(db: Db, now: number): HourlyHistory<EventOutcome> {
  const range = lastDayWindow(now);
  const history = emptyHistory(range, now, EVENT_OUTCOMES);
  for (const row of eventsByHour(db, range)) {
    add(history, 'applied', row.hour, row.applied);
    add(history, 'storedOnly', row.hour, row.events - row.applied);
  }
  return history;
}
