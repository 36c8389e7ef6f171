/**
 * Child-side cases of the webhook bench.
 *
 * - `webhook-listener`: the real listener on a real SQLite file (synchronous FULL), until stopped.
 * - `webhook-bare`: the ceiling: node:http that reads the body, checks the HMAC, answers 200.
 * - `webhook-load`: the load generator: undici, `concurrency` loops, pre-signed distinct events;
 *   reports events/s and the latency of each POST (send → full answer).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { webhookSchema } from '../src/config/webhook-schema.js';
import { silentLogger } from '../src/log.js';
import { countEvents } from '../src/store/events.js';
import { createStore, storePath } from '../src/store/open-store.js';
import { createWebhookListener } from '../src/webhook/index.js';
import type { CaseChannel } from './case-channel.js';
import { withTempRoot } from './bench-env.js';
import { percentile } from './stats.js';

export const WEBHOOK_PATH = '/webhooks/service';

async function webhookListener(args: { secret: string }, channel: CaseChannel): Promise<{ stored: number }> {
  return withTempRoot(async (root) => {
    // The daemon's store, as daemon.ts opens it: synchronous=NORMAL with group commit.
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const config = webhookSchema.parse({ port: 0, path: WEBHOOK_PATH, secrets: [args.secret] });
    const listener = createWebhookListener({ db, config, logger: silentLogger, durable: () => durability.durable() });
    try {
      const { url } = await listener.start();
      channel.ready({ url });
      await channel.stopRequested();
    } finally {
      await listener.stop();
    }
    const stored = countEvents(db);
    await store.stop();
    return { stored };
  });
}

async function webhookBare(args: { secret: string }, channel: CaseChannel): Promise<{ verified: number }> {
  let verified = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const expected = createHmac('sha256', args.secret).update(Buffer.concat(chunks)).digest();
      const header = String(req.headers['x-service-signature'] ?? '');
      const given = Buffer.from(header.replace(/^sha256=/, ''), 'hex');
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      if (ok) verified += 1;
      const text = ok ? '{"received":true}' : '{"received":false}';
      res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  channel.ready({ url: `http://127.0.0.1:${port}${WEBHOOK_PATH}` });
  await channel.stopRequested();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  return { verified };
}

export interface LoadArgs {
  url: string;
  secret: string;
  events: number;
  warmupEvents: number;
  concurrency: number;
}

export interface LoadRun {
  seconds: number;
  events: number;
  p50Ms: number;
  p99Ms: number;
}

interface SignedEvent {
  body: string;
  signature: string;
}

/** Distinct, valid order.status.changed events (EVT-<n>), signed; 500 orders, dates increasing. */
function signedEvents(secret: string, from: number, count: number): SignedEvent[] {
  const statuses = ['confirmed', 'shipped', 'delivered'];
  const base = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const body = JSON.stringify({
      eventId: `EVT-${String(n).padStart(7, '0')}`,
      eventType: 'order.status.changed',
      eventDate: new Date(base + n).toISOString(),
      orderId: `ORD-2026-${String((n % 500) + 1).padStart(6, '0')}`,
      status: statuses[n % statuses.length],
    });
    return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
  });
}

async function sendAll(pool: Pool, pathname: string, events: readonly SignedEvent[], concurrency: number, latencies: number[] | null): Promise<void> {
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < events.length) {
      const event = events[next++]!;
      const started = performance.now();
      const response = await pool.request({
        method: 'POST',
        path: pathname,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': String(next), 'x-service-signature': event.signature },
        body: event.body,
      });
      const text = await response.body.text();
      latencies?.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}: ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

async function webhookLoad(args: LoadArgs): Promise<LoadRun> {
  const url = new URL(args.url);
  const warmup = signedEvents(args.secret, 1, args.warmupEvents);
  const events = signedEvents(args.secret, 1 + args.warmupEvents, args.events);
  const pool = new Pool(url.origin, { connections: args.concurrency, pipelining: 1 });
  try {
    await sendAll(pool, url.pathname, warmup, args.concurrency, null);
    const latencies: number[] = [];
    const started = performance.now();
    await sendAll(pool, url.pathname, events, args.concurrency, latencies);
    const seconds = (performance.now() - started) / 1000;
    return { seconds, events: events.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  } finally {
    await pool.close();
  }
}

export const webhookCases = {
  'webhook-listener': webhookListener,
  'webhook-bare': webhookBare,
  'webhook-load': webhookLoad,
};
