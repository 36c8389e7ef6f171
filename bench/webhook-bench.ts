/**
 * Bench 3, webhooks: what the listener costs, and how long an answer waits.
 *
 * On this two-core machine the load generator shares the cores with the server, so a throughput
 * ratio cannot show what the listener costs. What it can show:
 *
 * - **CPU per answered event** (whole server process, every thread, user + system, from ready to
 *   stop, over warm-up and measured events), under 32 closed-loop senders, for four servers in
 *   alternating rounds (`webhook-baselines.ts`): the bare HMAC receiver and the bare *durable*
 *   receiver (HMAC, `JSON.parse`, the event's row, a `synchronous=FULL` commit per event-loop turn,
 *   200 after it), for context; the bare receiver doing the *same writes* as the listener (the
 *   event, the order's status, the export row, in the daemon's tables), the ceiling; and the real
 *   listener with the default `perEvent` status export. Target: listener ≤ 1.3 × the same-writes
 *   receiver, the median of each round's own ratio.
 * - **Latency at a fixed open-loop rate** (`webhook-open-load.ts`): 1,000 events/s for 10 s, each
 *   event's latency measured from when it was due. Target: p99 < 3 ms, p99.9 < 10 ms, no non-2xx.
 *   The bare durable receiver under the same schedule is the floor (one fsync per turn). Each
 *   server is fresh, so the schedule starts with 5 s of warm-up at the same rate: after 1 s, V8 was
 *   still optimizing the server's code on the other core (`--trace-opt`: about 170 functions in the
 *   first 1.5 s of the measured run, fewer each second after), and the run's first second ran at
 *   p50 0.9 ms instead of 0.65, for the bare receivers as for the listener.
 *
 * Each server case runs in a process of its own, the load in another.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import { figure, type BenchResult } from './results.js';
import { alternatingRounds, max, median, roundRatios } from './stats.js';
import type { ListenerArgs, ListenerInfo, ListenerRun, LoadArgs, LoadRun } from './webhook-cases.js';
import type { OpenLoadArgs, OpenLoadRun } from './webhook-open-load.js';

export interface WebhookBenchOptions {
  events: number;
  warmupEvents: number;
  concurrency: number;
  /** Alternating rounds (at least 3 for a median worth the name). */
  rounds: number;
  /**
   * The open-loop case: events per second, for how long, and the events sent first at the same rate
   * (untimed) to a fresh server: enough for V8 to have optimized the listener's code (see the header).
   */
  openLoop: { rate: number; seconds: number; connections: number; warmupEvents: number };
  log: (line: string) => void;
}

const SECRET = 'bench-webhook-secret';

type ServerCase = 'webhook-bare' | 'webhook-bare-durable' | 'webhook-bare-same-writes' | 'webhook-listener';
type ServerData = Partial<ListenerRun> & { verified?: number; cpuMs: number };

interface ClosedRun {
  load: LoadRun;
  /** Server CPU per answered event (warm-up included), µs. */
  cpuUs: number;
}

async function closedLoop(serverCase: ServerCase, label: string, serverArgs: Omit<ListenerArgs, 'secret'>, options: WebhookBenchOptions): Promise<ClosedRun> {
  const { value, server } = await withServerCase<ListenerInfo, ServerData, CaseOutcome<LoadRun>>(serverCase, { secret: SECRET, ...serverArgs }, (info) => {
    const args: LoadArgs = { url: info.url, secret: SECRET, events: options.events, warmupEvents: options.warmupEvents, concurrency: options.concurrency };
    return runCase<LoadRun>('webhook-load', args);
  });
  const counted = server.data.stored ?? server.data.verified;
  const expected = options.events + options.warmupEvents;
  if (counted !== expected) throw new Error(`${label} counted ${counted} events, expected ${expected}`);
  const d = value.data;
  const cpuUs = (server.data.cpuMs * 1000) / expected;
  const files = server.data.files === undefined ? '' : `, ${server.data.files} export files by the stop`;
  const machine = d.machineBusy === null ? '' : `, machine ${Math.round(d.machineBusy * 100)} % busy`;
  options.log(
    `  webhooks ${label}: ${d.events} events in ${d.seconds.toFixed(2)} s (${Math.round(d.events / d.seconds)}/s), p50 ${d.p50Ms.toFixed(1)} ms, ` +
      `p99 ${d.p99Ms.toFixed(1)} ms, server CPU ${cpuUs.toFixed(0)} µs/event, server RSS ${server.maxRssMb.toFixed(0)} MB${machine}${files}`,
  );
  return { load: d, cpuUs };
}

async function openLoop(serverCase: ServerCase, label: string, options: WebhookBenchOptions): Promise<OpenLoadRun> {
  const { value } = await withServerCase<ListenerInfo, ServerData, CaseOutcome<OpenLoadRun>>(serverCase, { secret: SECRET }, (info) => {
    const args: OpenLoadArgs = { url: info.url, secret: SECRET, ...options.openLoop };
    return runCase<OpenLoadRun>('webhook-open-load', args, 120_000);
  });
  const d = value.data;
  options.log(
    `  webhooks open loop ${label}: ${d.sent} events at ${options.openLoop.rate}/s, p50 ${d.p50Ms.toFixed(2)} ms, p99 ${d.p99Ms.toFixed(2)} ms, ` +
      `p99.9 ${d.p999Ms.toFixed(2)} ms, max ${d.maxMs.toFixed(1)} ms, ${d.failed} not 200, sender's worst lag ${d.worstSendLagMs.toFixed(1)} ms`,
  );
  return d;
}

export async function runWebhookBench(options: WebhookBenchOptions): Promise<BenchResult[]> {
  const closed = await alternatingRounds(options.rounds, {
    bare: () => closedLoop('webhook-bare', 'bare HMAC', {}, options),
    durable: () => closedLoop('webhook-bare-durable', 'bare durable', {}, options),
    sameWrites: () => closedLoop('webhook-bare-same-writes', 'bare same writes', {}, options),
    listener: () => closedLoop('webhook-listener', 'listener + perEvent export', {}, options),
  });
  const open = await alternatingRounds(options.rounds, {
    durable: () => openLoop('webhook-bare-durable', 'bare durable', options),
    listener: () => openLoop('webhook-listener', 'listener + perEvent export', options),
  });
  const cpu = (runs: ClosedRun[]) => runs.map((r) => r.cpuUs);
  const cpuRatios = roundRatios(cpu(closed.listener), cpu(closed.sameWrites));
  const durableRatios = roundRatios(cpu(closed.listener), cpu(closed.durable));
  options.log(`  webhooks: CPU per event, listener / same writes, per round ${cpuRatios.join(', ')}; listener / bare durable ${durableRatios.join(', ')}`);
  const rate = (run: ClosedRun) => run.load.events / run.load.seconds;
  const closedLoad = `${options.concurrency} closed-loop senders (undici, another process), ${options.events} distinct signed events after ${options.warmupEvents} of warm-up`;
  const openLoad = `open loop: ${options.openLoop.rate} events/s for ${options.openLoop.seconds} s after ${options.openLoop.warmupEvents} of warm-up, latency from each event's due time, ${options.openLoop.connections} connections`;
  const listenerOpen = open.listener;
  return [
    figure({
      name: 'webhook.cpu_us_per_event.bare_hmac',
      value: median(cpu(closed.bare)),
      unit: 'µs',
      notes: `bare node:http, HMAC check, 200; whole process; ${closedLoad}; median of ${options.rounds} rounds`,
    }),
    figure({
      name: 'webhook.cpu_us_per_event.bare_durable',
      value: median(cpu(closed.durable)),
      unit: 'µs',
      notes: `HMAC, JSON.parse, INSERT OR IGNORE, one synchronous=FULL commit per event-loop turn, 200 after it; median of ${options.rounds} rounds`,
    }),
    figure({
      name: 'webhook.cpu_us_per_event.bare_same_writes',
      value: median(cpu(closed.sameWrites)),
      unit: 'µs',
      notes: `the bare durable receiver writing what the listener writes: the event, the order's status (upserted, newest wins), the export row; median of ${options.rounds} rounds`,
    }),
    figure({
      name: 'webhook.cpu_us_per_event.listener',
      value: median(cpu(closed.listener)),
      unit: 'µs',
      ceiling: median(cpu(closed.sameWrites)),
      // The median of the per-round ratios: each round's pair ran back to back, under the same load.
      ratio: median(cpuRatios),
      conditions: [{ of: 'ratio', op: '<=', threshold: 1.3 }],
      notes:
        `the real listener and the default perEvent export on the daemon's store, logging at info; ceiling: the bare receiver doing the same writes; ` +
        `ratios per round ${cpuRatios.join(', ')} (to the bare durable receiver: ${durableRatios.join(', ')})`,
    }),
    figure({
      name: 'webhook.events_per_s',
      value: median(closed.listener.map(rate)),
      unit: 'events/s',
      ceiling: median(closed.durable.map(rate)),
      ratio: median(roundRatios(closed.listener.map(rate), closed.durable.map(rate))),
      notes: `closed loop, against the bare durable receiver (bare HMAC: ${Math.round(median(closed.bare.map(rate)))}/s); the load generator shares the two cores`,
    }),
    figure({
      name: 'webhook.open_loop.p50_ms',
      value: median(listenerOpen.map((r) => r.p50Ms)),
      unit: 'ms',
      notes: `${openLoad}; bare durable: ${median(open.durable.map((r) => r.p50Ms)).toFixed(2)} ms`,
    }),
    figure({
      name: 'webhook.open_loop.p99_ms',
      value: median(listenerOpen.map((r) => r.p99Ms)),
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 3 }],
      notes: `bare durable: ${median(open.durable.map((r) => r.p99Ms)).toFixed(2)} ms; median of rounds`,
    }),
    figure({
      name: 'webhook.open_loop.p99_9_ms',
      value: median(listenerOpen.map((r) => r.p999Ms)),
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 10 }],
      notes: `bare durable: ${median(open.durable.map((r) => r.p999Ms)).toFixed(2)} ms; max ${max(listenerOpen.map((r) => r.maxMs)).toFixed(1)} ms over the rounds`,
    }),
    figure({
      name: 'webhook.open_loop.not_200',
      value: listenerOpen.reduce((sum, r) => sum + r.failed, 0),
      unit: 'answers',
      conditions: [{ of: 'value', op: '<', threshold: 1 }],
      notes: 'answers other than 200 (or failed requests) over every open-loop round',
    }),
  ];
}
