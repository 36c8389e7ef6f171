/**
 * Child-side case of the latency bench: the daemon's intake and dispatcher wired as `src/daemon/`
 * wires them (recorded rows wake the dispatcher), single-request files dropped one by one (written
 * aside, then renamed into the inbox), each waited for until the sandbox accepted it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadMappingSpec } from '../src/config/load-mapping.js';
import { deliverySchema } from '../src/config/delivery-schema.js';
import { platformSchema } from '../src/config/platform-schema.js';
import { createDispatcher } from '../src/delivery/dispatcher.js';
import { createIntake } from '../src/intake/index.js';
import { silentLogger } from '../src/log.js';
import { createPlatformClient } from '../src/platform/client.js';
import { createStore, storePath } from '../src/store/open-store.js';
import { findSubmissionByDedupeKey } from '../src/store/submissions.js';
import { benchFlow, FLOW_NAME, MAPPING_1C, SOURCE_SYSTEM, waitFor, withTempRoot } from './bench-env.js';
import { externalIdOf, writeRequestsCsv } from './generate-csv.js';

export interface LatencyArgs {
  url: string;
  token: string;
  files: number;
  usePolling: boolean;
  pollIntervalMs: number;
  stableForMs: number;
  minAgeMs: number;
  /** Pause after a file was accepted before the next drop. */
  gapMs: number;
}

export interface Drop {
  externalId: string;
  /** Epoch ms just after the rename into the inbox. */
  droppedAt: number;
}

async function dropToPost(args: LatencyArgs): Promise<{ drops: Drop[] }> {
  return withTempRoot(async (root) => {
    const flow = benchFlow(root, {
      usePolling: args.usePolling,
      pollIntervalMs: args.pollIntervalMs,
      stableForMs: args.stableForMs,
      minAgeMs: args.minAgeMs,
      rescanIntervalMs: 60_000,
    });
    const staging = path.join(root, 'staging');
    fs.mkdirSync(staging);
    fs.mkdirSync(flow.inbox);
    // The daemon's store, as src/daemon/ opens it: synchronous=NORMAL with group commit.
    const store = createStore(storePath(path.join(root, 'state')));
    const { db, durability } = await store.start();
    const spec = loadMappingSpec(MAPPING_1C);
    const platform = platformSchema.parse({ baseUrl: args.url, token: args.token, sourceSystem: SOURCE_SYSTEM });
    const delivery = deliverySchema.parse({});
    const client = createPlatformClient({ baseUrl: platform.baseUrl, connections: Math.max(4, delivery.concurrency) });
    const dispatcher = createDispatcher({ db, flows: [flow], platform, delivery, client, logger: silentLogger });
    const intake = createIntake({
      db,
      flow,
      sourceSystem: SOURCE_SYSTEM,
      mapping: spec,
      logger: silentLogger,
      durable: () => durability.durable(),
      onRecorded: () => dispatcher.wake(),
    });
    const drops: Drop[] = [];
    try {
      await dispatcher.start();
      await intake.start();
      // File 0 is the warm-up; it is not reported.
      for (let i = 0; i <= args.files; i++) {
        const prefix = `L${args.usePolling ? 'P' : 'W'}${i}-`;
        const name = `request-${i}.csv`;
        const staged = path.join(staging, name);
        writeRequestsCsv(staged, { requests: 1, linesPerRequest: 3, prefix });
        const externalId = externalIdOf(prefix, 1);
        fs.renameSync(staged, path.join(flow.inbox, name));
        const droppedAt = Date.now();
        await waitFor(`${externalId} to be accepted`, () => findSubmissionByDedupeKey(db, FLOW_NAME, externalId)?.state === 'accepted', 30_000);
        if (i > 0) drops.push({ externalId, droppedAt });
        await new Promise((resolve) => setTimeout(resolve, args.gapMs));
      }
      return { drops };
    } finally {
      await intake.stop();
      await dispatcher.stop();
      await client.close();
      await store.stop();
    }
  });
}

export const latencyCases = { 'latency-drop-to-post': dropToPost };
