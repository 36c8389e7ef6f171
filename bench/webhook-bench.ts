/**
 * Bench 3, webhooks: signed events per second into the real listener with durable storage, and
 * the latency of each POST, from a load generator in another process; ceiling: a bare node:http
 * server that only checks the HMAC, under the same load. Three processes: server, load, runner.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import { figure, type BenchResult } from './results.js';
import type { LoadArgs, LoadRun } from './webhook-cases.js';

export interface WebhookBenchOptions {
  events: number;
  warmupEvents: number;
  concurrency: number;
  log: (line: string) => void;
}

const SECRET = 'bench-webhook-secret';

async function loadAgainst(serverCase: string, options: WebhookBenchOptions): Promise<CaseOutcome<LoadRun>> {
  const { value, server } = await withServerCase<{ url: string }, Record<string, number>, CaseOutcome<LoadRun>>(serverCase, { secret: SECRET }, (info) => {
    const args: LoadArgs = { url: info.url, secret: SECRET, events: options.events, warmupEvents: options.warmupEvents, concurrency: options.concurrency };
    return runCase<LoadRun>('webhook-load', args);
  });
  const counted = server.data.stored ?? server.data.verified;
  const expected = options.events + options.warmupEvents;
  if (counted !== expected) throw new Error(`${serverCase} counted ${counted} events, expected ${expected}`);
  const d = value.data;
  options.log(
    `  webhooks ${serverCase}: ${d.events} events in ${d.seconds.toFixed(2)} s (${Math.round(d.events / d.seconds)}/s), ` +
      `p50 ${d.p50Ms.toFixed(1)} ms, p99 ${d.p99Ms.toFixed(1)} ms, server RSS ${server.maxRssMb.toFixed(0)} MB`,
  );
  return value;
}

export async function runWebhookBench(options: WebhookBenchOptions): Promise<BenchResult[]> {
  const bare = await loadAgainst('webhook-bare', options);
  const real = await loadAgainst('webhook-listener', options);
  const load = `${options.concurrency} concurrent senders (undici, another process), ${options.events} distinct signed events after ${options.warmupEvents} of warm-up`;
  return [
    figure({
      name: 'webhook.events_per_s',
      value: real.data.events / real.data.seconds,
      unit: 'events/s',
      ceiling: bare.data.events / bare.data.seconds,
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.5 }],
      notes: `real listener, SQLite synchronous=FULL; ceiling: bare node:http + HMAC check; ${load}`,
    }),
    figure({ name: 'webhook.p50_ms', value: real.data.p50Ms, unit: 'ms', notes: `POST → answer at the sender; bare server: ${bare.data.p50Ms.toFixed(1)} ms` }),
    figure({ name: 'webhook.p99_ms', value: real.data.p99Ms, unit: 'ms', notes: `bare server: ${bare.data.p99Ms.toFixed(1)} ms` }),
  ];
}
