/**
 * The server side of the console bench: a store filled like a busy year (100,000 submissions with
 * their attempts and acknowledgements, 10,000 files, 100,000 webhook events over 33,334 orders with
 * their status exports), then the real admin listener with the console, until stopped.
 *
 * The fill writes rows with SQL of its own, in one transaction: the shapes are the migrations' and
 * the values those the stages write, but going through intake and delivery for 100,000 rows would
 * make the fill, not the pages, the bench.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAdminServer } from '../src/admin/admin-server.js';
import { createConsole } from '../src/admin/console/create-console.js';
import { consoleSchema } from '../src/config/console-schema.js';
import { flowSchema, type FlowConfig } from '../src/config/flow-schema.js';
import { silentLogger } from '../src/log.js';
import { createMetrics, type Metrics } from '../src/metrics/metrics.js';
import type { Component } from '../src/shared/lifecycle.js';
import { openStore, storePath, type Db } from '../src/store/open-store.js';
import type { CaseChannel } from './case-channel.js';
import { withTempRoot } from './bench-env.js';

export interface ConsoleFill {
  submissions: number;
  events: number;
  requestsPerFile: number;
}

export interface ConsoleServerInfo {
  url: string;
  /** A dead letter with several attempts: the heaviest request page. */
  deadExternalId: string;
  fillSeconds: number;
}

const externalId = (n: number) => `ЗК-${String(n).padStart(6, '0')}`;
const orderId = (n: number) => `ORD-2026-${String(n).padStart(6, '0')}`;

function payload(n: number): string {
  return JSON.stringify({
    externalId: externalId(n),
    customer: { inn: '7707083893', name: 'ООО «Ромашка»' },
    contact: { name: 'Иванов Иван Петрович', phone: '+7 495 123-45-67', email: 'ivanov@romashka.ru' },
    delivery: { city: 'Москва', address: 'ул. Ленина, д. 1, склад 3', desiredDate: '2027-03-15' },
    items: [1, 2, 3].map((line) => ({ lineId: String(line), name: `Позиция ${line}`, quantity: line * 10, unit: 'шт' })),
  });
}

/** Fill the store; returns the externalId of a dead letter. */
function fill(db: Db, o: ConsoleFill, now: number): string {
  const problem = JSON.stringify({ type: 'urn:problem:unavailable', title: 'Service unavailable', status: 503, detail: 'Try later.' });
  const insertFile = db.prepare(
    `INSERT INTO files (id, flow, sha256, original_name, size_bytes, state, current_path, request_count, problem_count, claimed_at, finished_at)
       VALUES (?, 'requests', ?, ?, 4096, 'archived', ?, ?, 0, ?, ?)`,
  );
  const insertSubmission = db.prepare(
    `INSERT INTO submissions (id, flow, kind, dedupe_key, external_id, payload, payload_hash, idempotency_key, file_id, source_row, state, attempts,
                              next_attempt_at, first_attempt_at, last_attempt_at, last_status, last_error_code, last_error, result, platform_id,
                              created_at, updated_at, finished_at)
       VALUES (@id, 'requests', 'request', @ext, @ext, @payload, @hash, @key, @file, @row, @state, @attempts, @at, @at, @at, @status, @code, @error,
               @result, @platformId, @at, @at, @finished)`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO submission_attempts (submission_id, request_id, started_at, finished_at, http_status, outcome, error, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertExport = db.prepare(
    `INSERT INTO exports (channel, source_key, record, state, file_name, created_at, written_at) VALUES (?, ?, ?, 'written', ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO events (event_id, event_type, order_id, status, event_date, event_date_ms, body, applied, received_at)
       VALUES (?, 'order.status.changed', ?, ?, ?, ?, ?, 1, ?)`,
  );
  const upsertOrder = db.prepare(
    `INSERT INTO order_statuses (order_id, status, event_id, event_date_ms, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, event_id = excluded.event_id, event_date_ms = excluded.event_date_ms, updated_at = excluded.updated_at`,
  );
  let dead = '';
  db.transaction(() => {
    const spanMs = 90 * 86_400_000;
    for (let n = 1; n <= o.submissions; n += 1) {
      const at = now - spanMs + Math.floor((n / o.submissions) * spanMs);
      const file = Math.ceil(n / o.requestsPerFile);
      if ((n - 1) % o.requestsPerFile === 0)
        insertFile.run(file, `sha-${file}`, `requests-${file}.csv`, `/srv/erp/inbox/archive/${file}.csv`, o.requestsPerFile, at, at);
      // 90 % accepted, 5 % pending, 3 % dead, 1 % rejected, 1 % held.
      const r = n % 100;
      const state = r < 90 ? 'accepted' : r < 95 ? 'pending' : r < 98 ? 'dead' : r < 99 ? 'rejected' : 'held';
      const attempts = state === 'dead' ? 5 : state === 'pending' ? 0 : 1;
      const failed = state !== 'accepted' && state !== 'pending';
      const ext = externalId(n);
      if (state === 'dead') dead = ext;
      insertSubmission.run({
        id: n,
        ext,
        payload: payload(n),
        hash: `h${n}`,
        key: `erp:${ext}`,
        file,
        row: ((n - 1) % o.requestsPerFile) + 2,
        state,
        attempts,
        at,
        status: state === 'accepted' ? 201 : failed ? 503 : null,
        code: state === 'dead' ? 'SUBMISSION_DEAD' : state === 'rejected' ? 'PLATFORM_REJECTED' : state === 'held' ? 'PLATFORM_CONFLICT' : null,
        error: failed ? 'The platform failed temporarily (503)' : null,
        result: failed ? problem : state === 'accepted' ? JSON.stringify({ id: `PRC-REQ-${n}`, externalId: ext, status: 'accepted' }) : null,
        platformId: state === 'accepted' ? `PRC-REQ-${String(n).padStart(6, '0')}` : null,
        finished: state === 'pending' ? null : at,
      });
      for (let a = 0; a < attempts; a += 1) {
        const ok = state === 'accepted';
        insertAttempt.run(
          n,
          `req-${n}-${a}`,
          at + a,
          at + a + 40,
          ok ? 201 : 503,
          ok ? 'accepted' : a === attempts - 1 ? state : 'retry',
          ok ? null : 'unavailable',
          ok ? null : problem,
        );
      }
      if (state !== 'pending') insertExport.run('ack:requests', `${n}:${state}:${attempts}`, '{}', `ack-${ext}-${n}.csv`, at, at);
    }
    const eventSpanMs = 3 * 86_400_000;
    for (let e = 1; e <= o.events; e += 1) {
      const order = Math.ceil(e / 3);
      const status = ['confirmed', 'shipped', 'delivered'][(e - 1) % 3]!;
      const receivedAt = now - eventSpanMs + Math.floor((e / o.events) * eventSpanMs);
      const eventId = `EVT-${String(e).padStart(7, '0')}`;
      const date = new Date(receivedAt).toISOString();
      const body = JSON.stringify({ eventId, eventType: 'order.status.changed', eventDate: date, orderId: orderId(order), status });
      insertEvent.run(eventId, orderId(order), status, date, receivedAt, body, receivedAt);
      upsertOrder.run(orderId(order), status, eventId, receivedAt, receivedAt);
      insertExport.run('status', eventId, '{}', `order-status-${e}.csv`, receivedAt, receivedAt);
    }
  })();
  db.pragma('optimize');
  return dead;
}

/**
 * The admin listener with the console over `db`, as the daemon serves it, with operator actions
 * that the benches never take (the console bench, and the many-files bench's operator).
 */
export function benchConsoleServer(db: Db, flows: FlowConfig[], metrics: Metrics, exportChannels: string[]): Component<{ url: string }> {
  return createAdminServer({
    host: '127.0.0.1',
    port: 0,
    metrics,
    logger: silentLogger,
    readiness: () => Promise.resolve({ ready: true, reasons: [] }),
    console: createConsole({
      db,
      config: consoleSchema.parse({ password: 'bench' }),
      listenerHost: '127.0.0.1',
      flows,
      metrics,
      readiness: () => Promise.resolve({ ready: true, reasons: [] }),
      operator: {
        retakeFile: () => Promise.reject(new Error('not in the bench')),
        resumeFlow: () => false,
        flowGate: () => ({ mode: 'closed', nextProbeAt: 0, consecutiveFailures: 0, probeInFlight: false }),
        wakeDelivery: () => undefined,
        reloadMappings: () => ({ ok: true }),
      },
      logger: silentLogger,
      clock: Date.now,
      webhook: { url: 'http://127.0.0.1:8788/webhooks/service' },
      exportChannels,
    }),
  });
}

async function consoleServer(args: ConsoleFill, channel: CaseChannel): Promise<{ submissions: number }> {
  return withTempRoot(async (root) => {
    const db = openStore(storePath(path.join(root, 'state')));
    const started = performance.now();
    const deadExternalId = fill(db, args, Date.now());
    const fillSeconds = (performance.now() - started) / 1000;
    const flows = [
      flowSchema.parse({ name: 'requests', kind: 'requests', inbox: path.join(root, 'inbox'), mapping: '/dev/null', results: path.join(root, 'results') }),
    ];
    const server = benchConsoleServer(db, flows, createMetrics({ db, defaultMetrics: false }), ['status', 'ack:requests']);
    try {
      const { url } = await server.start();
      channel.ready({ url, deadExternalId, fillSeconds } satisfies ConsoleServerInfo);
      await channel.stopRequested();
    } finally {
      await server.stop();
    }
    const submissions = (db.prepare('SELECT count(*) AS n FROM submissions').get() as { n: number }).n;
    db.close();
    return { submissions };
  });
}

export const consoleCases = { 'console-server': consoleServer };
