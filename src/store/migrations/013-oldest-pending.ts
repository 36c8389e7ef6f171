/**
 * Version 13: `submissions_due` also holds `created_at`, so that the oldest pending request of each
 * flow (the overview, `status`, the metrics, the daily summary: `oldestPendingByFlow`) is read from
 * the index alone. Without it the planner walked another index that starts with `flow` and read
 * every row of `submissions` for its `created_at`, past the payload before it: about 100 ms on the
 * console bench's 100,000 requests, most of the overview's time (docs/performance.md, Console);
 * with it, 4 ms. The due query the dispatcher runs reads the same index as before.
 */
export const OLDEST_PENDING_SCHEMA = `
DROP INDEX submissions_due;
CREATE INDEX submissions_due ON submissions (flow, state, next_attempt_at, created_at);
`;
