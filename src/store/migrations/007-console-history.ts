/**
 * Version 7: indexes for the overview's last-24-hours charts (`console-history.ts`); what they
 * changed on the console bench's store is in docs/performance.md (Console):
 * - `submission_attempts` had only its `submission_id` index, so "attempts finished since" read
 *   every submission and its attempts, a cost growing with the store. On `(finished_at, outcome,
 *   submission_id)` it reads the day's attempts from the index alone, a cost growing with the day.
 *   One more index entry per attempt is the price on the delivery path.
 * - `events_received_at` becomes `(received_at, applied)`: counting each hour's applied events
 *   reads only the index instead of every event row of the day (which counts most when the table is
 *   not in the page cache), and every query that ranged over `received_at` (today's count, the
 *   events page, housekeeping) ranges over its prefix, with the same plans. Replaced, not added, so
 *   a webhook event still costs one index entry on `received_at`; `applied` is written with the row
 *   and never changes.
 */
export const CONSOLE_HISTORY_SCHEMA = `
CREATE INDEX submission_attempts_finished ON submission_attempts (finished_at, outcome, submission_id);
DROP INDEX events_received_at;
CREATE INDEX events_received_applied ON events (received_at, applied);
`;
