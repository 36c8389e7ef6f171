/**
 * Bench 8, many small files: `files` one-request files dropped into the inbox at once, taken by
 * the real intake (`files-cases.ts`), against the plain durable loop on the same disk in the same
 * run. While the intake works, this process plays one operator on the console (`/`, sequential
 * GETs as HTML); the child's peak RSS covers the intake, the console and the store.
 * Rounds alternate plain, intake, plain, intake…; each round's intake against the plain loop just
 * before it, and the median of those ratios is the figure.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { runCase, withServerCase } from './child.js';
import type { FilesArgs, FilesIntakeInfo, FilesRun } from './files-cases.js';
import { figure, type BenchResult } from './results.js';
import { max, median, percentile, roundRatios } from './stats.js';

export interface FilesBenchOptions extends FilesArgs {
  rounds: number;
  log: (line: string) => void;
}

/**
 * An operator watching the overview: `/` every `OPERATOR_PAUSE_MS` (a page loaded back to back
 * would not measure the console during the intake but the intake starved by the console).
 */
const OPERATOR_PAUSE_MS = 200;

/** Time `/` until the metrics say every file is archived; returns each page's time in ms. */
async function operateWhileTaking(url: string, archivedTotal: number): Promise<number[]> {
  const pool = new Pool(url, { connections: 1 });
  const times: number[] = [];
  const archived = new RegExp(`connector_files_total\\{flow="bench",outcome="archived"\\} (\\d+)`);
  try {
    for (;;) {
      const t0 = performance.now();
      const page = await get(pool, '/', { accept: 'text/html' });
      if (page.status !== 200) throw new Error(`/ answered ${page.status}: ${page.body.slice(0, 200)}`);
      times.push(performance.now() - t0);
      const metrics = await get(pool, '/metrics', {});
      if (Number(archived.exec(metrics.body)?.[1] ?? 0) >= archivedTotal) return times;
      await sleep(OPERATOR_PAUSE_MS);
    }
  } finally {
    await pool.close();
  }
}

async function get(pool: Pool, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const answer = await pool.request({ path, method: 'GET', headers });
  return { status: answer.statusCode, body: await answer.body.text() };
}

export async function runFilesBench(options: FilesBenchOptions): Promise<BenchResult[]> {
  const args: FilesArgs = { files: options.files, warmupFiles: options.warmupFiles, linesPerRequest: options.linesPerRequest };
  // A guard against a hung case, not a target: the intake took 50 s for 5,000 files before issue 32.
  const timeoutMs = Math.max(300_000, options.files * 120);
  const plain: number[] = [];
  const intake: number[] = [];
  const rss: number[] = [];
  const pages: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const p = await runCase<FilesRun>('files-plain', args, timeoutMs);
    plain.push(p.data.files / p.data.seconds);
    const { value: times, server } = await withServerCase<FilesIntakeInfo, FilesRun, number[]>(
      'files-intake',
      args,
      (info) => operateWhileTaking(info.url, options.files + options.warmupFiles),
      timeoutMs,
    );
    intake.push(server.data.files / server.data.seconds);
    rss.push(server.maxRssMb);
    pages.push(...times);
    options.log(
      `  files round ${round + 1}: plain ${Math.round(plain.at(-1)!)} files/s, intake ${Math.round(intake.at(-1)!)} files/s ` +
        `(${server.data.seconds.toFixed(2)} s, ${server.maxRssMb.toFixed(0)} MB), console / p95 ${percentile(times, 95).toFixed(1)} ms over ${times.length}`,
    );
  }
  const ratios = roundRatios(intake, plain);
  const load = `${options.files} one-request files (${options.linesPerRequest} lines) renamed into the inbox at once, after ${options.warmupFiles} of warm-up`;
  return [
    figure({
      name: 'files.files_per_s',
      value: median(intake),
      unit: 'files/s',
      ceiling: median(plain),
      ratio: median(ratios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.3 }],
      notes: `${load}, to the last one archived (real createIntake on the daemon's store); ceiling: read, SHA-256, one SQLite commit (WAL, FULL), rename into the archive, archive folder fsync, per file, in a plain loop; medians of ${options.rounds} alternating rounds (per-round ratios ${ratios.join(', ')})`,
    }),
    figure({
      name: 'files.peak_rss',
      value: max(rss),
      unit: 'MB',
      conditions: [{ of: 'value', op: '<', threshold: 512 }],
      notes: 'maxRSS of the intake child (intake, console, store), worst round',
    }),
    figure({
      name: 'files.console_p95_ms',
      value: percentile(pages, 95),
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 100 }],
      notes: `the console's / (HTML), one operator's GET every ${OPERATOR_PAUSE_MS} ms while the files are taken, ${pages.length} over all rounds; p50 ${median(pages).toFixed(1)} ms`,
    }),
  ];
}
