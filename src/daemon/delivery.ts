/** Delivery as the daemon runs it: one platform client for every flow, and the dispatcher sending through it. */
import type { Config } from '../config/schema.js';
import { createDispatcher, type Dispatcher } from '../delivery/dispatcher.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { createPlatformClient } from '../platform/client.js';
import type { Component } from '../shared/lifecycle.js';
import type { Clock } from '../shared/types.js';
import type { Db } from '../store/open-store.js';

export interface DeliveryDeps {
  config: Config;
  /** The platform's address: the config's, or the demo sandbox's. */
  baseUrl: string;
  db: Db;
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  /** A final outcome enqueued an acknowledgement (wakes the exporter). */
  onAcknowledged: () => void;
}

/** The client (a component that only closes its sockets) and the dispatcher; start them in that order. */
export function createDelivery(deps: DeliveryDeps): { client: Component; dispatcher: Dispatcher } {
  const { config } = deps;
  const client = createPlatformClient({
    baseUrl: deps.baseUrl,
    connectTimeoutMs: config.platform.connectTimeoutMs,
    headersTimeoutMs: config.platform.headersTimeoutMs,
    bodyTimeoutMs: config.platform.bodyTimeoutMs,
    attemptTimeoutMs: config.platform.attemptTimeoutMs,
    maxResponseBytes: config.platform.maxResponseBytes,
    connections: Math.max(4, config.delivery.concurrency * config.flows.length),
  });
  const dispatcher = createDispatcher({
    db: deps.db,
    flows: config.flows,
    platform: config.platform,
    delivery: config.delivery,
    client,
    logger: deps.logger,
    clock: deps.clock,
    metrics: deps.metrics,
    // In-flight submissions get most of the shutdown bound; whatever is left is aborted and stays due.
    stopGraceMs: Math.max(0, config.shutdownTimeoutMs - 2_000),
    onAcknowledged: deps.onAcknowledged,
  });
  return { client: { name: 'platform client', start: () => Promise.resolve(), stop: () => client.close() }, dispatcher };
}
