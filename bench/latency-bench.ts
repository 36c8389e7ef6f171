/**
 * Bench 4, latency from file drop to POST: the time the POST arrived at the sandbox (its own clock,
 * another process on the same machine) minus the time the file was renamed into the inbox, over
 * single-request files dropped one by one, with watcher events and with polling.
 *
 * The stability rules dominate: a file is taken once its size and mtime held for `stableForMs`
 * (seen by two scans) and its mtime is `minAgeMs` old. A renamed file keeps the mtime it was written
 * with, so the wait is about max(stableForMs, minAgeMs) after the file is first seen; the targets
 * allow their sum plus 500 ms (median) or 1000 ms (p95), plus one poll interval when polling.
 */
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import type { LatencyArgs } from './latency-cases.js';
import type { Drop } from './latency-cases.js';
import { figure, type BenchResult } from './results.js';
import type { SandboxInfo, SandboxReport } from './sandbox-cases.js';
import { median, percentile } from './stats.js';

export interface LatencyBenchOptions {
  files: number;
  stableForMs: number;
  minAgeMs: number;
  pollIntervalMs: number;
  gapMs: number;
  log: (line: string) => void;
}

async function measure(usePolling: boolean, options: LatencyBenchOptions): Promise<number[]> {
  const { value, server } = await withServerCase<SandboxInfo, SandboxReport, CaseOutcome<{ drops: Drop[] }>>('sandbox-server', { arrivals: true }, (info) => {
    const args: LatencyArgs = {
      ...info,
      usePolling,
      files: options.files,
      pollIntervalMs: options.pollIntervalMs,
      stableForMs: options.stableForMs,
      minAgeMs: options.minAgeMs,
      gapMs: options.gapMs,
    };
    return runCase<{ drops: Drop[] }>('latency-drop-to-post', args);
  });
  const arrivals = server.data.arrivals ?? {};
  return value.data.drops.map((drop) => {
    const arrivedAt = arrivals[drop.externalId];
    if (arrivedAt === undefined) throw new Error(`the sandbox saw no POST for ${drop.externalId}`);
    return arrivedAt - drop.droppedAt;
  });
}

export async function runLatencyBench(options: LatencyBenchOptions): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const settle = options.stableForMs + options.minAgeMs;
  for (const usePolling of [false, true]) {
    const mode = usePolling ? 'polling' : 'watcher';
    const latencies = await measure(usePolling, options);
    const extra = usePolling ? options.pollIntervalMs : 0;
    const settings = `stableForMs ${options.stableForMs}, minAgeMs ${options.minAgeMs}${usePolling ? `, usePolling, pollIntervalMs ${options.pollIntervalMs}` : ', inotify events'}`;
    options.log(`  latency ${mode}: ${latencies.map((x) => Math.round(x)).join(' ')} ms`);
    results.push(
      figure({
        name: `latency.${mode}.median_ms`,
        value: median(latencies),
        unit: 'ms',
        conditions: [{ of: 'value', op: '<', threshold: settle + extra + 500 }],
        notes: `file renamed into the inbox → POST arrived at the sandbox, ${latencies.length} single-request files; ${settings}`,
      }),
      figure({
        name: `latency.${mode}.p95_ms`,
        value: percentile(latencies, 95),
        unit: 'ms',
        conditions: [{ of: 'value', op: '<', threshold: settle + extra + 1000 }],
        notes: settings,
      }),
    );
  }
  return results;
}
