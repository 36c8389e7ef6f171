/** Fixtures of the delivery tests: configs, a dispatcher that always stops, outbox counts. */
import path from 'node:path';
import { deliverySchema, type DeliveryConfig } from '../../src/config/delivery-schema.js';
import { flowSchema, type FlowConfig } from '../../src/config/flow-schema.js';
import { platformSchema, type PlatformConfig } from '../../src/config/platform-schema.js';
import { createDispatcher, type Dispatcher, type DispatcherDeps } from '../../src/delivery/dispatcher.js';
import { silentLogger, type Logger } from '../../src/log.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import type { Db } from '../../src/store/open-store.js';

export function flowConfig(dir: string, name = 'requests', kind: 'requests' | 'confirmations' = 'requests', token?: string): FlowConfig {
  return flowSchema.parse({
    name,
    kind,
    inbox: path.join(dir, name, 'inbox'),
    mapping: path.join(dir, `${name}.yaml`),
    results: path.join(dir, name, 'results'),
    ...(token ? { token } : {}),
  });
}

export function platformConfig(baseUrl: string, token: string, timeouts: Partial<PlatformConfig> = {}): PlatformConfig {
  return platformSchema.parse({ baseUrl, token, sourceSystem: 'erp-test', ...timeouts });
}

/** Small, fast delivery settings: backoff 5..50 ms, quick polls, a generous breaker. */
export function fastDelivery(overrides: Record<string, unknown> = {}): DeliveryConfig {
  const { backoff, circuit, ...rest } = overrides as { backoff?: object; circuit?: object };
  return deliverySchema.parse({
    concurrency: 4,
    pollIntervalMs: 20,
    leaseMs: 30_000,
    ...rest,
    backoff: { baseMs: 5, capMs: 50, ...backoff },
    circuit: { failureThreshold: 1000, probeIntervalMs: 20, ...circuit },
  });
}

export interface DispatcherHarness {
  dispatcher: Dispatcher;
  client: PlatformClient;
}

/** A started dispatcher with its own client; stopped (with `stopTimeoutMs`) and closed afterwards. */
export async function withDispatcher<T>(
  deps: Omit<DispatcherDeps, 'client' | 'logger'> & { logger?: Logger; stopTimeoutMs?: number },
  fn: (h: DispatcherHarness) => Promise<T> | T,
): Promise<T> {
  const client = createPlatformClient(deps.platform);
  const dispatcher = createDispatcher({ stopGraceMs: deps.stopTimeoutMs ?? 0, ...deps, client, logger: deps.logger ?? silentLogger });
  await dispatcher.start();
  try {
    return await fn({ dispatcher, client });
  } finally {
    await dispatcher.stop();
    await client.close();
  }
}

export function rowsByState(db: Db, flow?: string): Record<string, number> {
  const rows = db.prepare(`SELECT state, COUNT(*) AS n FROM submissions ${flow ? 'WHERE flow = ?' : ''} GROUP BY state`).all(...(flow ? [flow] : [])) as {
    state: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

export function ackRecords(db: Db, flow: string): Record<string, unknown>[] {
  return (db.prepare(`SELECT record FROM exports WHERE channel = ? ORDER BY id`).all(`ack:${flow}`) as { record: string }[]).map(
    (r) => JSON.parse(r.record) as Record<string, unknown>,
  );
}
