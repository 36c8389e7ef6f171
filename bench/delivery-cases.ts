/**
 * Child-side cases of the delivery bench (the sandbox runs in another child).
 *
 * - `delivery-dispatcher`: recorded requests delivered by the real dispatcher (real store with
 *   synchronous FULL, real platform client) at the configured concurrency, until `drain()`.
 * - `delivery-bare`: the ceiling: a bare undici Pool posting the same payloads with the same headers
 *   (a fresh Idempotency-Key each) from `concurrency` loops, nothing recorded.
 * Both warm up on their own requests first.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { deliverySchema } from '../src/config/delivery-schema.js';
import { platformSchema } from '../src/config/platform-schema.js';
import { createDispatcher } from '../src/delivery/dispatcher.js';
import { silentLogger } from '../src/log.js';
import { createPlatformClient } from '../src/platform/client.js';
import { createRequestPath } from '../src/platform/contract.js';
import { countSubmissionsByState, listLastErrors } from '../src/store/outbox.js';
import { createStore, storePath } from '../src/store/open-store.js';
import type { PreparedSubmission } from '../src/intake/submission-keys.js';
import { benchFlow, SOURCE_SYSTEM, waitFor, withTempRoot } from './bench-env.js';
import { preparePayloads, recordPayloads } from './payloads.js';
import { cpuMsSince } from './stats.js';

export interface DeliveryArgs {
  url: string;
  token: string;
  requests: number;
  warmupRequests: number;
  linesPerRequest: number;
  concurrency: number;
  /** The measured delivery stops here: the figure is then what was accepted by the deadline. */
  deadlineMs: number;
}

export interface DeliveryRun {
  seconds: number;
  /** The process's CPU (user + system, all threads) over the measured run, in ms: µs per request is this over `delivered`. */
  cpuMs: number;
  delivered: number;
  /** Rows not accepted when the deadline stopped the run (0 when all were delivered). */
  unfinished: number;
  /** Did `dispatcher.drain()` resolve while rows were still due (seen once, as a diagnosis)? */
  drainReturnedEarly?: boolean;
}

async function deliveryDispatcher(args: DeliveryArgs): Promise<DeliveryRun> {
  return withTempRoot(async (root) => {
    const warmup = await preparePayloads(root, { requests: args.warmupRequests, linesPerRequest: args.linesPerRequest, prefix: 'W' });
    const main = await preparePayloads(root, { requests: args.requests, linesPerRequest: args.linesPerRequest, prefix: 'M' });
    // The daemon's store, as src/daemon/ opens it: synchronous=NORMAL with group commit.
    const store = createStore(storePath(path.join(root, 'state')));
    const { db } = await store.start();
    const flow = benchFlow(root, {});
    const platform = platformSchema.parse({ baseUrl: args.url, token: args.token, sourceSystem: SOURCE_SYSTEM });
    const delivery = deliverySchema.parse({ concurrency: args.concurrency });
    // As daemon/delivery.ts builds it.
    const client = createPlatformClient({ baseUrl: platform.baseUrl, connections: Math.max(4, delivery.concurrency) });
    const dispatcher = createDispatcher({ db, flows: [flow], platform, delivery, client, logger: silentLogger });
    const accepted = () => countSubmissionsByState(db).find((c) => c.state === 'accepted')?.count ?? 0;
    try {
      await dispatcher.start();
      recordPayloads(db, warmup);
      dispatcher.wake();
      await dispatcher.drain();
      if (accepted() !== warmup.length) throw new Error(`warm-up: ${accepted()} of ${warmup.length} accepted: ${JSON.stringify(countSubmissionsByState(db))}`);
      recordPayloads(db, main);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const expected = warmup.length + main.length;
      let drainReturnedEarly = false;
      void dispatcher.drain().then(() => {
        drainReturnedEarly = accepted() < expected && performance.now() - started < args.deadlineMs;
      });
      dispatcher.wake();
      // Poll the store rather than trust drain(): the figure must be rows actually accepted. The
      // poll runs in the measured process, so it asks the index whether any row is still to send
      // (one lookup) instead of counting every row by state (a read of the whole table, 20 times a
      // second, was about a tenth of the CPU this figure charges to the dispatcher).
      const anyToSend = db.prepare("SELECT 1 FROM submissions WHERE flow = ? AND state IN ('pending', 'in_flight') LIMIT 1").pluck();
      await waitFor(
        'all rows accepted',
        () => anyToSend.get(flow.name) === undefined || performance.now() - started >= args.deadlineMs,
        args.deadlineMs + 5_000,
        50,
      );
      const seconds = (performance.now() - started) / 1000;
      const cpuMs = cpuMsSince(cpu);
      const delivered = accepted() - warmup.length;
      const states = countSubmissionsByState(db);
      const stuck = states.filter((c) => c.state !== 'accepted' && c.state !== 'pending' && c.state !== 'in_flight');
      if (stuck.length > 0) throw new Error(`rows failed: ${JSON.stringify(states)}; last errors ${JSON.stringify(listLastErrors(db, 3))}`);
      return { seconds, cpuMs, delivered, unfinished: main.length - delivered, drainReturnedEarly };
    } finally {
      await dispatcher.stop();
      await client.close();
      await store.stop();
    }
  });
}

async function postAll(pool: Pool, requestPath: string, payloads: readonly PreparedSubmission[], concurrency: number): Promise<void> {
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < payloads.length) {
      const s = payloads[next++]!;
      const response = await pool.request({
        method: 'POST',
        path: requestPath,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
          'x-request-id': randomUUID(),
          'idempotency-key': `${SOURCE_SYSTEM}:${randomUUID()}`,
        },
        body: s.payload,
      });
      const text = await response.body.text();
      if (response.statusCode !== 201) throw new Error(`bare POST of ${s.externalId}: ${response.statusCode} ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

async function deliveryBare(args: DeliveryArgs): Promise<DeliveryRun> {
  return withTempRoot(async (root) => {
    const warmup = await preparePayloads(root, { requests: args.warmupRequests, linesPerRequest: args.linesPerRequest, prefix: 'W' });
    const main = await preparePayloads(root, { requests: args.requests, linesPerRequest: args.linesPerRequest, prefix: 'M' });
    const base = new URL(args.url);
    const pool = new Pool(base.origin, { connections: Math.max(4, args.concurrency), keepAliveTimeout: 30_000 });
    const requestPath = base.pathname.replace(/\/+$/, '') + createRequestPath(args.token);
    try {
      await postAll(pool, requestPath, warmup, args.concurrency);
      const started = performance.now();
      const cpu = process.cpuUsage();
      await postAll(pool, requestPath, main, args.concurrency);
      return { seconds: (performance.now() - started) / 1000, cpuMs: cpuMsSince(cpu), delivered: main.length, unfinished: 0 };
    } finally {
      await pool.close();
    }
  });
}

export const deliveryCases = {
  'delivery-dispatcher': deliveryDispatcher,
  'delivery-bare': deliveryBare,
};
