/**
 * The XLSX bench: generated 1C-like workbooks (bench/generate-xlsx.ts, shared strings as Excel
 * writes them) of 100,000 and 1,000,000 rows, read in fresh children by exceljs's own streaming
 * reader (the ceiling), by our reader alone, and mapped by `mapFile` (mapping and validation).
 * Rounds alternate exceljs, reader, mapFile, so a noisy moment spoils one round of each; figures
 * are medians, the throughput ratio the median of per-round ratios, RSS the worst round.
 *
 * Targets: our reader at ≥ 0.5 of exceljs's bare read; mapFile's peak RSS < 150 MB, and at 1m
 * within 10 % of its peak at 100k (memory must not grow with the sheet).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCase } from './child.js';
import type { XlsxSpec } from './generate-xlsx.js';
import { figure, type BenchResult } from './results.js';
import { max, median, roundRatios } from './stats.js';
import type { XlsxArgs, XlsxRun } from './xlsx-cases.js';

export interface XlsxSize {
  label: string;
  rows: number;
  rounds: number;
  /** Hold mapFile's peak RSS to that of size `of` (measured before it), within `factor`. */
  peakRssWithin?: { of: string; factor: number };
}

export interface XlsxBenchOptions {
  sizes: XlsxSize[];
  linesPerRequest: number;
  log: (line: string) => void;
}

export async function runXlsxBench(options: XlsxBenchOptions): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-xlsx-'));
  const results: BenchResult[] = [];
  const mapPeak = new Map<string, number>();
  try {
    const warmup = path.join(dir, 'warmup.xlsx');
    await generate(warmup, { requests: 200, linesPerRequest: options.linesPerRequest, prefix: 'W' });
    for (const size of options.sizes) {
      const requests = Math.round(size.rows / options.linesPerRequest);
      const main = path.join(dir, `requests-${size.rows}.xlsx`);
      const started = Date.now();
      const rows = await generate(main, { requests, linesPerRequest: options.linesPerRequest, prefix: 'M' });
      const megabytes = fs.statSync(main).size / 1024 / 1024;
      options.log(`  xlsx ${size.label}: generated ${rows} rows, ${megabytes.toFixed(1)} MB, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      const args: XlsxArgs = { warmup, main, rows, requests };
      const timeoutMs = Math.max(180_000, rows / 2);
      const exceljs: number[] = [];
      const reader: number[] = [];
      const mapped: number[] = [];
      const rss = { exceljs: [] as number[], reader: [] as number[], mapped: [] as number[] };
      let inflated = 0;
      for (let round = 0; round < size.rounds; round++) {
        const e = await runCase<XlsxRun>('xlsx-exceljs-read', args, timeoutMs);
        const r = await runCase<XlsxRun>('xlsx-reader-read', args, timeoutMs);
        const m = await runCase<XlsxRun>('xlsx-map-file', args, timeoutMs);
        exceljs.push(rows / e.data.seconds);
        reader.push(rows / r.data.seconds);
        mapped.push(rows / m.data.seconds);
        rss.exceljs.push(e.maxRssMb);
        rss.reader.push(r.maxRssMb);
        rss.mapped.push(m.maxRssMb);
        inflated = r.data.inflatedBytes ?? 0;
        options.log(
          `  xlsx ${size.label} round ${round + 1}: exceljs ${Math.round(rows / e.data.seconds)} rows/s (${e.maxRssMb.toFixed(0)} MB), ` +
            `reader ${Math.round(rows / r.data.seconds)} rows/s (${r.maxRssMb.toFixed(0)} MB), mapFile ${Math.round(rows / m.data.seconds)} rows/s (${m.maxRssMb.toFixed(0)} MB)`,
        );
      }
      const ratios = roundRatios(reader, exceljs);
      const name = `xlsx.${size.label}`;
      results.push(
        figure({
          name: `${name}.reader_rows_per_s`,
          value: median(reader),
          unit: 'rows/s',
          ceiling: median(exceljs),
          ratio: median(ratios),
          conditions: [{ of: 'ratio', op: '>=', threshold: 0.5 }],
          notes: `our reader, every row (${(inflated / 1024 / 1024).toFixed(0)} MB inflated: the sheet twice, merges pass and rows pass); ceiling: exceljs stream.xlsx.WorkbookReader, every row; medians of ${size.rounds} alternating rounds (per-round ratios ${ratios.join(', ')})`,
        }),
        figure({
          name: `${name}.map_file_rows_per_s`,
          value: median(mapped),
          unit: 'rows/s',
          ceiling: median(exceljs),
          ratio: median(roundRatios(mapped, exceljs)),
          notes: `mapFile: header, grouping (${options.linesPerRequest} rows per request), field conversion, validation; ceiling as above`,
        }),
        figure({ name: `${name}.exceljs_peak_rss`, value: max(rss.exceljs), unit: 'MB', notes: 'maxRSS of the exceljs child, worst round' }),
        figure({ name: `${name}.reader_peak_rss`, value: max(rss.reader), unit: 'MB', notes: 'maxRSS of our reader child, worst round' }),
        figure({
          name: `${name}.map_file_peak_rss`,
          value: max(rss.mapped),
          unit: 'MB',
          conditions: [{ of: 'value', op: '<', threshold: 150 }],
          notes: 'maxRSS of the mapFile child (whole process, warm-up included), worst round',
        }),
      );
      mapPeak.set(size.label, max(rss.mapped));
      const base = size.peakRssWithin && mapPeak.get(size.peakRssWithin.of);
      if (size.peakRssWithin && base !== undefined) {
        results.push(
          figure({
            name: `${name}.map_file_peak_rss_vs_${size.peakRssWithin.of}`,
            value: max(rss.mapped),
            unit: 'MB',
            ceiling: base,
            conditions: [{ of: 'ratio', op: '<=', threshold: size.peakRssWithin.factor }],
            notes: `mapFile's peak RSS at ${size.label} against ${size.peakRssWithin.of} of the same run ("ceiling"): memory must not grow with the sheet`,
          }),
        );
      }
      fs.rmSync(main, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/**
 * Generate in a child: Linux counts a parent's RSS at fork into the child's maxRSS, so a runner
 * that had written a million rows with exceljs itself (~500 MB) would make every case look that big.
 */
async function generate(file: string, spec: XlsxSpec): Promise<number> {
  return (await runCase<{ rows: number }>('xlsx-generate', { file, ...spec }, 600_000)).data.rows;
}
