/**
 * The platform sandbox: a strict emulator of the procurement platform (create request, supplier
 * confirm, signed order status webhooks) with idempotency, fault injection and an admin API.
 * Every later stage is tested, demonstrated and benchmarked against it.
 */
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Component } from '../shared/lifecycle.js';
import { DemoDriver } from './demo-driver.js';
import { RequestBook, type SandboxContext } from './context.js';
import { FaultInjector, type FaultConfig } from './faults.js';
import { IdempotencyStore } from './idempotency-store.js';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxOptions } from './options.js';
import { OrderBook } from './order-book.js';
import { createSandboxServer } from './server.js';
import { ORDER_STATUSES, type OrderStatus, type RecordedCall, type SandboxOrder, type SandboxRequest } from './types.js';
import { WebhookSender, type EventDeliveryState, type OrderStatusEvent, type WebhookAttempt } from './webhook-sender.js';
import { ConnectorError } from '../errors.js';
import { createStartStop } from '../shared/start-stop.js';
import { listenOn } from '../shared/listen.js';

export type { SandboxOptions } from './options.js';
export type { FaultConfig, OperationFaultsInput, FaultOperation } from './faults.js';
export type { RecordedCall, SandboxOrder, SandboxRequest, OrderStatus } from './types.js';
export type { WebhookAttempt, OrderStatusEvent, EventDeliveryState } from './webhook-sender.js';
export { ORDER_STATUS } from './types.js';
export { SANDBOX_PROBLEM_TYPES } from './problem.js';
export { STANDARD_WEBHOOKS_SCHEDULE_MS } from './options.js';

export interface Sandbox {
  /** Base URL, `http://127.0.0.1:PORT` (append `createRequestPath(token)` and friends). */
  readonly url: string;
  readonly port: number;
  /** The buyer and supplier tokens in use. */
  readonly token: string;
  readonly supplierToken: string;
  /** Close the server, cancel demo timers and pending webhook retries; idempotent. */
  stop(): Promise<void>;
  /** Every API call received (token masked), in arrival order. */
  calls(): RecordedCall[];
  /** Accepted requests with their orders. */
  requests(): (SandboxRequest & { order: SandboxOrder | null })[];
  orders(): SandboxOrder[];
  order(orderId: string): SandboxOrder | undefined;
  /** Every webhook delivery attempt. */
  webhookAttempts(): WebhookAttempt[];
  /** Every webhook event with its delivery state. */
  webhookEvents(): { event: OrderStatusEvent; state: EventDeliveryState }[];
  /** Resolves when no webhook is waiting or in flight. */
  webhooksIdle(): Promise<void>;
  /** Change an order's status (any lifecycle status) and send its webhook; throws on an unknown order. */
  setOrderStatus(orderId: string, status: OrderStatus): SandboxOrder;
  /** Replace the fault settings (throws when invalid). */
  setFaults(faults: FaultConfig): void;
  /** Forget every request, order, call, key and event; counters restart. */
  reset(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveSandboxOptions(options);
  const logger = resolved.logger.child({ component: 'sandbox' });
  const stopController = new AbortController();
  const ctx = createSandboxContext(resolved, logger, stopController.signal);
  const server = createSandboxServer(ctx);
  await listenOn(server, { host: resolved.host, port: resolved.port, key: resolved.portKey ?? 'sandbox.port' });
  const purgeTimer = setInterval(() => ctx.idempotency.purgeExpired(), 60_000);
  purgeTimer.unref();
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host}:${port}`;
  logger.info({ url, demo: resolved.demo, webhooks: Boolean(resolved.webhookUrl) }, 'sandbox listening');

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(purgeTimer);
      stopController.abort();
      ctx.demo?.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, ctx.webhooks.stop()]);
      logger.info('sandbox stopped');
    })();
    return stopping;
  };
  return sandboxHandle(ctx, { url, port, stop });
}

/** The platform's state and parts, empty: faults, webhooks, orders (and the demo moving them), keys, requests, calls. */
function createSandboxContext(resolved: ResolvedSandboxOptions, logger: Logger, signal: AbortSignal): SandboxContext {
  const now = resolved.now;
  const faults = new FaultInjector(resolved.faults, resolved.seed);
  const webhooks = new WebhookSender({
    url: resolved.webhookUrl,
    secret: resolved.webhookSecret,
    ca: resolved.webhookCa,
    scheduleMs: resolved.webhookRetryScheduleMs,
    timeScale: resolved.timeScale,
    timeoutMs: resolved.webhookTimeoutMs,
    faults,
    logger,
    now,
  });
  const { orders, demo, restartEventIds } = createOrderLifecycle(resolved, webhooks);
  const idempotency = new IdempotencyStore(resolved.idempotencyTtlMs, () => now().getTime());
  const requests = new RequestBook();
  const calls: RecordedCall[] = [];
  return {
    options: resolved,
    logger,
    now,
    idempotency,
    faults,
    orders,
    webhooks,
    demo,
    requests,
    calls,
    signal,
    reset: async () => {
      demo?.clear();
      await webhooks.reset();
      requests.clear();
      orders.clear();
      idempotency.clear();
      calls.length = 0;
      restartEventIds();
    },
  };
}

/**
 * The orders, and what a change of status does: a webhook event (`EVT-000001`…) and, in demo
 * mode, the next step planned, which changes the status again.
 */
function createOrderLifecycle(
  resolved: ResolvedSandboxOptions,
  webhooks: WebhookSender,
): { orders: OrderBook; demo: DemoDriver | null; restartEventIds(): void } {
  const now = resolved.now;
  let eventSequence = 0;
  const demo = resolved.demo
    ? new DemoDriver({
        delayMs: resolved.demoDelaysMs * resolved.timeScale,
        advance: (orderId, expected, next) => {
          const order = orders.get(orderId);
          if (!order || order.status !== expected) return;
          if (next === 'confirmed' && !order.supplierOrderId) order.supplierOrderId = `DEMO-${order.id}`;
          orders.setStatus(order, next);
        },
      })
    : null;
  const orders: OrderBook = new OrderBook({
    orderIdPrefix: resolved.orderIdPrefix,
    now,
    onStatusChanged: (order) => {
      eventSequence += 1;
      webhooks.enqueue({
        eventId: `EVT-${String(eventSequence).padStart(6, '0')}`,
        eventType: 'order.status.changed',
        eventDate: now().toISOString(),
        orderId: order.id,
        status: order.status,
      });
      demo?.schedule(order);
    },
  });
  return {
    orders,
    demo,
    restartEventIds: () => {
      eventSequence = 0;
    },
  };
}

/** What tests and the demo hold of a started sandbox: copies of its state, never the state itself. */
function sandboxHandle(ctx: SandboxContext, listening: Pick<Sandbox, 'url' | 'port' | 'stop'>): Sandbox {
  const { orders, requests, webhooks, calls } = ctx;
  return {
    url: listening.url,
    port: listening.port,
    token: ctx.options.token,
    supplierToken: ctx.options.supplierToken,
    stop: listening.stop,
    calls: () => structuredClone(calls),
    requests: () => requests.list().map((request) => structuredClone({ ...request, order: orders.get(request.orderId) ?? null })),
    orders: () => structuredClone(orders.list()),
    order: (orderId) => {
      const order = orders.get(orderId);
      return order ? structuredClone(order) : undefined;
    },
    webhookAttempts: () => webhooks.attempts(),
    webhookEvents: () => webhooks.events(),
    webhooksIdle: () => webhooks.idle(),
    setOrderStatus: (orderId, status) => {
      const order = orders.get(orderId);
      if (!order) throw new ConnectorError('INTERNAL_ERROR', `sandbox: order ${orderId} does not exist`);
      if (!ORDER_STATUSES.includes(status)) throw new ConnectorError('INTERNAL_ERROR', `sandbox: unknown order status ${String(status)}`);
      return structuredClone(orders.setStatus(order, status));
    },
    setFaults: (config) => ctx.faults.set(config),
    reset: ctx.reset,
  };
}

/** The sandbox as a component (the demo daemon starts one in-process); `startSandbox` is the same, started. */
export function createSandbox(options: SandboxOptions = {}): Component<Sandbox> {
  let sandbox: Sandbox | null = null;
  const lifecycle = createStartStop({
    async start() {
      sandbox = await startSandbox(options);
      return sandbox;
    },
    async stop() {
      const stopping = sandbox;
      sandbox = null;
      await stopping?.stop();
    },
    afterStop: 'restart',
  });
  return { name: 'sandbox', start: lifecycle.start, stop: lifecycle.stop };
}
