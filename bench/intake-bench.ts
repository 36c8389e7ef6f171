/**
 * Bench 1, intake: a generated 1C CSV (10 lines per request) of 10,000, 100,000 and 1,000,000 rows,
 * from the drop into the inbox to every request recorded, through the real intake. Each repetition
 * runs the ceiling (csv-parse with the same iconv decode), the real intake and map+record, each in
 * a fresh child; figures are medians, RSS is the worst repetition. A size may also be held to the
 * peak RSS of a smaller one: memory must not grow with the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCase } from './child.js';
import { writeRequestsCsv } from './generate-csv.js';
import type { IntakeArgs, TimedRun } from './intake-cases.js';
import { figure, type BenchResult } from './results.js';
import { max, median, roundRatios } from './stats.js';

export interface IntakeSize {
  label: string;
  rows: number;
  repetitions: number;
  /** Also report this size's peak RSS against that of size `of` (measured before it), with the target `<= factor` of it. */
  peakRssWithin?: { of: string; factor: number };
  /** Also time map+record alone (an info figure). Default true; the 1m size skips it to keep three rounds within a few minutes. */
  mapRecord?: boolean;
}

export interface IntakeBenchOptions {
  sizes: IntakeSize[];
  linesPerRequest: number;
  stableForMs: number;
  minAgeMs: number;
  log: (line: string) => void;
}

/** The stability settings of the drop measurement (small: the file is renamed in whole). */
export const INTAKE_STABILITY = { stableForMs: 50, minAgeMs: 0 } as const;

export async function runIntakeBench(options: IntakeBenchOptions): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-intake-'));
  const results: BenchResult[] = [];
  const peakRss = new Map<string, number>();
  try {
    const warmupRequests = 100;
    const warmup = path.join(dir, 'warmup.csv');
    writeRequestsCsv(warmup, { requests: warmupRequests, linesPerRequest: options.linesPerRequest, prefix: 'W' });
    for (const size of options.sizes) {
      const requests = Math.round(size.rows / options.linesPerRequest);
      const main = path.join(dir, `requests-${size.rows}.csv`);
      const rows = writeRequestsCsv(main, { requests, linesPerRequest: options.linesPerRequest, prefix: 'M' });
      const args: IntakeArgs = { warmup, warmupRequests, main, rows, requests, stableForMs: options.stableForMs, minAgeMs: options.minAgeMs };
      const ceiling: number[] = [];
      const drop: number[] = [];
      const mapRecord: number[] = [];
      const rss: number[] = [];
      const mapRecordRss: number[] = [];
      // A guard against a hung case, not a target: a million rows take about a minute here.
      const timeoutMs = Math.max(180_000, rows);
      for (let rep = 0; rep < size.repetitions; rep++) {
        const c = await runCase<TimedRun>('intake-csv-parse', args, timeoutMs);
        ceiling.push(rows / c.data.seconds);
        const d = await runCase<TimedRun>('intake-drop', args, timeoutMs);
        drop.push(rows / d.data.seconds);
        rss.push(d.maxRssMb);
        let mapRecordLine = '';
        if (size.mapRecord !== false) {
          const m = await runCase<TimedRun>('intake-map-record', args, timeoutMs);
          mapRecord.push(rows / m.data.seconds);
          mapRecordRss.push(m.maxRssMb);
          mapRecordLine = `, map+record ${m.data.seconds.toFixed(2)} s`;
        }
        options.log(
          `  intake ${size.label} rep ${rep + 1}: csv-parse ${Math.round(rows / c.data.seconds)} rows/s, ` +
            `drop→recorded ${d.data.seconds.toFixed(2)} s (${Math.round(rows / d.data.seconds)} rows/s, ${d.maxRssMb.toFixed(0)} MB)${mapRecordLine}`,
        );
      }
      const ceilingRate = median(ceiling);
      const rate = median(drop);
      // Each round's drop against the ceiling measured just before it, as the other benches pair
      // theirs: the machine's load moves both, and one noisy ceiling then moves one round only.
      const ratios = roundRatios(drop, ceiling);
      options.log(`  intake ${size.label}: ratio per round ${ratios.join(', ')}`);
      results.push(
        figure({
          name: `intake.${size.label}.rows_per_s`,
          value: rate,
          unit: 'rows/s',
          ceiling: ceilingRate,
          ratio: median(ratios),
          conditions: [{ of: 'ratio', op: '>=', threshold: 0.5 }],
          notes: `drop into the inbox → every row recorded (real createIntake, stableForMs ${options.stableForMs}, minAgeMs ${options.minAgeMs}); ceiling: csv-parse + iconv alone; medians of ${size.repetitions} alternating rounds (per-round ratios ${ratios.join(', ')})`,
        }),
        figure({
          name: `intake.${size.label}.requests_per_s`,
          value: rate / options.linesPerRequest,
          unit: 'requests/s',
          notes: `${options.linesPerRequest} rows per request`,
        }),
        figure({
          name: `intake.${size.label}.peak_rss`,
          value: max(rss),
          unit: 'MB',
          conditions: [{ of: 'value', op: '<', threshold: 150 }],
          notes: 'maxRSS of the intake child (whole process, warm-up included), worst repetition',
        }),
      );
      if (mapRecord.length > 0) {
        results.push(
          figure({
            name: `intake.${size.label}.map_record_rows_per_s`,
            value: median(mapRecord),
            unit: 'rows/s',
            ceiling: ceilingRate,
            ratio: median(roundRatios(mapRecord, ceiling)),
            notes: `mapFile → recordMappedFile only (no watcher, stability wait, hashing or moves); peak RSS ${max(mapRecordRss).toFixed(0)} MB`,
          }),
        );
      }
      peakRss.set(size.label, max(rss));
      const base = size.peakRssWithin && peakRss.get(size.peakRssWithin.of);
      if (size.peakRssWithin && base !== undefined) {
        results.push(
          figure({
            name: `intake.${size.label}.peak_rss_vs_${size.peakRssWithin.of}`,
            value: max(rss),
            unit: 'MB',
            ceiling: base,
            conditions: [{ of: 'ratio', op: '<=', threshold: size.peakRssWithin.factor }],
            notes: `peak RSS of the ${size.label} drop against the ${size.peakRssWithin.of} one of the same run ("ceiling"): memory must not grow with the file`,
          }),
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
