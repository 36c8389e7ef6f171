/**
 * `webhook-open-load`: an open-loop load generator. Event i is due at `start + i / rate`, and is sent
 * then whether or not earlier events have been answered; its latency is measured from when it was
 * due, not from when it went out. A closed loop (N senders, each waiting for its answer) sends less
 * while the server stalls, so a stall delays few measured requests and hides in the percentiles
 * (coordinated omission); here a 20 ms stall at 1,000 events/s delays the 20 events due during it
 * and every one of them shows it.
 *
 * Written on raw sockets, as wrk is, with every request's bytes built before the run: on two cores
 * the generator shares the machine with the server it measures, and its own stalls count in every
 * latency. undici's per-request work (objects, promises, header handling) made the generator send
 * up to 10 ms late under this load; a socket write of prepared bytes and a scan of the answer for
 * its status and length keep it to a timer's lateness. Keep-alive connections, one request in
 * flight on each (`connections` of them); an event due while all are busy waits for the first free
 * one, late from its due time all the same.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { cpuMsSince, percentile } from './stats.js';
import { signedEvents } from './webhook-common.js';

export interface OpenLoadArgs {
  url: string;
  secret: string;
  /** Events per second, on a fixed schedule. */
  rate: number;
  seconds: number;
  /** Events sent first (at the same rate) and not measured: JIT, the store's first pages. */
  warmupEvents: number;
  /** Connections kept (at most this many requests in flight). */
  connections: number;
}

export interface OpenLoadRun {
  sent: number;
  /** Answers other than 200 (and requests whose connection failed). */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** How late, at worst, the generator itself sent an event after it was due (its own stalls and its timer's). */
  worstSendLagMs: number;
  cpuMs: number;
}

interface Connection {
  socket: net.Socket;
  /** The event in flight (index into the run), its due time, or -1 when free. */
  event: number;
  due: number;
  buffered: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');
/** The longest sleep between two looks at the schedule and the sockets. */
const SLICE_MS = 0.2;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/** The bytes of each request, built before the run. */
function requests(url: URL, secret: string, from: number, count: number): Buffer[] {
  return signedEvents(secret, from, count).map((event, i) => {
    const body = Buffer.from(event.body);
    const head =
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `X-Request-Id: open-${from + i}\r\nX-Service-Signature: ${event.signature}\r\nContent-Length: ${body.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), body]);
  });
}

/** Send `bytes[i]` at its due time, for every i; resolves with each one's latency from its due time and whether it got a 200. */
async function runSchedule(
  url: URL,
  bytes: Buffer[],
  rate: number,
  connections: number,
): Promise<{ latencies: number[]; failed: number; worstSendLagMs: number }> {
  const latencies = new Array<number>(bytes.length);
  let failed = 0;
  let answered = 0;
  let recorded = 0;
  let worstSendLagMs = 0;
  const waiting: { event: number; due: number }[] = [];
  const free: Connection[] = [];
  let allAnswered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allAnswered = resolve));

  const send = (connection: Connection, event: number, due: number) => {
    connection.event = event;
    connection.due = due;
    connection.socket.write(bytes[event]!);
  };
  const finish = (connection: Connection, ok: boolean) => {
    if (connection.event === -1) throw new Error('an answer came on a connection with no request in flight');
    latencies[connection.event] = performance.now() - connection.due;
    recorded += 1;
    if (!ok) failed += 1;
    answered += 1;
    connection.event = -1;
    const next = waiting.shift();
    if (next) send(connection, next.event, next.due);
    else free.push(connection);
    if (answered === bytes.length) allAnswered();
  };
  const open = () =>
    new Promise<Connection>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => resolve(connection));
      socket.setNoDelay(true);
      const connection: Connection = { socket, event: -1, due: 0, buffered: Buffer.alloc(0) };
      socket.once('error', reject);
      // A connection the server closes (its keep-alive timeout) is a failure of what was in flight.
      socket.once('close', () => {
        if (connection.event !== -1) finish(connection, false);
        const at = free.indexOf(connection);
        if (at !== -1) free.splice(at, 1);
      });
      socket.on('data', (chunk: Buffer) => {
        connection.buffered = connection.buffered.length === 0 ? chunk : Buffer.concat([connection.buffered, chunk]);
        const end = connection.buffered.indexOf(HEADER_END);
        if (end === -1) return;
        const head = connection.buffered.toString('latin1', 0, end);
        const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
        if (connection.buffered.length < end + 4 + length) return;
        connection.buffered = connection.buffered.subarray(end + 4 + length);
        finish(connection, head.startsWith('HTTP/1.1 200'));
      });
    });
  for (const connection of await Promise.all(Array.from({ length: connections }, open))) free.push(connection);

  const start = performance.now() + 20;
  // Sleeps of at most SLICE_MS in Atomics.wait (a futex: precise to microseconds, no CPU spent),
  // each followed by one turn of the event loop for the answers that arrived meanwhile; then
  // every event due by now goes out. A timer would fire up to a millisecond or more late, and
  // spinning on the event loop would take a core from the server being measured. An answer that
  // arrives during a sleep is timed up to SLICE_MS late: the same small error for every server.
  for (let i = 0; i < bytes.length;) {
    const now = performance.now();
    const nextDue = start + (i * 1000) / rate;
    if (now < nextDue) {
      Atomics.wait(SLEEPER, 0, 0, Math.min(SLICE_MS, nextDue - now));
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    for (; i < bytes.length; i++) {
      const due = start + (i * 1000) / rate;
      if (due > now) break;
      worstSendLagMs = Math.max(worstSendLagMs, now - due);
      // The connection free the longest: all of them stay in use, none idles into a keep-alive timeout.
      const connection = free.shift();
      if (connection) send(connection, i, due);
      else waiting.push({ event: i, due });
    }
  }
  await done;
  for (const connection of free) connection.socket.destroy();
  if (recorded !== bytes.length) throw new Error(`${bytes.length - recorded} of ${bytes.length} events have no latency`);
  return { latencies, failed, worstSendLagMs };
}

export async function webhookOpenLoad(args: OpenLoadArgs): Promise<OpenLoadRun> {
  const url = new URL(args.url);
  const warmup = requests(url, args.secret, 1, args.warmupEvents);
  const measured = requests(url, args.secret, 1 + args.warmupEvents, Math.round(args.rate * args.seconds));
  await runSchedule(url, warmup, args.rate, args.connections);
  const cpu = process.cpuUsage();
  const run = await runSchedule(url, measured, args.rate, args.connections);
  return {
    sent: measured.length,
    failed: run.failed,
    p50Ms: percentile(run.latencies, 50),
    p99Ms: percentile(run.latencies, 99),
    p999Ms: percentile(run.latencies, 99.9),
    maxMs: percentile(run.latencies, 100),
    worstSendLagMs: run.worstSendLagMs,
    cpuMs: cpuMsSince(cpu),
  };
}
