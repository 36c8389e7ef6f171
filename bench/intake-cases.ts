/**
 * Child-side cases of the intake bench. Each runs in its own process (its peak RSS is its own)
 * and warms up on a small file first, so the measured file does not pay for JIT and first opens.
 *
 * - `intake-drop`: the real `createIntake`: time from the rename of the file into the inbox to the
 *   `onRecorded` callback (every request committed in SQLite, the file archived).
 * - `intake-map-record`: the same work without the watcher and the stability wait: `mapFile` →
 *   `recordMappedFile` (prepared and recorded in chunks as it is mapped), as `processClaimedFile` does it.
 * - `intake-csv-parse`: the ceiling: read stream → iconv-lite windows-1251 decode → csv-parse,
 *   counting records, nothing else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { createIntake } from '../src/intake/index.js';
import { silentLogger } from '../src/log.js';
import { mapFile } from '../src/mapping/index.js';
import { claimFile, listFiles, readFileReport } from '../src/store/files.js';
import { createStore, openStore, storePath, type Db } from '../src/store/open-store.js';
import { recordMappedFile } from '../src/intake/record-mapped-file.js';
import { benchFlow, deferred, FLOW_NAME, MAPPING_1C, SOURCE_SYSTEM, withTempRoot } from './bench-env.js';

export interface IntakeFiles {
  /** A small file of other externalIds, processed first. */
  warmup: string;
  warmupRequests: number;
  main: string;
  rows: number;
  requests: number;
}

export interface IntakeArgs extends IntakeFiles {
  stableForMs: number;
  minAgeMs: number;
}

export interface TimedRun {
  seconds: number;
  rows: number;
  requests: number;
}

/** Why a dropped file recorded nothing, from its row and report (for the error message). */
function describeFileOutcome(db: Db, name: string): string {
  const row = listFiles(db, FLOW_NAME, 1000).find((f) => f.originalName === name);
  if (!row) return `${name} was never claimed`;
  const problems =
    readFileReport(row)
      ?.problems.slice(0, 3)
      .map((p) => p.message) ?? [];
  return `${name} is ${row.state}${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`;
}

async function intakeDrop(args: IntakeArgs): Promise<TimedRun> {
  return withTempRoot(async (root) => {
    const flow = benchFlow(root, { stableForMs: args.stableForMs, minAgeMs: args.minAgeMs, rescanIntervalMs: 60_000 });
    const staging = path.join(root, 'staging');
    fs.mkdirSync(staging);
    fs.mkdirSync(flow.inbox);
    // The daemon's store, as src/daemon/ opens it: synchronous=NORMAL, group commit, checkpoints in a worker.
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const spec = loadMappingSpec(MAPPING_1C);
    let waiter = deferred<number>();
    const intake = createIntake({
      db,
      flow,
      sourceSystem: SOURCE_SYSTEM,
      mapping: spec,
      logger: silentLogger,
      durable: () => durability.durable(),
      onRecorded: (n) => waiter.resolve(n),
    });
    try {
      await intake.start();
      const drop = async (source: string, name: string, expected: number): Promise<number> => {
        const staged = path.join(staging, name);
        fs.copyFileSync(source, staged);
        waiter = deferred<number>();
        const timeout = new Promise<never>((_, reject) => {
          const limitMs = Math.max(120_000, args.rows);
          const t = setTimeout(() => reject(new Error(`intake did not record ${describeFileOutcome(db, name)} within ${limitMs / 1000} s`)), limitMs);
          void waiter.promise.then(() => clearTimeout(t));
        });
        const started = performance.now();
        fs.renameSync(staged, path.join(flow.inbox, name));
        const recorded = await Promise.race([waiter.promise, timeout]);
        const seconds = (performance.now() - started) / 1000;
        if (recorded !== expected) throw new Error(`${name}: ${recorded} requests recorded, expected ${expected}; ${describeFileOutcome(db, name)}`);
        return seconds;
      };
      await drop(args.warmup, 'warmup.csv', args.warmupRequests);
      const seconds = await drop(args.main, 'requests.csv', args.requests);
      return { seconds, rows: args.rows, requests: args.requests };
    } finally {
      await intake.stop();
      await store.stop();
    }
  });
}

async function mapAndRecord(db: Db, file: string, name: string): Promise<number> {
  const spec = loadMappingSpec(MAPPING_1C);
  const now = Date.now();
  const claim = claimFile(db, { flow: FLOW_NAME, sha256: `${name}-${now}`, originalName: name, sizeBytes: fs.statSync(file).size, now }, () => file);
  if (!claim.ok) throw new Error(`${name} was claimed before`);
  const result = await recordMappedFile(db, {
    flow: FLOW_NAME,
    fileId: claim.row.id,
    fileLabel: name,
    items: mapFile(file, spec, { now: new Date(now), rejectPastDates: true, fileLabel: name }),
    sourceSystem: SOURCE_SYSTEM,
    rejectWholeFile: false,
    clock: Date.now,
    destinationFor: () => file,
  });
  if (result.state !== 'archived') throw new Error(`${name} was rejected: ${result.report.problems[0]?.message ?? '?'}`);
  return result.recorded;
}

async function intakeMapRecord(args: IntakeArgs): Promise<TimedRun> {
  return withTempRoot(async (root) => {
    const db = openStore(storePath(root));
    try {
      await mapAndRecord(db, args.warmup, 'warmup.csv');
      const started = performance.now();
      const recorded = await mapAndRecord(db, args.main, 'requests.csv');
      const seconds = (performance.now() - started) / 1000;
      if (recorded !== args.requests) throw new Error(`map+record recorded ${recorded} requests, expected ${args.requests}`);
      return { seconds, rows: args.rows, requests: args.requests };
    } finally {
      db.close();
    }
  });
}

async function countCsvRecords(file: string): Promise<number> {
  const parser = parse({ delimiter: ';', bom: true, skip_empty_lines: true, relax_column_count: true });
  let records = 0;
  parser.on('data', () => {
    records += 1;
  });
  await pipeline(fs.createReadStream(file, { highWaterMark: 256 * 1024 }), iconv.decodeStream('win1251'), parser);
  return records - 1; // the header
}

async function intakeCsvParse(args: IntakeArgs): Promise<TimedRun> {
  await countCsvRecords(args.warmup);
  const started = performance.now();
  const rows = await countCsvRecords(args.main);
  const seconds = (performance.now() - started) / 1000;
  if (rows !== args.rows) throw new Error(`csv-parse read ${rows} rows, expected ${args.rows}`);
  return { seconds, rows, requests: args.requests };
}

export const intakeCases = {
  'intake-drop': intakeDrop,
  'intake-map-record': intakeMapRecord,
  'intake-csv-parse': intakeCsvParse,
};
