/**
 * `e2e-delivery`: delivery end to end, as the daemon runs it: a request file dropped into the inbox
 * (renamed in, as an ERP should) is taken by the real intake (the bench's short stability wait),
 * mapped and recorded, and its requests delivered by the real dispatcher, woken by intake as
 * `src/daemon/` wires it, to the sandbox in another process, while the real exporter writes an
 * acknowledgement file per accepted request, woken by the dispatcher, as the daemon does. The figure is the time from the rename
 * until the store has the last request accepted (its 201 answered and recorded). A warm-up file of
 * other requests goes first. Its ceiling is `delivery-bare` on the same number of requests: a bare
 * undici loop posting the same kind of bodies at the same concurrency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { deliverySchema } from '../src/config/delivery-schema.js';
import { platformSchema } from '../src/config/platform-schema.js';
import { createDispatcher } from '../src/delivery/dispatcher.js';
import { createExporter } from '../src/export/index.js';
import { createIntake } from '../src/intake/index.js';
import { silentLogger } from '../src/log.js';
import { createPlatformClient } from '../src/platform/client.js';
import { ackChannel } from '../src/store/exports.js';
import { countSubmissionsByState } from '../src/store/outbox.js';
import { createStore, storePath } from '../src/store/open-store.js';
import { benchFlow, MAPPING_1C, SOURCE_SYSTEM, waitFor, withTempRoot } from './bench-env.js';
import type { DeliveryArgs } from './delivery-cases.js';
import { writeRequestsCsv } from './generate-csv.js';
import { cpuMsSince } from './stats.js';

export interface EndToEndRun {
  /** From the rename into the inbox to the last request accepted. */
  seconds: number;
  delivered: number;
  /** From the rename to the file recorded (its requests real and due). */
  recordedSeconds: number;
  /** The daemon's event loop busy (0–1) while the file was taken, mapped and recorded, and after, while its requests went out. */
  loopBusy: { recording: number; delivering: number };
  /** The daemon process's CPU (user + system, all threads) from the rename to the last 201, in seconds. */
  cpuSeconds: number;
}

/** The bench's stability wait (`intake-bench.ts`): the file is taken as soon as a scan sees it settled. */
const STABILITY = { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 60_000 };

async function deliveryEndToEnd(args: DeliveryArgs): Promise<EndToEndRun> {
  return withTempRoot(async (root) => {
    const staging = path.join(root, 'staging');
    fs.mkdirSync(staging);
    const files = {
      warmup: path.join(staging, 'warmup.csv'),
      main: path.join(staging, 'requests.csv'),
    };
    writeRequestsCsv(files.warmup, { requests: args.warmupRequests, linesPerRequest: args.linesPerRequest, prefix: 'W' });
    writeRequestsCsv(files.main, { requests: args.requests, linesPerRequest: args.linesPerRequest, prefix: 'M' });
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const durable = () => durability.durable();
    const flow = benchFlow(root, STABILITY);
    fs.mkdirSync(flow.inbox, { recursive: true });
    const platform = platformSchema.parse({ baseUrl: args.url, token: args.token, sourceSystem: SOURCE_SYSTEM });
    const delivery = deliverySchema.parse({ concurrency: args.concurrency });
    const client = createPlatformClient({ baseUrl: platform.baseUrl, connections: Math.max(4, delivery.concurrency) });
    const spec = loadMappingSpec(MAPPING_1C);
    const exporter = createExporter({
      db,
      targets: [{ channel: ackChannel(flow.name), folder: flow.results, format: spec.acknowledgements, mode: 'perEvent' }],
      logger: silentLogger,
      durable,
    });
    const dispatcher = createDispatcher({ db, flows: [flow], platform, delivery, client, logger: silentLogger, onAcknowledged: () => exporter.wake() });
    let recordedAt = 0;
    let recordings = 0;
    let recordedLoop = performance.eventLoopUtilization();
    const intake = createIntake({
      db,
      flow,
      sourceSystem: SOURCE_SYSTEM,
      mapping: spec,
      logger: silentLogger,
      durable,
      onRecorded: () => {
        recordedAt = performance.now();
        recordings += 1;
        recordedLoop = performance.eventLoopUtilization();
        dispatcher.wake();
      },
    });
    const accepted = () => countSubmissionsByState(db).find((c) => c.state === 'accepted')?.count ?? 0;
    // One index lookup: is any row still to send? (Counting every row by state, 40 times a second
    // on the daemon's own event loop, was work the figure charged to the daemon.)
    const anyToSend = db.prepare("SELECT 1 FROM submissions WHERE flow = ? AND state IN ('pending', 'in_flight') LIMIT 1").pluck();
    try {
      await exporter.start();
      await dispatcher.start();
      await intake.start();
      const drop = async (file: string, expected: number): Promise<Omit<EndToEndRun, 'delivered'>> => {
        const started = performance.now();
        const loop = performance.eventLoopUtilization();
        const cpu = process.cpuUsage();
        const recordedBefore = recordings;
        fs.renameSync(file, path.join(flow.inbox, path.basename(file)));
        await intake.scanNow();
        // A poll every 25 ms, on the daemon's own event loop, which it shares: once the file is
        // recorded, until no row is left to send.
        await waitFor(`${expected} requests accepted`, () => recordings > recordedBefore && anyToSend.get(flow.name) === undefined, 120_000, 25);
        const cpuMs = cpuMsSince(cpu);
        if (accepted() < expected) throw new Error(`${accepted()} of ${expected} requests accepted: ${JSON.stringify(countSubmissionsByState(db))}`);
        return {
          seconds: (performance.now() - started) / 1000,
          recordedSeconds: (recordedAt - started) / 1000,
          loopBusy: {
            recording: performance.eventLoopUtilization(recordedLoop, loop).utilization,
            delivering: performance.eventLoopUtilization(recordedLoop).utilization,
          },
          cpuSeconds: cpuMs / 1000,
        };
      };
      await drop(files.warmup, args.warmupRequests);
      const main = await drop(files.main, args.warmupRequests + args.requests);
      return { ...main, delivered: args.requests };
    } finally {
      await intake.stop();
      await dispatcher.stop();
      await exporter.stop();
      await client.close();
      await store.stop();
    }
  });
}

export const endToEndCases = { 'e2e-delivery': deliveryEndToEnd };
