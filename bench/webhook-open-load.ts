/**
 * `webhook-open-load`: an open-loop load generator. Event i is due at `start + i / rate`, and is sent
 * then whether or not earlier events have been answered; its latency is measured from when it was
 * due, not from when it went out. A closed loop (N senders, each waiting for its answer) sends less
 * while the server stalls, so a stall delays few measured requests and hides in the percentiles
 * (coordinated omission); here a 20 ms stall at 1,000 events/s delays the 20 events due during it
 * and every one of them shows it.
 *
 * The sender keeps enough connections (`connections`) that a slow answer never holds up the next
 * due event behind it; one that would have to wait for a free connection is counted as late from
 * its due time all the same.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { percentile } from './stats.js';
import { cpuMsSince, signedEvents } from './webhook-common.js';

export interface OpenLoadArgs {
  url: string;
  secret: string;
  /** Events per second, on a fixed schedule. */
  rate: number;
  seconds: number;
  /** Events sent first, closed-loop, and not measured (JIT, the store's first pages). */
  warmupEvents: number;
  /** Connections kept (at most this many requests in flight). */
  connections: number;
}

export interface OpenLoadRun {
  sent: number;
  /** Answers other than 200 (and failed requests). */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** How late, at worst, the generator itself sent an event after it was due (its own stalls). */
  worstSendLagMs: number;
  cpuMs: number;
}

export async function webhookOpenLoad(args: OpenLoadArgs): Promise<OpenLoadRun> {
  const url = new URL(args.url);
  const total = Math.round(args.rate * args.seconds);
  const warmup = signedEvents(args.secret, 1, args.warmupEvents);
  const events = signedEvents(args.secret, 1 + args.warmupEvents, total);
  const pool = new Pool(url.origin, { connections: args.connections, pipelining: 1 });
  const post = async (event: { body: string; signature: string }, n: number): Promise<boolean> => {
    try {
      const response = await pool.request({
        method: 'POST',
        path: url.pathname,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': String(n), 'x-service-signature': event.signature },
        body: event.body,
      });
      await response.body.dump();
      return response.statusCode === 200;
    } catch {
      return false;
    }
  };
  try {
    for (let i = 0; i < warmup.length; i += 32) await Promise.all(warmup.slice(i, i + 32).map((event, j) => post(event, i + j)));
    const latencies = new Array<number>(total);
    let failed = 0;
    let worstSendLagMs = 0;
    const inFlight: Promise<void>[] = [];
    const cpu = process.cpuUsage();
    const start = performance.now() + 20;
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / args.rate;
      let now = performance.now();
      if (now < due - 1) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - now - 1)));
        now = performance.now();
      }
      // The last millisecond by spinning on the event loop's turns: timers are not that precise.
      while (now < due) {
        await new Promise((resolve) => setImmediate(resolve));
        now = performance.now();
      }
      worstSendLagMs = Math.max(worstSendLagMs, now - due);
      inFlight.push(
        post(events[i]!, i).then((ok) => {
          latencies[i] = performance.now() - due;
          if (!ok) failed += 1;
        }),
      );
    }
    await Promise.all(inFlight);
    return {
      sent: total,
      failed,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      p999Ms: percentile(latencies, 99.9),
      maxMs: Math.max(...latencies),
      worstSendLagMs,
      cpuMs: cpuMsSince(cpu),
    };
  } finally {
    await pool.close();
  }
}
