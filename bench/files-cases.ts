/**
 * Child-side cases of the many-files bench: a 1C job that writes one file per request leaves
 * thousands of small files in the inbox at once (after a weekend outage, say).
 *
 * - `files-intake`: the daemon's intake and console on one store, as `src/daemon/` wires them:
 *   `createStore` (synchronous=NORMAL, the group commit), the real `createIntake` with its metrics,
 *   and the admin listener with the console. It says ready (the runner then times console pages
 *   while it works) and takes two storms, each renamed into the inbox at once from a thread of its
 *   own (`dropFiles`) and timed until the last file is archived: the first since the daemon
 *   started (cold: V8 compiles the hot paths while it runs), then the held one, as a daemon that
 *   has run a while meets it. With `delivery` it runs end to end, as a site does: the real
 *   dispatcher, woken by intake as `src/daemon/` wires it, sends the requests to the sandbox (in
 *   another process) while the files are still being taken, and the real exporter writes an
 *   acknowledgement file per acceptance; it then also times until the last request is accepted.
 * - `files-plain`: the ceiling, the same durable work per file written plainly: read, SHA-256, one
 *   SQLite commit (WAL, synchronous=FULL), rename into the archive, fsync of the archive folder.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { deliverySchema } from '../src/config/delivery-schema.js';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { platformSchema } from '../src/config/platform-schema.js';
import { createDispatcher } from '../src/delivery/dispatcher.js';
import { createExporter } from '../src/export/index.js';
import { createIntake } from '../src/intake/index.js';
import { silentLogger } from '../src/log.js';
import { createMapThread } from '../src/mapping/map-thread.js';
import { createMetrics } from '../src/metrics/metrics.js';
import { createPlatformClient } from '../src/platform/client.js';
import { ackChannel } from '../src/store/exports.js';
import { createStore, storePath, type Db } from '../src/store/open-store.js';
import { benchFlow, MAPPING_1C, SOURCE_SYSTEM, waitFor, withTempRoot } from './bench-env.js';
import type { CaseChannel } from './case-channel.js';
import { benchConsoleServer } from './console-cases.js';
import { writeRequestsCsv } from './generate-csv.js';

export interface FilesArgs {
  /** Files dropped at once, one request each: the held storm. */
  files: number;
  /**
   * The storm before it, dropped and watched the same way: the daemon's first since it started. A
   * small warm-up left V8 compiling the intake's hot paths during the timed storm, on helper threads
   * that share the machine's cores (`docs/performance.md`, bench 8); a daemon that has run a day
   * has them compiled.
   */
  firstStormFiles: number;
  linesPerRequest: number;
  /** End to end: deliver the requests to this sandbox while the files are taken. Default: intake alone. */
  delivery?: { url: string; token: string; concurrency: number };
}

export interface FilesIntakeInfo {
  url: string;
}

export interface FilesRun {
  /** From the first rename into the inbox to the last file archived. */
  seconds: number;
  files: number;
  /** End to end: from the first rename to the last request accepted by the sandbox. */
  deliveredSeconds?: number;
}

export interface FilesIntakeRun extends FilesRun {
  /** The first storm's `seconds` (cold). */
  firstStormSeconds: number;
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

/**
 * `allArchived(n)`: the first `n` files claimed are archived. The bench's own poll runs on the
 * intake's event loop every few ms, so it reads two index lookups (the last claim's id, any file
 * still processing) instead of counting the archived rows each time, and counts them once at the end.
 */
function archiveWatch(db: Db) {
  const lastClaimed = db.prepare('SELECT max(id) FROM files').pluck();
  const processing = db.prepare("SELECT 1 FROM files WHERE state = 'processing' LIMIT 1").pluck();
  const archived = db.prepare("SELECT count(*) FROM files WHERE state = 'archived'").pluck();
  return (n: number): boolean => {
    if (((lastClaimed.get() as number | null) ?? 0) < n || processing.get() !== undefined) return false;
    const count = archived.get() as number;
    if (count !== n) throw new Error(`${n} files taken, ${count} of them archived`);
    return true;
  };
}

/** The drop's thread: renames the files it is given into the inbox, once told to go. */
const DROP_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
parentPort.once('message', () => {
  for (const file of workerData.files) fs.renameSync(file, path.join(workerData.inbox, path.basename(file)));
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/**
 * Rename `files` into `inbox` from a thread of its own, as 1C's job is a process of its own: 5,000
 * renames on the intake's event loop would hold it (and the console's first page) before the intake
 * could begin. Resolves once every file is in, with the time the thread was told to go.
 */
async function dropFiles(files: readonly string[], inbox: string): Promise<number> {
  const worker = new Worker(DROP_THREAD, { eval: true, workerData: { files, inbox } });
  const ended = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the drop thread exited with code ${code}`))));
  });
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), ended]);
  const started = performance.now();
  worker.postMessage('go');
  await ended;
  return started;
}

async function filesIntake(args: FilesArgs, channel: CaseChannel): Promise<FilesIntakeRun> {
  return withTempRoot(async (root) => {
    const flow = benchFlow(root, { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 60_000 });
    fs.mkdirSync(flow.inbox);
    const first = writeOneRequestFiles(path.join(root, 'staging-first'), 'F', args.firstStormFiles, args.linesPerRequest);
    const main = writeOneRequestFiles(path.join(root, 'staging'), 'M', args.files, args.linesPerRequest);
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const durable = () => durability.durable();
    const metrics = createMetrics({ db, defaultMetrics: false });
    const mapping = loadMappingSpec(MAPPING_1C);
    const delivery = args.delivery ? deliveryParts(args.delivery, db, flow, mapping.acknowledgements, durable) : null;
    const mapThread = createMapThread();
    const intake = createIntake({
      db,
      flow,
      sourceSystem: SOURCE_SYSTEM,
      mapping,
      logger: silentLogger,
      durable,
      metrics,
      // As src/daemon/intakes.ts wires it: small files mapped on the mapping thread, and a recording wakes delivery.
      mapThread,
      ...(delivery ? { onRecorded: () => delivery.dispatcher.wake() } : {}),
    });
    const server = benchConsoleServer(db, [flow], metrics, []);
    const limitMs = Math.max(120_000, args.files * 50);
    const toSend = db.prepare("SELECT 1 FROM submissions WHERE flow = ? AND state IN ('pending', 'in_flight') LIMIT 1").pluck();
    const accepted = db.prepare("SELECT count(*) FROM submissions WHERE flow = ? AND state = 'accepted'").pluck();
    const expected = first.length + main.length;
    const allArchived = archiveWatch(db);
    const allDelivered = () => toSend.get(flow.name) === undefined && accepted.get(flow.name) === expected;
    /** Drop `files` and wait until the first `archivedTotal` claimed are archived; when the drop began and how long it took. */
    const storm = async (files: readonly string[], archivedTotal: number) => {
      const started = await dropFiles(files, flow.inbox);
      await waitFor(`${archivedTotal} files archived`, () => allArchived(archivedTotal), limitMs, 10);
      return { started, seconds: (performance.now() - started) / 1000 };
    };
    try {
      if (delivery) {
        await delivery.exporter.start();
        await delivery.dispatcher.start();
      }
      await intake.start();
      const { url } = await server.start();
      channel.ready({ url } satisfies FilesIntakeInfo);
      const { seconds: firstStormSeconds } = await storm(first, first.length);
      // The held storm meets a quiet daemon, as the first did: the first storm's requests all accepted.
      if (delivery) await waitFor('the first storm accepted', () => toSend.get(flow.name) === undefined, limitMs, 10);
      const { started, seconds } = await storm(main, expected);
      channel.done();
      let deliveredSeconds: number | undefined;
      if (delivery) {
        await waitFor(`${expected} requests accepted`, allDelivered, limitMs, 10);
        deliveredSeconds = (performance.now() - started) / 1000;
      }
      await channel.stopRequested();
      return { seconds, files: main.length, firstStormSeconds, ...(deliveredSeconds === undefined ? {} : { deliveredSeconds }) };
    } finally {
      await server.stop();
      await intake.stop();
      await mapThread.close();
      await delivery?.dispatcher.stop();
      await delivery?.exporter.stop();
      await delivery?.client.close();
      await store.stop();
    }
  });
}

/** Delivery as the daemon wires it for one flow: the client, the dispatcher and the acknowledgements' exporter it wakes. */
function deliveryParts(
  target: NonNullable<FilesArgs['delivery']>,
  db: Db,
  flow: ReturnType<typeof benchFlow>,
  acknowledgements: ReturnType<typeof loadMappingSpec>['acknowledgements'],
  durable: () => Promise<void>,
) {
  const platform = platformSchema.parse({ baseUrl: target.url, token: target.token, sourceSystem: SOURCE_SYSTEM });
  const delivery = deliverySchema.parse({ concurrency: target.concurrency });
  const client = createPlatformClient({ baseUrl: platform.baseUrl, connections: Math.max(4, delivery.concurrency) });
  const exporter = createExporter({
    db,
    targets: [{ channel: ackChannel(flow.name), folder: flow.results, format: acknowledgements, mode: 'perEvent' }],
    logger: silentLogger,
    durable,
  });
  const dispatcher = createDispatcher({ db, flows: [flow], platform, delivery, client, logger: silentLogger, onAcknowledged: () => exporter.wake() });
  return { client, exporter, dispatcher };
}

/** The plain durable loop: what the intake must do per file, and nothing else. */
async function filesPlain(args: FilesArgs): Promise<FilesRun> {
  return withTempRoot(async (root) => {
    const first = writeOneRequestFiles(path.join(root, 'staging-first'), 'F', args.firstStormFiles, args.linesPerRequest);
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
      for (const file of first) take(file);
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
