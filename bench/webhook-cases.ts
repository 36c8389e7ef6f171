/**
 * Child-side cases of the webhook bench (and of the export bench's burst).
 *
 * - `webhook-listener`: the daemon's webhook side, wired as `src/daemon/` wires it: the store opened
 *   by `createStore` (synchronous=NORMAL, group commit; the listener's by `durableNow()`), the
 *   real listener and, unless `exporter: false`, the real exporter writing the default `perEvent`
 *   status files (`config/mappings/status-export.yaml`) into an import folder, woken by
 *   `onStored`. It logs at `info` (to /dev/null), as the daemon does. Runs until stopped.
 * - `webhook-bare`: the ceiling: node:http that reads the body, checks the HMAC, answers 200.
 * - `webhook-load`: the load generator: undici, `concurrency` loops, pre-signed distinct events;
 *   reports events/s and the latency of each POST (send → full answer).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { Pool } from 'undici';
import { webhookSchema } from '../src/config/webhook-schema.js';
import { createExporter } from '../src/export/index.js';
import { loadExportFormat } from '../src/export/load-export-format.js';
import { createLogger } from '../src/log.js';
import type { Metrics } from '../src/metrics/metrics.js';
import { countEvents } from '../src/store/events.js';
import { STATUS_CHANNEL } from '../src/store/exports.js';
import { createStore, storePath } from '../src/store/open-store.js';
import { createWebhookListener } from '../src/webhook/index.js';
import type { CaseChannel } from './case-channel.js';
import { deferred, REPO_ROOT, withTempRoot } from './bench-env.js';
import { cpuMsSince, percentile } from './stats.js';
import { machineTicks, signedEvents, WEBHOOK_PATH, type SignedEvent } from './webhook-common.js';
import { webhookBare, webhookBareDurable, webhookBareSameWrites } from './webhook-baselines.js';
import { webhookOpenLoad } from './webhook-open-load.js';

/** The daemon's default status export mapping. */
export const STATUS_MAPPING = path.join(REPO_ROOT, 'config/mappings/status-export.yaml');

/** Time to wait, once stopped, for the export files a case expects (the burst). */
const FILES_TIMEOUT_MS = 180_000;

export interface ListenerArgs {
  secret: string;
  /** Run the exporter as the daemon does (default true). */
  exporter?: boolean;
  /** Once asked to stop, wait until this many export files exist (the burst case). Default: stop at once. */
  expectedFiles?: number;
  /** Log level (default `info`, the daemon's default); to measure what logging costs. */
  logLevel?: string;
}

export interface ListenerInfo {
  url: string;
  /** The import folder the status files go to. */
  folder: string;
}

export interface ListenerRun {
  stored: number;
  /** CPU time of the whole server process (every thread, user and system) while the load ran. */
  cpuMs: number;
  /** Export files written when the case stopped. */
  files: number;
  /** Epoch ms when the last of them was in the import folder (renamed and the folder fsynced), or null. */
  lastFileAt: number | null;
  /** Epoch ms of each file, in the order written (the export bench counts those after the storm). */
  fileTimes: number[];
}

/** A logger like the daemon's (`info`, pino's asynchronous destination), writing to /dev/null. */
export function daemonLikeLogger(level = 'info') {
  return createLogger({ level, destination: pino.destination({ dest: '/dev/null', sync: false }) });
}

/** A stand-in for the daemon's export counter that also notes when each file was written. */
export function fileCounter(): {
  metrics: Pick<Metrics, 'exportFiles'>;
  files: () => number;
  lastFileAt: () => number | null;
  fileTimes: () => number[];
  reached: (n: number) => Promise<void>;
} {
  let files = 0;
  let lastFileAt: number | null = null;
  const times: number[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const metrics = {
    exportFiles: {
      inc: () => {
        files += 1;
        lastFileAt = Date.now();
        times.push(lastFileAt);
        for (const w of waiting.filter((w) => files >= w.n)) w.resolve();
      },
    },
  } as unknown as Pick<Metrics, 'exportFiles'>;
  return {
    metrics,
    files: () => files,
    lastFileAt: () => lastFileAt,
    fileTimes: () => times,
    reached: (n) => {
      if (files >= n) return Promise.resolve();
      const done = deferred<void>();
      waiting.push({ n, resolve: () => done.resolve() });
      return done.promise;
    },
  };
}

async function webhookListener(args: ListenerArgs, channel: CaseChannel): Promise<ListenerRun> {
  return withTempRoot(async (root) => {
    const logger = daemonLikeLogger(args.logLevel);
    // The daemon's store, as src/daemon/ opens it: synchronous=NORMAL with group commit.
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const durable = () => durability.durable();
    const durableNow = () => durability.durableNow();
    const folder = path.join(root, 'import');
    fs.mkdirSync(folder, { recursive: true });
    const counter = fileCounter();
    let cpuMs = 0;
    const exporter =
      args.exporter === false
        ? null
        : createExporter({
            db,
            targets: [{ channel: STATUS_CHANNEL, folder, format: loadExportFormat(STATUS_MAPPING), mode: 'perEvent' }],
            logger,
            metrics: counter.metrics,
            durable,
          });
    const config = webhookSchema.parse({ port: 0, path: WEBHOOK_PATH, secrets: [args.secret] });
    const listener = createWebhookListener({ db, config, logger, durable: durableNow, onStored: () => exporter?.wake() });
    try {
      const { url } = await listener.start();
      await exporter?.start();
      channel.ready({ url, folder } satisfies ListenerInfo);
      const cpu = process.cpuUsage();
      await channel.stopRequested();
      cpuMs = cpuMsSince(cpu);
      await listener.stop();
      if (exporter && args.expectedFiles !== undefined) {
        // No flush: the figure is how long the exporter, woken as in the daemon, takes by itself.
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`only ${counter.files()} of ${args.expectedFiles} export files after ${FILES_TIMEOUT_MS} ms`)),
            FILES_TIMEOUT_MS,
          );
        });
        await Promise.race([counter.reached(args.expectedFiles), timeout]).finally(() => clearTimeout(timer));
      }
    } finally {
      await listener.stop();
      await exporter?.stop();
    }
    const stored = countEvents(db);
    await store.stop();
    return { stored, files: counter.files(), lastFileAt: counter.lastFileAt(), fileTimes: counter.fileTimes(), cpuMs };
  });
}

export interface LoadArgs {
  url: string;
  secret: string;
  events: number;
  warmupEvents: number;
  concurrency: number;
  /**
   * Before the measured events, wait until this folder holds this many files (the burst waits for
   * the warm-up's export files, so that it is measured alone). Default: no wait.
   */
  afterWarmup?: { folder: string; files: number };
}

export interface LoadRun {
  seconds: number;
  events: number;
  p50Ms: number;
  p99Ms: number;
  /** Epoch ms of the first measured send and of the last answer. */
  startedAt: number;
  endedAt: number;
  /** CPU time of the load generator's process (all threads) while the measured events were sent, in ms. */
  cpuMs: number;
  /** How busy the whole machine was meanwhile (0..1, every core; from /proc/stat), or null off Linux. */
  machineBusy: number | null;
}

/** Files (not dot files: temp files are hidden) in `folder`. */
function countFiles(folder: string): number {
  return fs.readdirSync(folder).filter((name) => !name.startsWith('.')).length;
}

async function sendAll(pool: Pool, pathname: string, events: readonly SignedEvent[], concurrency: number, latencies: number[] | null): Promise<void> {
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < events.length) {
      const event = events[next++]!;
      const started = performance.now();
      const response = await pool.request({
        method: 'POST',
        path: pathname,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': String(next), 'x-service-signature': event.signature },
        body: event.body,
      });
      const text = await response.body.text();
      latencies?.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}: ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

async function webhookLoad(args: LoadArgs): Promise<LoadRun> {
  const url = new URL(args.url);
  const warmup = signedEvents(args.secret, 1, args.warmupEvents);
  const events = signedEvents(args.secret, 1 + args.warmupEvents, args.events);
  const pool = new Pool(url.origin, { connections: args.concurrency, pipelining: 1 });
  try {
    await sendAll(pool, url.pathname, warmup, args.concurrency, null);
    const settle = args.afterWarmup;
    if (settle) {
      const deadline = Date.now() + 120_000;
      while (countFiles(settle.folder) < settle.files) {
        if (Date.now() > deadline) throw new Error(`the warm-up's ${settle.files} export files did not appear in ${settle.folder}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    const latencies: number[] = [];
    const startedAt = Date.now();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const ticks = machineTicks();
    await sendAll(pool, url.pathname, events, args.concurrency, latencies);
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = cpuMsSince(cpu);
    const after = machineTicks();
    const machineBusy = ticks && after && after.total > ticks.total ? (after.busy - ticks.busy) / (after.total - ticks.total) : null;
    return {
      seconds,
      events: events.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      startedAt,
      endedAt: Date.now(),
      cpuMs,
      machineBusy,
    };
  } finally {
    await pool.close();
  }
}

export const webhookCases = {
  'webhook-listener': webhookListener,
  'webhook-bare': webhookBare,
  'webhook-bare-durable': webhookBareDurable,
  'webhook-bare-same-writes': webhookBareSameWrites,
  'webhook-load': webhookLoad,
  'webhook-open-load': webhookOpenLoad,
};
