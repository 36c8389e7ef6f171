/**
 * Bench 2, delivery: recorded requests delivered to the sandbox (no faults) by the real dispatcher,
 * against a bare undici loop posting the same payloads. The sandbox is a fresh child process for
 * each run (it refuses an externalId it has seen), the daemon side another child.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import type { DeliveryArgs, DeliveryRun } from './delivery-cases.js';
import { figure, type BenchResult } from './results.js';
import type { SandboxInfo, SandboxReport } from './sandbox-cases.js';
import { max, median } from './stats.js';

export interface DeliveryBenchOptions {
  requests: number;
  warmupRequests: number;
  linesPerRequest: number;
  concurrency: number;
  /** Bound of the measured dispatcher run, so that the whole bench stays within its time. */
  deadlineMs: number;
  /** Rounds of (bare, dispatcher), alternating; each figure is the median over them. At least 3. */
  rounds: number;
  log: (line: string) => void;
}

async function deliverTo(caseName: string, options: DeliveryBenchOptions): Promise<CaseOutcome<DeliveryRun>> {
  const { value, server } = await withServerCase<SandboxInfo, SandboxReport, CaseOutcome<DeliveryRun>>('sandbox-server', {}, (info) => {
    const args: DeliveryArgs = {
      ...info,
      requests: options.requests,
      warmupRequests: options.warmupRequests,
      linesPerRequest: options.linesPerRequest,
      concurrency: options.concurrency,
      deadlineMs: options.deadlineMs,
    };
    return runCase<DeliveryRun>(caseName, args);
  });
  const expected = options.requests + options.warmupRequests - value.data.unfinished;
  if (server.data.accepted < expected) throw new Error(`${caseName}: the sandbox accepted ${server.data.accepted} requests, expected ${expected}`);
  options.log(
    `  delivery ${caseName}: ${value.data.delivered} requests in ${value.data.seconds.toFixed(2)} s (${Math.round(value.data.delivered / value.data.seconds)}/s), ` +
      `${value.data.unfinished > 0 ? `STOPPED AT THE ${options.deadlineMs / 1000} s DEADLINE with ${value.data.unfinished} undelivered, ` : ''}` +
      `${value.data.drainReturnedEarly ? 'drain() resolved while rows were still due, ' : ''}client RSS ${value.maxRssMb.toFixed(0)} MB, sandbox RSS ${server.maxRssMb.toFixed(0)} MB, ${server.data.calls} calls`,
  );
  return value;
}

export async function runDeliveryBench(options: DeliveryBenchOptions): Promise<BenchResult[]> {
  // Alternating rounds (bare, dispatcher, bare, …): a noisy second on this shared machine moves one
  // round, not the median.
  const bare: number[] = [];
  const real: number[] = [];
  const ratios: number[] = [];
  const rss: number[] = [];
  const unfinished: number[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const b = await deliverTo('delivery-bare', options);
    const r = await deliverTo('delivery-dispatcher', options);
    bare.push(b.data.delivered / b.data.seconds);
    real.push(r.data.delivered / r.data.seconds);
    ratios.push(real.at(-1)! / bare.at(-1)!);
    rss.push(r.maxRssMb);
    unfinished.push(r.data.unfinished);
    options.log(`  delivery round ${round}: ratio ${ratios.at(-1)!.toFixed(2)}`);
  }
  const cut = unfinished.some((n) => n > 0)
    ? `; some rounds stopped at the ${options.deadlineMs / 1000} s deadline (undelivered: ${unfinished.join(', ')}; rate = accepted / elapsed)`
    : '';
  return [
    figure({
      name: 'delivery.requests_per_s',
      value: median(real),
      unit: 'requests/s',
      ceiling: median(bare),
      ratio: median(ratios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.7 }],
      notes: `median of ${options.rounds} alternating rounds (per-round ratios ${ratios.map((x) => x.toFixed(2)).join(', ')}); ${options.requests} recorded requests (${options.linesPerRequest} lines each) → sandbox in another process, real dispatcher at concurrency ${options.concurrency}, the daemon's store (synchronous=NORMAL, group commit); ceiling: bare undici Pool, same payloads and headers${cut}`,
    }),
    figure({ name: 'delivery.peak_rss', value: max(rss), unit: 'MB', notes: 'maxRSS of the dispatcher child (payload preparation included), worst round' }),
  ];
}
