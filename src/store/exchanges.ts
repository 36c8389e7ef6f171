/**
 * Queries on `exchanges` and `exchange_messages` (migrations 8 and 10): the state of each of 1C's data
 * exchanges, and the message files read. The intake stage decides what a message does
 * (`exchange/decide-message.ts`); these functions write it, inside the transaction that decides
 * the message's file, so that its requests, its number and what we acknowledge are one commit.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/** One exchange: a flow with its two node codes. */
export interface ExchangeKey {
  flow: string;
  node: string;
  peer: string;
}

export const EXCHANGE_MESSAGE_KIND = { settings: 'settings', taken: 'taken', stale: 'stale', refused: 'refused' } as const;
export type ExchangeMessageKind = (typeof EXCHANGE_MESSAGE_KIND)[keyof typeof EXCHANGE_MESSAGE_KIND];

/** Under which name 1C writes its messages to us: the codes as they are, or transliterated (its "transliterate file names" setting). */
export const EXCHANGE_NAME_FORM = { plain: 'plain', transliterated: 'transliterated' } as const;
export type ExchangeNameForm = (typeof EXCHANGE_NAME_FORM)[keyof typeof EXCHANGE_NAME_FORM];

/** A message file as it was read, as it leaves the store (camelCase: `MESSAGE_COLUMNS`). */
export interface ExchangeMessage {
  fileId: number;
  flow: string;
  kind: ExchangeMessageKind;
  messageNo: number | null;
  receivedNo: number | null;
  format: string | null;
  recordedAt: number;
}

const MESSAGE_COLUMNS = 'file_id AS fileId, flow, kind, message_no AS messageNo, received_no AS receivedNo, format, recorded_at AS recordedAt';

/** An exchange's state as the stages outside the store read it (camelCase: `STATE_COLUMNS` aliases the columns). */
export interface ExchangeState {
  flow: string;
  node: string;
  peer: string;
  exchangePlan: string | null;
  /** JSON: the versions 1C declared in its last header. */
  peerVersions: string | null;
  /** JSON: the object types 1C declared in its settings. */
  peerObjectTypes: string | null;
  /** The highest version both sides read (from the settings), or the version of the last data message. */
  agreedVersion: string | null;
  settingsAt: number | null;
  /** The number of the last data message taken (0: none). */
  lastTakenNo: number;
  lastTakenAt: number | null;
  /** When a message of 1C's was last read, whatever it was taken as. */
  lastMessageAt: number | null;
  /** 1C's `ReceivedNo`: the last of our messages 1C accepted. */
  peerReceivedNo: number;
  /** Our own last message number. */
  sentNo: number;
  /** The format of our reply: `settings`, or the version it acknowledges in. */
  replyFormat: string | null;
  /** The `ReceivedNo` our reply carries. */
  replyReceivedNo: number;
  /** 1 while our reply is still to be written into the folder. */
  replyDue: number;
  replyWrittenAt: number | null;
  /** The `ReceivedNo` of the reply last written into the folder (what 1C reads now); null before any. */
  acknowledgedNo: number | null;
  /** Under which name 1C wrote its last message to us; null before any, or when the codes read the same transliterated. */
  peerNameForm: ExchangeNameForm | null;
  /** The name our reply was last written under; null before any (or when written before migration 10). */
  replyName: string | null;
}

const STATE_COLUMNS = `flow, node, peer, exchange_plan AS exchangePlan, peer_versions AS peerVersions, peer_object_types AS peerObjectTypes,
  agreed_version AS agreedVersion, settings_at AS settingsAt, last_taken_no AS lastTakenNo, last_taken_at AS lastTakenAt,
  last_message_at AS lastMessageAt, peer_received_no AS peerReceivedNo, sent_no AS sentNo, reply_format AS replyFormat,
  reply_received_no AS replyReceivedNo, reply_due AS replyDue, reply_written_at AS replyWrittenAt, acknowledged_no AS acknowledgedNo,
  peer_name_form AS peerNameForm, reply_name AS replyName`;

/** An exchange's state, if it has had a message. */
export function exchangeStateOf(db: Db, key: ExchangeKey): ExchangeState | undefined {
  return statement(db, `SELECT ${STATE_COLUMNS} FROM exchanges WHERE flow = ? AND node = ? AND peer = ?`).get(key.flow, key.node, key.peer) as
    ExchangeState | undefined;
}

/** Every exchange of a flow (an earlier pair of codes included), the current one first when it exists. */
export function listExchanges(db: Db, flow: string): ExchangeState[] {
  return statement(db, `SELECT ${STATE_COLUMNS} FROM exchanges WHERE flow = ? ORDER BY last_message_at DESC`).all(flow) as ExchangeState[];
}

/** The fields of an exchange a message may change, as its stage decided them (`exchange/next-exchange-state.ts`). */
export type ExchangePatch = Partial<Omit<ExchangeState, 'flow' | 'node' | 'peer'>>;

/** The column of each field a patch may set. */
const PATCH_COLUMNS: Readonly<Record<keyof ExchangePatch, string>> = {
  exchangePlan: 'exchange_plan',
  peerVersions: 'peer_versions',
  peerObjectTypes: 'peer_object_types',
  agreedVersion: 'agreed_version',
  settingsAt: 'settings_at',
  lastTakenNo: 'last_taken_no',
  lastTakenAt: 'last_taken_at',
  lastMessageAt: 'last_message_at',
  peerReceivedNo: 'peer_received_no',
  sentNo: 'sent_no',
  replyFormat: 'reply_format',
  replyReceivedNo: 'reply_received_no',
  replyDue: 'reply_due',
  replyWrittenAt: 'reply_written_at',
  acknowledgedNo: 'acknowledged_no',
  peerNameForm: 'peer_name_form',
  replyName: 'reply_name',
};
const PATCHABLE = Object.keys(PATCH_COLUMNS) as (keyof ExchangePatch)[];

/** Write what a message changed in its exchange (the row is made if it is the exchange's first message). */
export function saveExchange(db: Db, key: ExchangeKey, patch: ExchangePatch): void {
  statement(db, 'INSERT INTO exchanges (flow, node, peer) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(key.flow, key.node, key.peer);
  const fields = PATCHABLE.filter((field) => patch[field] !== undefined);
  if (fields.length === 0) return;
  // Column names come from `PATCH_COLUMNS`, never from the caller; values are bound.
  statement(db, `UPDATE exchanges SET ${fields.map((field) => `${PATCH_COLUMNS[field]} = ?`).join(', ')} WHERE flow = ? AND node = ? AND peer = ?`).run(
    ...fields.map((field) => patch[field] ?? null),
    key.flow,
    key.node,
    key.peer,
  );
}

/** One message file as it was read: what it was taken as and the numbers it carried. A file read again replaces its row. */
export function recordExchangeMessage(
  db: Db,
  key: ExchangeKey,
  message: { fileId: number; kind: ExchangeMessageKind; no: number | null; receivedNo: number | null; format: string | null; now: number },
): void {
  statement(
    db,
    `INSERT INTO exchange_messages (file_id, flow, node, peer, kind, message_no, received_no, format, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (file_id) DO UPDATE SET kind = excluded.kind, message_no = excluded.message_no, received_no = excluded.received_no,
         format = excluded.format, recorded_at = excluded.recorded_at`,
  ).run(message.fileId, key.flow, key.node, key.peer, message.kind, message.no, message.receivedNo, message.format, message.now);
}

/** Our reply was written as `sentNo` under `name`: no longer due, unless a newer one was decided meanwhile. */
export function markReplyWritten(db: Db, key: ExchangeKey, sentNo: number, name: string, now: number): void {
  statement(
    db,
    `UPDATE exchanges SET reply_due = 0, reply_written_at = ?, acknowledged_no = reply_received_no, reply_name = ?
      WHERE flow = ? AND node = ? AND peer = ? AND sent_no = ?`,
  ).run(now, name, key.flow, key.node, key.peer, sentNo);
}

/** The message file rows of a flow, newest first. */
export function listExchangeMessages(db: Db, flow: string, limit: number): ExchangeMessage[] {
  return statement(db, `SELECT ${MESSAGE_COLUMNS} FROM exchange_messages WHERE flow = ? ORDER BY file_id DESC LIMIT ?`).all(flow, limit) as ExchangeMessage[];
}

/** A message file of a flow with what its file became: its state, requests recorded and problems. */
export interface ExchangeMessageFile {
  fileId: number;
  flow: string;
  kind: ExchangeMessageKind;
  messageNo: number | null;
  receivedNo: number | null;
  format: string | null;
  recordedAt: number;
  originalName: string;
  state: string;
  requestCount: number;
  problemCount: number;
}

/** The message files of a flow with their files' outcome, newest first. */
export function listExchangeMessageFiles(db: Db, flow: string, limit: number): ExchangeMessageFile[] {
  return statement(
    db,
    `SELECT m.file_id AS fileId, m.flow, m.kind, m.message_no AS messageNo, m.received_no AS receivedNo, m.format, m.recorded_at AS recordedAt,
            f.original_name AS originalName, f.state, f.request_count AS requestCount, f.problem_count AS problemCount
       FROM exchange_messages m JOIN files f ON f.id = m.file_id
      WHERE m.flow = ? ORDER BY m.file_id DESC LIMIT ?`,
  ).all(flow, limit) as ExchangeMessageFile[];
}

/** Per flow, its exchange that 1C wrote to last (the current one: an earlier pair of codes stops being written). */
export function latestExchanges(db: Db): ExchangeState[] {
  return statement(
    db,
    `SELECT ${STATE_COLUMNS} FROM exchanges e
      WHERE NOT EXISTS (SELECT 1 FROM exchanges o WHERE o.flow = e.flow AND COALESCE(o.last_message_at, 0) > COALESCE(e.last_message_at, 0))`,
  ).all() as ExchangeState[];
}
