/**
 * The webhook bench's baselines, each a bare node:http receiver in a process of its own:
 *
 * - `webhook-bare`: reads the body, checks the HMAC, answers 200. What any receiver pays.
 * - `webhook-bare-durable`: the durable part of the listener's work and nothing else: the HMAC over
 *   the raw body, `JSON.parse`, an `INSERT OR IGNORE` of the event by its id into a SQLite file
 *   (WAL, `synchronous=FULL`), one commit per event-loop turn for every event that arrived in it,
 *   and each 200 only after that commit. For context: it writes one row where the listener writes
 *   three.
 * - `webhook-bare-same-writes`: the ceiling the listener is held to. The bare durable receiver
 *   doing the listener's writes and no more: the event row, the order's status upserted (newest
 *   event wins, decided by the upsert's own `WHERE`), and the export row with its record's JSON
 *   when the status changed, into the daemon's own tables and indexes (its migrations), one
 *   `synchronous=FULL` commit per event-loop turn, each 200 after it. No admission ladder, no
 *   batcher, no helper thread, no exporter: what the listener spends beyond this is its own.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CaseChannel } from './case-channel.js';
import { withTempRoot } from './bench-env.js';
import { migrate } from '../src/store/migrate.js';
import { cpuMsSince } from './stats.js';
import { WEBHOOK_PATH } from './webhook-common.js';

const OK = '{"received":true}';
const REFUSED = '{"received":false}';

function verified(secret: string, body: Buffer, header: string | string[] | undefined): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(String(header ?? '').replace(/^sha256=/, ''), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function answer(res: http.ServerResponse, ok: boolean): void {
  const text = ok ? OK : REFUSED;
  res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Serve `handle` until the runner asks to stop; CPU is counted from ready to stop. */
async function serve<R>(channel: CaseChannel, handle: http.RequestListener, result: () => R): Promise<R & { cpuMs: number }> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  channel.ready({ url: `http://127.0.0.1:${port}${WEBHOOK_PATH}` });
  const cpu = process.cpuUsage();
  await channel.stopRequested();
  const cpuMs = cpuMsSince(cpu);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  return { ...result(), cpuMs };
}

function readBody(req: http.IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
}

export async function webhookBare(args: { secret: string }, channel: CaseChannel): Promise<{ verified: number; cpuMs: number }> {
  let count = 0;
  return serve(
    channel,
    (req, res) =>
      readBody(req, (body) => {
        const ok = verified(args.secret, body, req.headers['x-service-signature']);
        if (ok) count += 1;
        answer(res, ok);
      }),
    () => ({ verified: count }),
  );
}

export async function webhookBareDurable(args: { secret: string }, channel: CaseChannel): Promise<{ verified: number; cpuMs: number }> {
  return withTempRoot(async (root) => {
    const db = new Database(path.join(root, 'bare.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE events (event_id TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID');
    const insert = db.prepare('INSERT OR IGNORE INTO events (event_id, body) VALUES (?, ?)');
    let turn: { id: string; body: string; res: http.ServerResponse }[] = [];
    const commit = db.transaction((items: typeof turn) => {
      for (const item of items) insert.run(item.id, item.body);
    });
    const flush = () => {
      const items = turn;
      turn = [];
      commit(items);
      for (const item of items) answer(item.res, true);
    };
    try {
      return await serve(
        channel,
        (req, res) =>
          readBody(req, (body) => {
            if (!verified(args.secret, body, req.headers['x-service-signature'])) return answer(res, false);
            const text = body.toString('utf8');
            const event = JSON.parse(text) as { eventId: string };
            if (turn.length === 0) setImmediate(flush);
            turn.push({ id: event.eventId, body: text, res });
          }),
        () => ({ verified: (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n }),
      );
    } finally {
      db.close();
    }
  });
}

interface StatusEvent {
  eventId: string;
  eventType: string;
  eventDate: string;
  orderId: string;
  status: string;
}

/** What the same-writes receiver wrote, for the test that holds it to the listener's writes. */
export interface SameWritesRows {
  events: number;
  applied: number;
  exports: number;
  /** `order_id status event_id` of each order, sorted. */
  statuses: string[];
}

export async function webhookBareSameWrites(
  args: { secret: string },
  channel: CaseChannel,
): Promise<{ verified: number; rows: SameWritesRows; cpuMs: number }> {
  return withTempRoot(async (root) => {
    const db = new Database(path.join(root, 'bare.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    migrate(db);
    // Newest event wins, as in the listener (the bench's events never tie on their date).
    const insertEvent = db.prepare(
      `INSERT INTO events (event_id, event_type, order_id, status, event_date, event_date_ms, body, applied, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NOT EXISTS (SELECT 1 FROM order_statuses WHERE order_id = ? AND event_date_ms >= ?), ?)
         ON CONFLICT (event_id) DO NOTHING`,
    );
    const upsertStatus = db.prepare(
      `INSERT INTO order_statuses (order_id, status, event_id, event_date_ms, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, event_id = excluded.event_id,
         event_date_ms = excluded.event_date_ms, updated_at = excluded.updated_at
       WHERE excluded.event_date_ms > order_statuses.event_date_ms`,
    );
    const insertExport = db.prepare(
      `INSERT INTO exports (channel, source_key, record, state, created_at) VALUES ('status', ?, ?, 'pending', ?) ON CONFLICT (channel, source_key) DO NOTHING`,
    );
    let turn: { event: StatusEvent; body: string; res: http.ServerResponse }[] = [];
    const commit = db.transaction((items: typeof turn, now: number) => {
      const receivedAt = new Date(now).toISOString();
      for (const { event, body } of items) {
        const dateMs = Date.parse(event.eventDate);
        const { eventId, eventType, orderId, status, eventDate } = event;
        if (insertEvent.run(eventId, eventType, orderId, status, eventDate, dateMs, body, orderId, dateMs, now).changes === 0) continue;
        if (upsertStatus.run(orderId, status, eventId, dateMs, now).changes === 0) continue;
        insertExport.run(eventId, JSON.stringify({ ...event, receivedAt }), now);
      }
    });
    const flush = () => {
      const items = turn;
      turn = [];
      commit(items, Date.now());
      for (const item of items) answer(item.res, true);
    };
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    try {
      return await serve(
        channel,
        (req, res) =>
          readBody(req, (body) => {
            if (!verified(args.secret, body, req.headers['x-service-signature'])) return answer(res, false);
            const text = body.toString('utf8');
            if (turn.length === 0) setImmediate(flush);
            turn.push({ event: JSON.parse(text) as StatusEvent, body: text, res });
          }),
        () => ({
          verified: count('SELECT COUNT(*) AS n FROM events'),
          rows: {
            events: count('SELECT COUNT(*) AS n FROM events'),
            applied: count('SELECT COUNT(*) AS n FROM events WHERE applied = 1'),
            exports: count('SELECT COUNT(*) AS n FROM exports'),
            statuses: (
              db.prepare("SELECT order_id || ' ' || status || ' ' || event_id AS s FROM order_statuses ORDER BY order_id").all() as { s: string }[]
            ).map((row) => row.s),
          },
        }),
      );
    } finally {
      db.close();
    }
  });
}
