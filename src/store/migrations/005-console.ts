/**
 * Version 5: what the operator console needs.
 * - `audit`: every action taken in the console (who, what, when, result), shown on the page it
 *   touched and kept for good (a few rows a week; housekeeping leaves it alone).
 * - `submission_attempts.result`: the platform's answer to each attempt (its result or its problem
 *   details, JSON, scrubbed like `submissions.result`), so the timeline shows every attempt's
 *   problem, not only the last one. Attempts recorded before this version have NULL.
 * - Indexes for the console's searches and timelines: by externalId, platform id and order id,
 *   the last error per flow, an order's events, a flow's files by day.
 */
export const CONSOLE_SCHEMA = `
CREATE TABLE audit (
  id        INTEGER PRIMARY KEY,
  at        INTEGER NOT NULL,                 -- epoch ms
  actor     TEXT    NOT NULL,                 -- the name given at login ('operator' when none)
  address   TEXT,                             -- the client's address
  action    TEXT    NOT NULL,                 -- CONSOLE_ACTION: retry-submission | retry-dead | retake-file | resume-flow
  flow      TEXT,
  target    TEXT,                             -- externalId, file id, or the flow
  result    TEXT    NOT NULL,                 -- ok | nothing | failed
  detail    TEXT                              -- what happened, for people
);
CREATE INDEX audit_target ON audit (flow, target, id);

ALTER TABLE submission_attempts ADD COLUMN result TEXT;

CREATE INDEX submissions_external_id ON submissions (flow, external_id);
CREATE INDEX submissions_platform_id ON submissions (platform_id) WHERE platform_id IS NOT NULL;
CREATE INDEX submissions_order_id ON submissions (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX submissions_last_error ON submissions (flow, updated_at) WHERE last_error_code IS NOT NULL;
CREATE INDEX events_order ON events (order_id, event_date_ms) WHERE order_id IS NOT NULL;
CREATE INDEX files_flow_claimed ON files (flow, claimed_at);
`;
