/**
 * Bench 5, export: how fast status changes reach the ERP's import folder.
 *
 * - `export.per_event.files_per_s`: pending `perEvent` rows → files, through the real exporter on
 *   the daemon's store; ceiling: a bare write-fsync-rename loop (one folder fsync per group) in a
 *   folder of the same file system, the same number of files of the same size.
 * - `export.burst.*`: end to end, as the daemon runs: a burst of signed events into the listener
 *   with the exporter running; the time from the first send until the last file is in the import
 *   folder (after a warm-up whose files are waited for first).
 * - `export.batch.*`: `batch` mode, 10,000 and 50,000 pending rows into one file by `flush()`;
 *   the time per row must not grow with the size.
 * Rounds alternate (ceiling, exporter, ceiling, burst, …, ceiling; 10k, 50k, …); figures are
 * medians of the rounds, ratios the medians of each case's ratio to the mean of the ceilings
 * measured just before and just after it.
 */
import { runCase, withServerCase } from './child.js';
import type { BareLoopArgs, BatchArgs, ExportRun, PerEventArgs } from './export-cases.js';
import { figure, type BenchResult } from './results.js';
import { alternatingRounds, median, roundRatios } from './stats.js';
import type { ListenerInfo, ListenerRun, LoadArgs, LoadRun } from './webhook-cases.js';

export interface ExportBenchOptions {
  /** Files of the perEvent case (and of its ceiling). */
  files: number;
  /** Events of the burst. */
  burstEvents: number;
  /** Concurrent senders of the burst. */
  concurrency: number;
  /** Row counts of the batch case: the small and the large one. */
  batchRows: readonly [number, number];
  /** Files per folder fsync, and files at once, of the bare loop. */
  bareGroup: number;
  bareConcurrency: number;
  rounds: number;
  log: (line: string) => void;
}

const SECRET = 'bench-export-secret';
const WARMUP = 500;

interface BurstRun {
  lastFileS: number;
  answeredS: number;
  /** Files written after the last event was answered, and how long they took (to the last file). */
  after: { files: number; seconds: number };
}

async function burst(options: ExportBenchOptions): Promise<BurstRun> {
  const expectedFiles = WARMUP + options.burstEvents;
  const { value, server } = await withServerCase<ListenerInfo, ListenerRun, LoadRun>('webhook-listener', { secret: SECRET, expectedFiles }, async (info) => {
    const args: LoadArgs = {
      url: info.url,
      secret: SECRET,
      events: options.burstEvents,
      warmupEvents: WARMUP,
      concurrency: options.concurrency,
      afterWarmup: { folder: info.folder, files: WARMUP },
    };
    return (await runCase<LoadRun>('webhook-load', args)).data;
  });
  if (server.data.files !== expectedFiles) throw new Error(`the burst wrote ${server.data.files} export files, expected ${expectedFiles}`);
  const lastFileS = (server.data.lastFileAt! - value.startedAt) / 1000;
  const answeredS = (value.endedAt - value.startedAt) / 1000;
  const after = { files: server.data.fileTimes.filter((t) => t > value.endedAt).length, seconds: (server.data.lastFileAt! - value.endedAt) / 1000 };
  options.log(
    `  export burst: ${options.burstEvents} events answered in ${answeredS.toFixed(2)} s, last file after ${lastFileS.toFixed(2)} s; ` +
      `${after.files} files after the storm in ${after.seconds.toFixed(2)} s`,
  );
  return { lastFileS, answeredS, after };
}

export async function runExportBench(options: ExportBenchOptions): Promise<BenchResult[]> {
  const bareArgs: BareLoopArgs = { files: options.files, warmupFiles: WARMUP, group: options.bareGroup, concurrency: options.bareConcurrency };
  const perEventArgs: PerEventArgs = { files: options.files, warmupFiles: WARMUP };
  // The bare loop runs before and after each measured case (bare, perEvent, bare, burst, bare, …,
  // and once more at the end), and a case is held to the mean of the two around it: the rate this
  // disk gives to a stream of new power-safe files drifts by itself over seconds (within one run
  // the bare loop measured 3,241, 2,100 and 1,271 files/s in successive rounds), and a ceiling
  // measured only before a case reads that drift as the case's (docs/performance.md, Export).
  const bare = async (): Promise<number> => {
    const { data } = await runCase<ExportRun>('export-bare-loop', bareArgs);
    options.log(`  export bare loop: ${options.files} files in ${data.seconds.toFixed(2)} s (${Math.round(options.files / data.seconds)}/s)`);
    return options.files / data.seconds;
  };
  const perEvent = await alternatingRounds(options.rounds, {
    bareBefore: bare,
    exporter: async () => {
      const { data } = await runCase<ExportRun>('export-per-event', perEventArgs);
      options.log(`  export perEvent: ${options.files} files in ${data.seconds.toFixed(2)} s (${Math.round(options.files / data.seconds)}/s)`);
      return data;
    },
    bareBetween: bare,
    burst: () => burst(options),
  });
  const bareAtEnd = await bare();
  const bracket = (before: readonly number[], after: readonly number[]) => before.map((rate, i) => (rate + after[i]!) / 2);
  const exporterCeilings = bracket(perEvent.bareBefore, perEvent.bareBetween);
  const burstCeilings = bracket(perEvent.bareBetween, [...perEvent.bareBefore.slice(1), bareAtEnd]);
  const exporterRates = perEvent.exporter.map((r) => options.files / r.seconds);
  const ratios = roundRatios(exporterRates, exporterCeilings);
  options.log(`  export perEvent: ratio per round ${ratios.join(', ')}`);
  const bursts = { burst: perEvent.burst };
  const burstRates = perEvent.burst.map((b) => options.burstEvents / b.lastFileS);
  const burstRatios = roundRatios(burstRates, burstCeilings);
  options.log(`  export burst: ratio per round ${burstRatios.join(', ')}`);
  const afterRates = perEvent.burst.map((b) => b.after.files / Math.max(b.after.seconds, 0.001));
  const afterRatios = roundRatios(afterRates, burstCeilings);

  const [small, large] = options.batchRows;
  const batches = await alternatingRounds(options.rounds, {
    small: async () => batch(small, options),
    large: async () => batch(large, options),
  });
  const perRow = (seconds: number, rows: number) => seconds / rows;
  const growth = roundRatios(
    batches.large.map((s) => perRow(s, large)),
    batches.small.map((s) => perRow(s, small)),
  );
  options.log(`  export batch: time per row at ${large} / at ${small}, per round: ${growth.join(', ')}`);

  const bytes = median(perEvent.exporter.map((r) => r.bytesPerFile ?? Number.NaN));
  const rounds = `median of ${options.rounds} alternating rounds`;
  return [
    figure({
      name: 'export.per_event.files_per_s',
      value: median(exporterRates),
      unit: 'files/s',
      ceiling: median(exporterCeilings),
      // The median of the per-round ratios: each case against the bare loops just before and after it.
      ratio: median(ratios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.6 }],
      notes:
        `${options.files} pending status rows → files (real exporter, default status mapping, ~${Math.round(bytes)} B each, daemon's store); ` +
        `ceiling: bare temp-write-fsync-rename loop, ${options.bareConcurrency} files at once, one folder fsync per ${options.bareGroup}, the mean of its runs just before and after; ${rounds} (ratios ${ratios.join(', ')})`,
    }),
    figure({
      name: 'export.burst.last_file_s',
      value: median(bursts.burst.map((b) => b.lastFileS)),
      unit: 's',
      notes:
        `${options.burstEvents} signed events from ${options.concurrency} senders into the listener with the perEvent export (as the daemon runs): ` +
        `first send → last file in the import folder; all answered after ${median(bursts.burst.map((b) => b.answeredS)).toFixed(2)} s; median of ${options.rounds} rounds`,
    }),
    figure({
      name: 'export.burst.files_per_s',
      value: median(burstRates),
      unit: 'files/s',
      ceiling: median(burstCeilings),
      ratio: median(burstRatios),
      // The issue's own measure of the export: the burst's files per second against the bare loop.
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.6 }],
      notes: `the burst as files per second from the first send to the last file; ceiling: the bare loop, the mean of its runs just before and after the burst; ${rounds} (ratios ${burstRatios.join(', ')})`,
    }),
    figure({
      name: 'export.burst.after_storm_files_per_s',
      value: median(afterRates),
      unit: 'files/s',
      ceiling: median(burstCeilings),
      ratio: median(afterRatios),
      conditions: [{ of: 'ratio', op: '>=', threshold: 0.8 }],
      notes: `the files written after the last event was answered (${perEvent.burst.map((b) => b.after.files).join(', ')} per round), from then to the last file: the exporter once it no longer gives way; ceiling: as the burst's; ${rounds} (ratios ${afterRatios.join(', ')})`,
    }),
    figure({
      name: `export.batch.${small / 1000}k_s`,
      value: median(batches.small),
      unit: 's',
      notes: `${small} pending rows → one batch file by flush(); ${rounds}`,
    }),
    figure({
      name: `export.batch.${large / 1000}k_s`,
      value: median(batches.large),
      unit: 's',
      notes: `${large} pending rows → one batch file by flush(); ${rounds}`,
    }),
    figure({
      name: 'export.batch.per_row_growth',
      value: median(growth),
      unit: 'x',
      conditions: [{ of: 'value', op: '<=', threshold: 1.5 }],
      notes: `time per row at ${large} rows / at ${small} rows (1 = linear; 5 = quadratic); ${rounds} (per round ${growth.join(', ')})`,
    }),
  ];
}

async function batch(rows: number, options: ExportBenchOptions): Promise<number> {
  const args: BatchArgs = { rows, warmupRows: 1_000 };
  const { data } = await runCase<ExportRun>('export-batch', args);
  options.log(`  export batch: ${rows} rows in ${data.seconds.toFixed(2)} s`);
  return data.seconds;
}
