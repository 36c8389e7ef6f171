/**
 * Bench 2, delivery: recorded requests delivered to the sandbox (no faults) by the real dispatcher,
 * against a bare undici loop posting the same payloads. The sandbox is a fresh child process for
 * each run (it refuses an externalId it has seen), the daemon side another child.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import type { DeliveryArgs, DeliveryRun } from './delivery-cases.js';
import { figure, type BenchResult } from './results.js';
import type { SandboxInfo, SandboxReport } from './sandbox-cases.js';

export interface DeliveryBenchOptions {
  requests: number;
  warmupRequests: number;
  linesPerRequest: number;
  concurrency: number;
  /** Bound of the measured dispatcher run, so that the whole bench stays within its time. */
  deadlineMs: number;
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
  const bare = await deliverTo('delivery-bare', options);
  const real = await deliverTo('delivery-dispatcher', options);
  const ceiling = bare.data.delivered / bare.data.seconds;
  const cut =
    real.data.unfinished > 0
      ? `; stopped at the ${options.deadlineMs / 1000} s deadline with ${real.data.unfinished} of ${options.requests} undelivered (rate = accepted / elapsed)`
      : '';
  return [
    figure({
      name: 'delivery.requests_per_s',
      value: real.data.delivered / real.data.seconds,
      unit: 'requests/s',
      ceiling,
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.7 }],
      notes: `${options.requests} recorded requests (${options.linesPerRequest} lines each) → sandbox in another process, real dispatcher at concurrency ${options.concurrency}; ceiling: bare undici Pool, same payloads and headers${cut}`,
    }),
    figure({ name: 'delivery.peak_rss', value: real.maxRssMb, unit: 'MB', notes: 'maxRSS of the dispatcher child (payload preparation included)' }),
  ];
}
