/**
 * Read queries of the operator console's charts: what happened per hour over a recent window, from
 * the history the store already keeps. Both count rows in `[since, until)` in hours of `hourMs`
 * counted from `since` (hour 0 starts at `since`); which hours those are, and what each outcome
 * means to an operator, the console decides. Each is a range on an index of migration 7, so its
 * cost grows with the window's rows, not with the store.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/** A window of whole hours: `[since, until)`, hours of `hourMs` from `since`. */
export interface HourWindow {
  since: number;
  until: number;
  hourMs: number;
}

/** An attempt's hour in the window (`alias` names `submission_attempts`). Better-sqlite3 binds numbers as REAL, hence the CAST. */
const hourOf = (alias: string) => `CAST((${alias}.finished_at - @since) / @hourMs AS INTEGER)`;
/** An attempt's outcome, or the group `@groups` puts it in. */
const outcomeOf = (alias: string) => `coalesce(json_extract(@groups, '$."' || ${alias}.outcome || '"'), ${alias}.outcome)`;

/** The statements, named so that a test can read their query plans (`@since`, `@until`, `@hourMs`, `@hours`, `@afterId`; `@groups` a JSON object). */
export const HISTORY_SQL = {
  attemptOutcomesByHour: `SELECT s.flow AS flow, ${hourOf('a')} AS hour, ${outcomeOf('a')} AS outcome, count(DISTINCT a.submission_id) AS submissions
    FROM submission_attempts a JOIN submissions s ON s.id = a.submission_id
   WHERE a.finished_at >= @since AND a.finished_at < @until
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3`,
  // The same counts, of the attempts after id `@afterId` alone: an attempt counts where no earlier
  // one (a smaller id) of its submission ended in the same hour and outcome. What this adds to
  // `attemptOutcomesByHour` up to `@afterId` is that query's count over every attempt, one index
  // search per new attempt instead of the window's attempts sorted again (`data/history.ts`). The
  // unary `+` keeps SQLite off the finished_at index, which would read every attempt of the window
  // to find the new ones: the ids after the mark are a range of the table itself.
  attemptOutcomesAfter: `SELECT s.flow AS flow, ${hourOf('a')} AS hour, ${outcomeOf('a')} AS outcome, count(*) AS submissions
    FROM submission_attempts a JOIN submissions s ON s.id = a.submission_id
   WHERE a.id > @afterId AND +a.finished_at >= @since AND +a.finished_at < @until
     AND NOT EXISTS (
       SELECT 1 FROM submission_attempts b
        WHERE b.submission_id = a.submission_id AND b.id < a.id AND b.finished_at >= @since AND b.finished_at < @until
          AND ${hourOf('b')} = ${hourOf('a')} AND ${outcomeOf('b')} IS ${outcomeOf('a')})
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3`,
  lastAttemptId: 'SELECT coalesce(max(id), 0) FROM submission_attempts',
  // A range count per hour instead of one GROUP BY: grouping sorted every event of the window in a
  // temporary b-tree, counting each hour's range on the index does not, and takes a fraction of
  // the time (docs/performance.md, Console).
  eventsByHour: `WITH RECURSIVE hours(hour) AS (SELECT 0 UNION ALL SELECT hour + 1 FROM hours WHERE hour + 1 < @hours)
  SELECT hour,
         (SELECT count(*) FROM events WHERE received_at >= @since + hour * @hourMs AND received_at < @since + (hour + 1) * @hourMs) AS events,
         (SELECT count(*) FROM events WHERE received_at >= @since + hour * @hourMs AND received_at < @since + (hour + 1) * @hourMs AND applied = 1) AS applied
    FROM hours ORDER BY hour`,
} as const;

/** How many submissions of `flow` had an attempt whose outcome falls in `outcome` finish in hour `hour` of the window. */
export interface AttemptOutcomeCount {
  flow: string;
  hour: number;
  /** `submission_attempts.outcome` (accepted | retry | rejected | held | paused | dead | aborted), or the group the caller put it in. */
  outcome: string;
  submissions: number;
}

/**
 * Per flow, hour and attempt outcome, how many submissions had an attempt end that way, by the
 * attempt's `finished_at` (when the outcome was recorded). A submission counts once per outcome and
 * hour however often it was tried in it. `groups` renames outcomes before counting (`{ paused:
 * 'retry' }`), so a submission with attempts of two outcomes of one group in an hour counts once in
 * it; an outcome not named keeps its own name. One query for every flow: the window's attempts are
 * read from `submission_attempts_finished` alone, each one's flow by its submission's rowid.
 */
export function attemptOutcomesByHour(db: Db, range: HourWindow, groups: Readonly<Record<string, string>> = {}): AttemptOutcomeCount[] {
  return statement(db, HISTORY_SQL.attemptOutcomesByHour).all({
    since: range.since,
    until: range.until,
    hourMs: range.hourMs,
    groups: JSON.stringify(groups),
  }) as AttemptOutcomeCount[];
}

/**
 * `attemptOutcomesByHour` of the attempts with an id above `afterId` only, each counted where no
 * earlier attempt of its submission was counted: adding these to that function's rows as they
 * were when `afterId` was the last attempt gives its rows now.
 */
export function attemptOutcomesAfter(db: Db, range: HourWindow, afterId: number, groups: Readonly<Record<string, string>> = {}): AttemptOutcomeCount[] {
  return statement(db, HISTORY_SQL.attemptOutcomesAfter).all({
    since: range.since,
    until: range.until,
    hourMs: range.hourMs,
    afterId,
    groups: JSON.stringify(groups),
  }) as AttemptOutcomeCount[];
}

/** The id of the newest attempt, 0 with none. */
export function lastAttemptId(db: Db): number {
  return statement(db, HISTORY_SQL.lastAttemptId).pluck().get() as number;
}

/** How many webhook events were stored in hour `hour` of the window, and how many of them changed their order's status. */
export interface EventCount {
  hour: number;
  events: number;
  applied: number;
}

/**
 * Per hour of the window (every hour, with zeros), the events stored then (`received_at`) and
 * those of them that changed their order's status (`applied`). A repeated eventId stores no row,
 * so repeats are not counted here; nor are refused requests. Read from `events_received_applied`
 * alone.
 */
export function eventsByHour(db: Db, range: HourWindow): EventCount[] {
  return statement(db, HISTORY_SQL.eventsByHour).all({
    since: range.since,
    hourMs: range.hourMs,
    hours: Math.round((range.until - range.since) / range.hourMs),
  }) as EventCount[];
}
