/**
 * Version 8: 1C's data exchange (EnterpriseData through a folder, `exchanges.ts`).
 * - `exchanges`: one row per exchange (a flow and its two node codes): what 1C declared in its
 *   settings, the last of its messages taken, our own message number and whether our reply is
 *   still to be written. A new pair of codes is a new exchange, numbered from the start.
 * - `exchange_messages`: one row per message file read, beside its `files` row: its number, what
 *   it was taken as, the numbers it carried. Written in the transaction that decides the file.
 */
export const EXCHANGES_SCHEMA = `
CREATE TABLE exchanges (
  flow TEXT NOT NULL,
  node TEXT NOT NULL,
  peer TEXT NOT NULL,
  exchange_plan TEXT,
  peer_versions TEXT,
  peer_object_types TEXT,
  agreed_version TEXT,
  settings_at INTEGER,
  last_taken_no INTEGER NOT NULL DEFAULT 0,
  last_taken_at INTEGER,
  last_message_at INTEGER,
  peer_received_no INTEGER NOT NULL DEFAULT 0,
  sent_no INTEGER NOT NULL DEFAULT 0,
  reply_format TEXT,
  reply_received_no INTEGER NOT NULL DEFAULT 0,
  reply_due INTEGER NOT NULL DEFAULT 0,
  reply_written_at INTEGER,
  acknowledged_no INTEGER,
  PRIMARY KEY (flow, node, peer)
) WITHOUT ROWID;
CREATE TABLE exchange_messages (
  file_id INTEGER PRIMARY KEY REFERENCES files (id) ON DELETE CASCADE,
  flow TEXT NOT NULL,
  node TEXT NOT NULL,
  peer TEXT NOT NULL,
  kind TEXT NOT NULL,
  message_no INTEGER,
  received_no INTEGER,
  format TEXT,
  recorded_at INTEGER NOT NULL
);
CREATE INDEX exchange_messages_flow ON exchange_messages (flow, file_id);
`;
