/** Fixtures of the delivery tests: configs, outbox rows, a dispatcher that always stops, polling. */
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { deliverySchema, type DeliveryConfig } from '../../src/config/delivery-schema.js';
import { flowSchema, type FlowConfig } from '../../src/config/flow-schema.js';
import { platformSchema, type PlatformConfig } from '../../src/config/platform-schema.js';
import { createDispatcher, type Dispatcher, type DispatcherDeps } from '../../src/delivery/dispatcher.js';
import { silentLogger, type Logger } from '../../src/log.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import type { ConfirmOrder, CreateRequest } from '../../src/platform/contract.js';
import { openStore, storePath, type Db } from '../../src/store/open-store.js';
import { insertSubmission } from '../../src/store/submissions.js';

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

export function validRequest(externalId: string, overrides: Partial<CreateRequest> = {}): CreateRequest {
  return {
    externalId,
    customer: { inn: '7707083893', name: 'ООО Ромашка' },
    contact: { name: 'Иван Петров', phone: '+7 495 000-00-00' },
    delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2030-03-01' },
    items: [
      { lineId: '1', name: 'Болт М8', quantity: 10, unit: 'шт' },
      { lineId: '2', name: 'Гайка М8', quantity: 10, unit: 'шт' },
    ],
    ...overrides,
  };
}

export function validConfirmation(lineIds: string[] = ['1']): ConfirmOrder {
  return {
    supplierOrderId: 'SUP-1',
    readyToShipDate: '2030-02-01',
    items: lineIds.map((lineId) => ({ lineId, confirmedQuantity: 10, price: 12.5, currency: 'RUB' })),
  };
}

/** Record a request in the outbox the way intake does; returns the row id. */
export function addRequestRow(db: Db, flow: string, payload: unknown, externalId = (payload as { externalId: string }).externalId, now = Date.now()): number {
  const text = JSON.stringify(payload);
  return insertSubmission(db, {
    flow,
    kind: 'request',
    dedupeKey: externalId,
    externalId,
    payload: text,
    payloadHash: createHash('sha256').update(text).digest('hex'),
    idempotencyKey: `erp-test:${externalId}:${randomUUID()}`,
    now,
  });
}

export function addConfirmationRow(db: Db, flow: string, orderId: string, payload: ConfirmOrder, now = Date.now()): number {
  const text = JSON.stringify(payload);
  const hash = createHash('sha256').update(text).digest('hex');
  return insertSubmission(db, {
    flow,
    kind: 'confirmation',
    dedupeKey: `${orderId}:${hash}`,
    externalId: orderId,
    orderId,
    payload: text,
    payloadHash: hash,
    idempotencyKey: `erp-test:${orderId}:${hash.slice(0, 16)}`,
    now,
  });
}

export async function withStore<T>(dir: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openStore(storePath(dir));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
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

/** Poll `condition` until it holds; fail after a generous `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
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
