/**
 * Bench 8, many small files: `files` one-request files dropped into the inbox at once, taken by
 * the real intake (`files-cases.ts`), against the plain durable loop on the same disk in the same
 * run. While the intake works, this process plays one operator on the console (`/`, sequential
 * GETs as HTML); the child's peak RSS covers the intake, the console and the store.
 * Rounds alternate plain, intake, end to end, plain, intake, end to end…; each round's intake and
 * end-to-end run against the plain loop of the same round, and the median of those ratios is the
 * figure. End to end is the intake as an operator sees it at a site: delivery of the same requests
 * to the sandbox (another process) runs beside it, woken as the daemon wakes it, with the
 * acknowledgement files it enqueues; timed to the last file archived (the held figure) and to the
 * last request accepted. Each intake child takes two storms and the second is held: the first
 * since the daemon started runs while V8 compiles the intake's hot paths, which a daemon that has
 * run a while has done; it is reported beside, not held (`*.first_storm.*`).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { runCase, withServerCase, type CaseOutcome } from './child.js';
import type { FilesArgs, FilesIntakeInfo, FilesIntakeRun, FilesRun } from './files-cases.js';
import { figure, type BenchResult } from './results.js';
import type { SandboxInfo, SandboxReport } from './sandbox-cases.js';
import { max, median, percentile, roundRatios } from './stats.js';

export interface FilesBenchOptions extends Omit<FilesArgs, 'delivery'> {
  rounds: number;
  /** The end-to-end rounds' delivery concurrency (the daemon's default); no end-to-end rounds when absent. */
  endToEndConcurrency?: number;
  log: (line: string) => void;
}

/**
 * An operator watching the overview: `/` every `OPERATOR_PAUSE_MS` (a page loaded back to back
 * would not measure the console during the intake but the intake starved by the console).
 */
const OPERATOR_PAUSE_MS = 200;

/**
 * Time `/` until the case says its last file is archived (`done`); returns each page's time in ms.
 * The case says so over its channel: scraping `/metrics` for the count after every page, as this
 * did, put a Prometheus scrape several times a second on the loop it measures.
 */
async function operateWhileTaking(url: string, done: Promise<void>): Promise<number[]> {
  const pool = new Pool(url, { connections: 1 });
  const times: number[] = [];
  let over = false;
  void done.then(() => {
    over = true;
  });
  try {
    while (!over) {
      const t0 = performance.now();
      const page = await get(pool, '/', { accept: 'text/html' });
      if (page.status !== 200) throw new Error(`/ answered ${page.status}: ${page.body.slice(0, 200)}`);
      times.push(performance.now() - t0);
      await Promise.race([sleep(OPERATOR_PAUSE_MS), done]);
    }
    return times;
  } finally {
    await pool.close();
  }
}

async function get(pool: Pool, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const answer = await pool.request({ path, method: 'GET', headers });
  return { status: answer.statusCode, body: await answer.body.text() };
}

/** The intake with its console, an operator watching it; end to end when `delivery` is given. */
async function intakeRound(args: FilesArgs, timeoutMs: number): Promise<{ server: CaseOutcome<FilesIntakeRun>; times: number[] }> {
  const { value: times, server } = await withServerCase<FilesIntakeInfo, FilesIntakeRun, number[]>(
    'files-intake',
    args,
    (info, done) => operateWhileTaking(info.url, done),
    timeoutMs,
  );
  return { server, times };
}

export async function runFilesBench(options: FilesBenchOptions): Promise<BenchResult[]> {
  const args: FilesArgs = { files: options.files, firstStormFiles: options.firstStormFiles, linesPerRequest: options.linesPerRequest };
  // A guard against a hung case, not a target: the intake took 50 s for 5,000 files before issue 32.
  const timeoutMs = Math.max(300_000, options.files * 120);
  const plain: number[] = [];
  const intake: number[] = [];
  const intakeCold: number[] = [];
  const e2e: number[] = [];
  const e2eCold: number[] = [];
  const delivered: number[] = [];
  const rss: number[] = [];
  const pages: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const p = await runCase<FilesRun>('files-plain', args, timeoutMs);
    plain.push(p.data.files / p.data.seconds);
    const { server, times } = await intakeRound(args, timeoutMs);
    intake.push(server.data.files / server.data.seconds);
    intakeCold.push(options.firstStormFiles / server.data.firstStormSeconds);
    rss.push(server.maxRssMb);
    pages.push(...times);
    let endToEnd = '';
    if (options.endToEndConcurrency !== undefined) {
      const concurrency = options.endToEndConcurrency;
      const { value, server: sandbox } = await withServerCase<SandboxInfo, SandboxReport, { server: CaseOutcome<FilesIntakeRun>; times: number[] }>(
        'sandbox-server',
        {},
        (info) => intakeRound({ ...args, delivery: { url: info.url, token: info.token, concurrency } }, timeoutMs),
        timeoutMs,
      );
      const run = value.server.data;
      if (sandbox.data.accepted < options.firstStormFiles + options.files)
        throw new Error(`files end to end: the sandbox accepted ${sandbox.data.accepted} requests`);
      e2e.push(run.files / run.seconds);
      e2eCold.push(options.firstStormFiles / run.firstStormSeconds);
      delivered.push(run.files / run.deliveredSeconds!);
      rss.push(value.server.maxRssMb);
      pages.push(...value.times);
      endToEnd =
        `; end to end ${Math.round(e2e.at(-1)!)} files/s (first storm ${Math.round(e2eCold.at(-1)!)}; all archived after ${run.seconds.toFixed(2)} s, all accepted after ${run.deliveredSeconds!.toFixed(2)} s, ` +
        `${value.server.maxRssMb.toFixed(0)} MB), console / p95 ${percentile(value.times, 95).toFixed(1)} ms`;
    }
    options.log(
      `  files round ${round + 1}: plain ${Math.round(plain.at(-1)!)} files/s, intake ${Math.round(intake.at(-1)!)} files/s ` +
        `(first storm ${Math.round(intakeCold.at(-1)!)}; ${server.data.seconds.toFixed(2)} s, ${server.maxRssMb.toFixed(0)} MB), console / p95 ${percentile(times, 95).toFixed(1)} ms over ${times.length}${endToEnd}`,
    );
  }
  const ratios = roundRatios(intake, plain);
  const load = `${options.files} one-request files (${options.linesPerRequest} lines) renamed into the inbox at once by a thread of the bench's own, the daemon's second storm (the first: ${options.firstStormFiles} files, dropped and watched the same way)`;
  const cold = (name: string, values: number[], what: string) => {
    const coldRatios = roundRatios(values, plain);
    return figure({
      name,
      value: median(values),
      unit: 'files/s',
      ceiling: median(plain),
      ratio: median(coldRatios),
      notes: `${what}: the first storm since the daemon started, ${options.firstStormFiles} files, while V8 compiles its hot paths; not held (per-round ratios ${coldRatios.join(', ')})`,
    });
  };
  const results = [
    figure({
      name: 'files.files_per_s',
      value: median(intake),
      unit: 'files/s',
      ceiling: median(plain),
      ratio: median(ratios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.3 }],
      notes: `${load}, to the last one archived (real createIntake on the daemon's store), intake alone (the stage); ceiling: read, SHA-256, one SQLite commit (WAL, FULL), rename into the archive, archive folder fsync, per file, in a plain loop after as many files before; medians of ${options.rounds} alternating rounds (per-round ratios ${ratios.join(', ')})`,
    }),
    cold('files.first_storm.files_per_s', intakeCold, 'the intake alone'),
  ];
  if (e2e.length > 0) {
    const e2eRatios = roundRatios(e2e, plain);
    const deliveredRatios = roundRatios(delivered, plain);
    results.push(
      figure({
        name: 'files.end_to_end.files_per_s',
        value: median(e2e),
        unit: 'files/s',
        ceiling: median(plain),
        ratio: median(e2eRatios),
        conditions: [{ of: 'ratio', op: '>=', threshold: 0.3 }],
        notes: `${load}, to the last one archived, with delivery of their requests to the sandbox (another process, concurrency ${options.endToEndConcurrency}) and their acknowledgement files running beside the intake, as at a site; ceiling: the plain loop of the same round (per-round ratios ${e2eRatios.join(', ')})`,
      }),
      figure({
        name: 'files.end_to_end.delivered_files_per_s',
        value: median(delivered),
        unit: 'files/s',
        ceiling: median(plain),
        ratio: median(deliveredRatios),
        notes: `the same runs, to the last request accepted by the sandbox (per-round ratios ${deliveredRatios.join(', ')})`,
      }),
      cold('files.end_to_end.first_storm.files_per_s', e2eCold, 'end to end, to the last file archived'),
    );
  }
  results.push(
    figure({
      name: 'files.peak_rss',
      value: max(rss),
      unit: 'MB',
      conditions: [{ of: 'value', op: '<', threshold: 512 }],
      notes: 'maxRSS of the intake child (intake, console, store; delivery and its exporter end to end), worst round',
    }),
    figure({
      name: 'files.console_p95_ms',
      value: percentile(pages, 95),
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 100 }],
      notes: `the console's / (HTML), one operator's GET every ${OPERATOR_PAUSE_MS} ms while the files are taken, ${pages.length} over all rounds; p50 ${median(pages).toFixed(1)} ms`,
    }),
  );
  return results;
}
