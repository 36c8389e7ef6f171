/**
 * Version 1: the whole first schema. Times are epoch milliseconds (INTEGER); JSON is TEXT.
 * Each table has one query file in `src/store/` named after it.
 */
export const INITIAL_SCHEMA = `
-- Input files taken from a flow's inbox. Claimed by INSERT against the UNIQUE (flow, sha256):
-- the same content dropped twice is recognised by that index, never by a check-then-act.
CREATE TABLE files (
  id             INTEGER PRIMARY KEY,
  flow           TEXT    NOT NULL,
  sha256         TEXT    NOT NULL,
  original_name  TEXT    NOT NULL,
  size_bytes     INTEGER NOT NULL,
  state          TEXT    NOT NULL,            -- FILE_STATE: processing | archived | rejected
  current_path   TEXT,                        -- where the file is now
  request_count  INTEGER NOT NULL DEFAULT 0,  -- submissions recorded from it
  problem_count  INTEGER NOT NULL DEFAULT 0,
  report         TEXT,                        -- JSON array of problems, when there were any
  claimed_at     INTEGER NOT NULL,
  finished_at    INTEGER
);
CREATE UNIQUE INDEX files_flow_sha256 ON files (flow, sha256);
CREATE INDEX files_state ON files (state);

-- The outbox: one row per request (or supplier confirmation) to deliver.
CREATE TABLE submissions (
  id                INTEGER PRIMARY KEY,
  flow              TEXT    NOT NULL,
  kind              TEXT    NOT NULL,           -- 'request' | 'confirmation'
  dedupe_key        TEXT    NOT NULL,           -- externalId; for confirmations orderId + ':' + payload hash
  external_id       TEXT    NOT NULL,           -- externalId, or the order id for confirmations
  order_id          TEXT,                       -- confirmations: the <order_id> path segment
  payload           TEXT    NOT NULL,           -- the JSON body, exactly as sent
  payload_hash      TEXT    NOT NULL,           -- SHA-256 of payload
  idempotency_key   TEXT    NOT NULL,           -- stable across attempts, crashes and re-drops
  file_id           INTEGER REFERENCES files (id),
  source_row        INTEGER,                    -- first row of the request in its file
  state             TEXT    NOT NULL,           -- SUBMISSION_STATE
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_at   INTEGER NOT NULL,           -- due time; the backoff schedule lives here
  lease_until       INTEGER,                    -- while in flight: a crash releases the row after this
  first_attempt_at  INTEGER,
  last_attempt_at   INTEGER,
  last_status       INTEGER,                    -- last HTTP status, if any
  last_error_code   TEXT,                       -- ConnectorError code of the last failure
  last_error        TEXT,
  result            TEXT,                       -- JSON: the platform's answer or its problem details
  platform_id       TEXT,                       -- request id (REQ) or order id
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  finished_at       INTEGER
);
CREATE UNIQUE INDEX submissions_flow_dedupe ON submissions (flow, dedupe_key);
CREATE UNIQUE INDEX submissions_flow_key ON submissions (flow, idempotency_key);
CREATE INDEX submissions_due ON submissions (flow, state, next_attempt_at);
CREATE INDEX submissions_file ON submissions (file_id);

-- Every attempt to send a submission, with its X-Request-Id and outcome.
CREATE TABLE submission_attempts (
  id             INTEGER PRIMARY KEY,
  submission_id  INTEGER NOT NULL REFERENCES submissions (id),
  request_id     TEXT    NOT NULL,              -- the X-Request-Id of this attempt
  started_at     INTEGER NOT NULL,
  finished_at    INTEGER,
  http_status    INTEGER,
  outcome        TEXT,                          -- accepted | retry | rejected | held | paused | ...
  error          TEXT
);
CREATE INDEX submission_attempts_submission ON submission_attempts (submission_id);

-- Webhook events, stored once by eventId (replay protection rests on this: keep >= 30 days).
CREATE TABLE events (
  event_id       TEXT    PRIMARY KEY,
  event_type     TEXT    NOT NULL,
  order_id       TEXT,
  status         TEXT,
  event_date     TEXT    NOT NULL,              -- as sent
  event_date_ms  INTEGER NOT NULL,
  body           TEXT    NOT NULL,              -- the raw JSON body
  applied        INTEGER NOT NULL DEFAULT 0,    -- 1 when it changed the order's status
  received_at    INTEGER NOT NULL
);
CREATE INDEX events_received_at ON events (received_at);

-- The last applied status of each order: an older event does not roll it back.
CREATE TABLE order_statuses (
  order_id       TEXT    PRIMARY KEY,
  status         TEXT    NOT NULL,
  event_id       TEXT    NOT NULL,
  event_date_ms  INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);

-- The export outbox: a row per record to write into an ERP import folder (status changes,
-- acknowledgements). It stays here until its file exists, so a restart writes what is missing.
CREATE TABLE exports (
  id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: {seq} in file names stays unique after housekeeping
  channel      TEXT    NOT NULL,                -- 'status', or 'ack:<flow name>'
  source_key   TEXT    NOT NULL,                -- what makes it unique: eventId, or submission id + outcome
  record       TEXT    NOT NULL,                -- JSON object the export mapping picks its columns from
  state        TEXT    NOT NULL,                -- 'pending' | 'written'
  file_name    TEXT,                            -- the deterministic name, once chosen
  created_at   INTEGER NOT NULL,
  written_at   INTEGER
);
CREATE UNIQUE INDEX exports_channel_source ON exports (channel, source_key);
CREATE INDEX exports_pending ON exports (state, channel, id);
`;
