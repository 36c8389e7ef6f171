/**
 * `npm run bench`: runs every benchmark (each case in its own child process), prints a table and
 * writes `bench/results.json` (format: `results.ts`). Missed targets are printed as MISSED but do
 * not fail the command; a benchmark that crashes does (exit 1, after the others ran).
 *
 * `node dist/bench/run.js intake webhook` runs only the named benchmarks.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from './bench-env.js';
import { runConsoleBench } from './console-bench.js';
import { runDeliveryBench } from './delivery-bench.js';
import { runExportBench } from './export-bench.js';
import { runFilesBench } from './files-bench.js';
import { INTAKE_STABILITY, runIntakeBench } from './intake-bench.js';
import { runLatencyBench } from './latency-bench.js';
import { renderTable, writeResults, type BenchResult } from './results.js';
import { runWebhookBench } from './webhook-bench.js';
import { runXlsxBench } from './xlsx-bench.js';

const log = (line: string) => console.log(line);
const LINES_PER_REQUEST = 10;

const BENCHES: Record<string, () => Promise<BenchResult[]>> = {
  intake: () =>
    runIntakeBench({
      sizes: [
        { label: '10k', rows: 10_000, repetitions: 5 },
        { label: '100k', rows: 100_000, repetitions: 3 },
        { label: '1m', rows: 1_000_000, repetitions: 3, mapRecord: false, peakRssWithin: { of: '100k', factor: 1.1 } },
      ],
      linesPerRequest: LINES_PER_REQUEST,
      ...INTAKE_STABILITY,
      log,
    }),
  files: () => runFilesBench({ files: 5_000, firstStormFiles: 5_000, linesPerRequest: 3, rounds: 5, endToEndConcurrency: 4, log }),
  delivery: () =>
    runDeliveryBench({
      requests: 10_000,
      warmupRequests: 200,
      linesPerRequest: LINES_PER_REQUEST,
      concurrency: 4,
      deadlineMs: 60_000,
      rounds: 3,
      endToEnd: { requests: 3_000, warmupRequests: 200, rounds: 3 },
      log,
    }),
  webhook: () =>
    runWebhookBench({
      events: 10_000,
      warmupEvents: 1_000,
      concurrency: 32,
      rounds: 3,
      openLoop: { rate: 1_000, seconds: 10, connections: 64, warmupEvents: 5_000 },
      log,
    }),
  export: () =>
    runExportBench({
      files: 10_000,
      burstEvents: 10_000,
      concurrency: 32,
      batchRows: [10_000, 50_000],
      bareGroup: 64,
      bareConcurrency: 4,
      rounds: 3,
      log,
    }),
  latency: () => runLatencyBench({ files: 30, stableForMs: 300, minAgeMs: 200, pollIntervalMs: 250, gapMs: 100, log }),
  console: () => runConsoleBench({ submissions: 100_000, events: 100_000, requestsPerFile: 10, requests: 200, warmup: 20, log }),
  xlsx: () =>
    runXlsxBench({
      sizes: [
        { label: '100k', rows: 100_000, rounds: 3 },
        { label: '1m', rows: 1_000_000, rounds: 3, peakRssWithin: { of: '100k', factor: 1.1 } },
      ],
      linesPerRequest: LINES_PER_REQUEST,
      log,
    }),
};

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  const results: BenchResult[] = [];
  const crashed: string[] = [];
  const started = performance.now();
  for (const [name, run] of Object.entries(BENCHES)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    const t0 = performance.now();
    log(`${name}…`);
    try {
      results.push(...(await run()));
      log(`${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      crashed.push(name);
      console.error(`${name} CRASHED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  const file = path.join(REPO_ROOT, 'bench/results.json');
  writeResults(file, results);
  log('');
  log(renderTable(results));
  log('');
  const missed = results.filter((r) => r.met === false).map((r) => r.name);
  log(
    `${results.length} figures, ${missed.length} MISSED${missed.length > 0 ? ` (${missed.join(', ')})` : ''}; ${crashed.length} benchmark(s) crashed${crashed.length > 0 ? ` (${crashed.join(', ')})` : ''}`,
  );
  log(
    `node ${process.version}, ${process.platform}/${process.arch}; whole run ${((performance.now() - started) / 1000).toFixed(0)} s; results in ${path.relative(process.cwd(), file) || file}`,
  );
  return crashed.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
