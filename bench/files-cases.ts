/**
 * Child-side cases of the many-files bench: a 1C job that writes one file per request leaves
 * thousands of small files in the inbox at once (after a weekend outage, say).
 *
 * - `files-intake`: the daemon's intake and console on one store, as `src/daemon/` wires them:
 *   `createStore` (synchronous=NORMAL, the group commit), the real `createIntake` with its metrics,
 *   and the admin listener with the console. It takes a warm-up batch first, says ready (the runner
 *   then times console pages while it works), renames every file into the inbox at once and times
 *   until the last one is archived.
 * - `files-plain`: the ceiling, the same durable work per file written plainly: read, SHA-256, one
 *   SQLite commit (WAL, synchronous=FULL), rename into the archive, fsync of the archive folder.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { createIntake } from '../src/intake/index.js';
import { silentLogger } from '../src/log.js';
import { createMetrics } from '../src/metrics/metrics.js';
import { createStore, storePath, type Db } from '../src/store/open-store.js';
import { benchFlow, MAPPING_1C, SOURCE_SYSTEM, waitFor, withTempRoot } from './bench-env.js';
import type { CaseChannel } from './case-channel.js';
import { benchConsoleServer } from './console-cases.js';
import { writeRequestsCsv } from './generate-csv.js';

export interface FilesArgs {
  /** Files dropped at once, one request each. */
  files: number;
  /** Files taken first, untimed (JIT, first opens). */
  warmupFiles: number;
  linesPerRequest: number;
}

export interface FilesIntakeInfo {
  url: string;
}

export interface FilesRun {
  /** From the first rename into the inbox to the last file archived. */
  seconds: number;
  files: number;
}

/** Write `count` one-request files named `<prefix>-<n>.csv` into `dir`; returns their paths. */
function writeOneRequestFiles(dir: string, prefix: string, count: number, linesPerRequest: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const file = path.join(dir, `${prefix}-${String(i).padStart(6, '0')}.csv`);
    writeRequestsCsv(file, { requests: 1, linesPerRequest, prefix: `${prefix}${i}-` });
    files.push(file);
  }
  return files;
}

function archivedCount(db: Db): number {
  return (db.prepare("SELECT count(*) AS n FROM files WHERE state = 'archived'").get() as { n: number }).n;
}

async function filesIntake(args: FilesArgs, channel: CaseChannel): Promise<FilesRun> {
  return withTempRoot(async (root) => {
    const flow = benchFlow(root, { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 60_000 });
    fs.mkdirSync(flow.inbox);
    const warmup = writeOneRequestFiles(path.join(root, 'staging-warmup'), 'W', args.warmupFiles, args.linesPerRequest);
    const main = writeOneRequestFiles(path.join(root, 'staging'), 'M', args.files, args.linesPerRequest);
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const metrics = createMetrics({ db, defaultMetrics: false });
    const intake = createIntake({
      db,
      flow,
      sourceSystem: SOURCE_SYSTEM,
      mapping: loadMappingSpec(MAPPING_1C),
      logger: silentLogger,
      durable: () => durability.durable(),
      metrics,
    });
    const server = benchConsoleServer(db, [flow], metrics, []);
    const limitMs = Math.max(120_000, args.files * 50);
    try {
      await intake.start();
      const { url } = await server.start();
      for (const file of warmup) fs.renameSync(file, path.join(flow.inbox, path.basename(file)));
      await waitFor('the warm-up files archived', () => archivedCount(db) === warmup.length, limitMs, 10);
      channel.ready({ url } satisfies FilesIntakeInfo);
      const started = performance.now();
      for (const file of main) fs.renameSync(file, path.join(flow.inbox, path.basename(file)));
      const expected = warmup.length + main.length;
      await waitFor(`${main.length} files archived`, () => archivedCount(db) === expected, limitMs, 10);
      const seconds = (performance.now() - started) / 1000;
      await channel.stopRequested();
      return { seconds, files: main.length };
    } finally {
      await server.stop();
      await intake.stop();
      await store.stop();
    }
  });
}

/** The plain durable loop: what the intake must do per file, and nothing else. */
async function filesPlain(args: FilesArgs): Promise<FilesRun> {
  return withTempRoot(async (root) => {
    const warmup = writeOneRequestFiles(path.join(root, 'staging-warmup'), 'W', args.warmupFiles, args.linesPerRequest);
    const main = writeOneRequestFiles(path.join(root, 'staging'), 'M', args.files, args.linesPerRequest);
    const archive = path.join(root, 'archive');
    fs.mkdirSync(archive);
    const db = new Database(path.join(root, 'plain.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE files (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, name TEXT NOT NULL, size INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO files (sha256, name, size) VALUES (?, ?, ?)');
    const take = (file: string): void => {
      const bytes = fs.readFileSync(file);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      insert.run(sha256, path.basename(file), bytes.length);
      fs.renameSync(file, path.join(archive, path.basename(file)));
      const folder = fs.openSync(archive, 'r');
      try {
        fs.fsyncSync(folder);
      } finally {
        fs.closeSync(folder);
      }
    };
    try {
      for (const file of warmup) take(file);
      const started = performance.now();
      for (const file of main) take(file);
      return { seconds: (performance.now() - started) / 1000, files: main.length };
    } finally {
      db.close();
    }
  });
}

export const filesCases = {
  'files-intake': filesIntake,
  'files-plain': filesPlain,
};
