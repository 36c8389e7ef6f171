/**
 * Bench 3, webhooks: signed events per second into the daemon's webhook side (the real listener
 * on the daemon's store, with the default `perEvent` export running), and the latency of each
 * POST, from a load generator in another process; ceiling: a bare node:http server that only
 * checks the HMAC, under the same load. Rounds alternate (bare, daemon, listener alone, bare, …);
 * figures are medians of the rounds. Three processes per case: server, load, runner.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import { figure, type BenchResult } from './results.js';
import { alternatingRounds, median, roundRatios } from './stats.js';
import type { ListenerArgs, ListenerInfo, ListenerRun, LoadArgs, LoadRun } from './webhook-cases.js';

export interface WebhookBenchOptions {
  events: number;
  warmupEvents: number;
  concurrency: number;
  /** Alternating rounds (at least 3 for a median worth the name). */
  rounds: number;
  log: (line: string) => void;
}

const SECRET = 'bench-webhook-secret';

type ServerCase = 'webhook-bare' | 'webhook-listener';

async function loadAgainst(serverCase: ServerCase, label: string, serverArgs: Omit<ListenerArgs, 'secret'>, options: WebhookBenchOptions): Promise<LoadRun> {
  const { value, server } = await withServerCase<ListenerInfo, Partial<ListenerRun> & { verified?: number }, CaseOutcome<LoadRun>>(
    serverCase,
    { secret: SECRET, ...serverArgs },
    (info) => {
      const args: LoadArgs = { url: info.url, secret: SECRET, events: options.events, warmupEvents: options.warmupEvents, concurrency: options.concurrency };
      return runCase<LoadRun>('webhook-load', args);
    },
  );
  const counted = server.data.stored ?? server.data.verified;
  const expected = options.events + options.warmupEvents;
  if (counted !== expected) throw new Error(`${label} counted ${counted} events, expected ${expected}`);
  const d = value.data;
  const files = server.data.files === undefined || serverArgs.exporter === false ? '' : `, ${server.data.files} export files by the stop`;
  const cpu = server.data.cpuMs === undefined ? '' : `, server CPU ${Math.round((server.data.cpuMs * 1000) / expected)} µs/event`;
  const loadCpu =
    `, load generator CPU ${Math.round((value.data.cpuMs * 1000) / value.data.events)} µs/event` +
    (value.data.machineBusy === null ? '' : `, machine ${Math.round(value.data.machineBusy * 100)} % busy`);
  options.log(
    `  webhooks ${label}: ${d.events} events in ${d.seconds.toFixed(2)} s (${Math.round(d.events / d.seconds)}/s), ` +
      `p50 ${d.p50Ms.toFixed(1)} ms, p99 ${d.p99Ms.toFixed(1)} ms, server RSS ${server.maxRssMb.toFixed(0)} MB${cpu}${loadCpu}${files}`,
  );
  return d;
}

export async function runWebhookBench(options: WebhookBenchOptions): Promise<BenchResult[]> {
  const runs = await alternatingRounds(options.rounds, {
    bare: () => loadAgainst('webhook-bare', 'bare', {}, options),
    daemon: () => loadAgainst('webhook-listener', 'listener + perEvent export', {}, options),
    alone: () => loadAgainst('webhook-listener', 'listener alone', { exporter: false }, options),
  });
  const rate = (run: LoadRun) => run.events / run.seconds;
  const bare = runs.bare.map(rate);
  const daemon = runs.daemon.map(rate);
  const ratios = roundRatios(daemon, bare);
  options.log(`  webhooks: ratio per round ${ratios.join(', ')}`);
  const load = `${options.concurrency} concurrent senders (undici, another process), ${options.events} distinct signed events after ${options.warmupEvents} of warm-up`;
  const rounds = `median of ${options.rounds} alternating rounds (ratios per round: ${ratios.join(', ')})`;
  return [
    figure({
      name: 'webhook.events_per_s',
      value: median(daemon),
      unit: 'events/s',
      ceiling: median(bare),
      // The median of the per-round ratios: each round's pair ran back to back, under the same load.
      ratio: median(ratios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.6 }],
      notes:
        `real listener + the default perEvent status export (one fsynced file per status change), on the daemon's store ` +
        `(synchronous=NORMAL, group commit), logging at info; ceiling: bare node:http + HMAC check; ${load}; ${rounds}`,
    }),
    figure({
      name: 'webhook.p50_ms',
      value: median(runs.daemon.map((r) => r.p50Ms)),
      unit: 'ms',
      notes: `POST → answer at the sender; bare server: ${median(runs.bare.map((r) => r.p50Ms)).toFixed(1)} ms; median of rounds`,
    }),
    figure({
      name: 'webhook.p99_ms',
      value: median(runs.daemon.map((r) => r.p99Ms)),
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 10 }],
      notes: `bare server: ${median(runs.bare.map((r) => r.p99Ms)).toFixed(1)} ms; median of rounds`,
    }),
    figure({
      name: 'webhook.listener_alone.events_per_s',
      value: median(runs.alone.map(rate)),
      unit: 'events/s',
      ceiling: median(bare),
      ratio: median(roundRatios(runs.alone.map(rate), bare)),
      notes: `the same listener without the exporter (what the export costs the listener); p99 ${median(runs.alone.map((r) => r.p99Ms)).toFixed(1)} ms`,
    }),
  ];
}
