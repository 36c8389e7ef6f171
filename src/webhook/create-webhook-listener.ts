/**
 * The webhook listener: node:http (node:https with `webhook.tls`) on `webhook.host:port`,
 * `POST webhook.path`. It does one job: read a request, admit it (`admit-webhook.ts`, the pure
 * ladder of checks), store the event, answer (`answer-webhook.ts`). Here its parts are wired: the
 * server (`listener-server.ts`), the event batcher, the requests in flight that a stop waits for
 * (`open-requests.ts`) and the one-shot start and stop.
 *
 * `200 {"received":true}` is sent only once the event's transaction is durable (the batcher awaits
 * the store's group commit), so a 200 means the event survives a power cut; anything else makes the
 * platform send it again, and the eventId makes the repeat harmless (a repeat whose body differs
 * is logged as `WEBHOOK_EVENT_CONFLICT` and still answered 200: the first one is kept). The
 * readiness probe lives on the admin listener; `/healthz` is answered here too, for a reverse
 * proxy in front, by the same code (`shared/probes.ts`).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tlsMaterialProblem, type TlsMaterial, type WebhookConfig } from '../config/webhook-schema.js';
import { ConnectorError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';
import { systemClock, type Clock, type WaitDurable } from '../shared/types.js';
import type { Db } from '../store/open-store.js';
import type { AdmissionPolicy } from './admit-webhook.js';
import { parseAllowList } from './allow-from.js';
import { createWebhookAnswerer } from './answer-webhook.js';
import { createEventBatcher } from './event-batcher.js';
import { createListenerServer, listenForWebhooks, secureContextOptions, type ListenerServer } from './listener-server.js';
import { trackOpenRequests } from './open-requests.js';

export interface WebhookListenerDeps {
  db: Db;
  config: WebhookConfig;
  logger: Logger;
  clock?: Clock;
  /** Called after new events were committed (the daemon wakes the exporter here). */
  onStored?: () => void;
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'webhookEvents'>;
  /** The store's group commit: no event is answered 200 before it resolves. Default: commits are durable already. */
  durable?: WaitDurable;
}

export interface WebhookListener extends Component<{ url: string }>, Reloadable<TlsMaterial> {
  /** Listen; resolves with the webhook URL (`http://host:port/path`, `https://…` with `tls`). Idempotent. */
  start(): Promise<{ url: string }>;
  /**
   * Serve a new certificate and key (SIGHUP) to every new connection; open ones keep theirs.
   * Throws `CONFIG_INVALID` and keeps the old pair when the new one does not load, or when the
   * listener speaks plain HTTP (switching needs a restart).
   */
  reload(material: TlsMaterial): void;
  /** Stop taking webhooks, finish the batches in flight, close the server. Idempotent. */
  stop(): Promise<void>;
  /** The bound address once started. */
  readonly address: AddressInfo | null;
}

/** How long `stop()` lets open requests finish before closing their sockets. */
const STOP_GRACE_MS = 5_000;

export function createWebhookListener(deps: WebhookListenerDeps): WebhookListener {
  const { db, config } = deps;
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ component: 'webhook' });
  const policy: AdmissionPolicy = {
    path: config.path,
    allowList: parseAllowList(config.allowFrom),
    maxBodyBytes: config.maxBodyBytes,
    requireSignature: config.requireSignature,
    secrets: config.secrets,
  };
  // What the rest of a too-large body may cost before the connection closes: a few bodies' worth
  // (at most 1 MiB), within a fraction of the request timeout; each drain holds a connection slot.
  const drainLimits = { bytes: Math.min(4 * config.maxBodyBytes, 1024 * 1024), ms: Math.min(2_000, config.requestTimeoutMs / 2) };
  const batcher = createEventBatcher({
    db,
    now: clock,
    logger: log,
    onCommitted: () => deps.onStored?.(),
    ...(deps.durable ? { durable: deps.durable } : {}),
  });

  let server: ListenerServer | null = null;
  let tlsInUse = config.tls;
  const count = (outcome: string): void => deps.metrics?.webhookEvents.inc({ outcome });
  const stopping = (): boolean => lifecycle.stopping;
  const handle = createWebhookAnswerer({ policy, batcher, drainLimits, log, count, stopping });
  const requests = trackOpenRequests({ handle, log, count, stopping, closeIdleConnections: () => server?.closeIdleConnections() });

  const listen = async (): Promise<{ url: string }> => {
    const created = createListenerServer({
      config,
      tls: tlsInUse,
      log,
      now: clock,
      onRequest: requests.onRequest,
      countRefusal: (code: ErrorCode) => count(code),
    });
    const url = await listenForWebhooks(created, config, log);
    server = created;
    log.info({ url }, 'webhook listener started');
    return { url };
  };

  const close = async (): Promise<void> => {
    const current = server;
    if (!current) return; // the start failed
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    current.closeIdleConnections();
    await requests.settled();
    await batcher.drain();
    if (requests.unfinished === 0) current.closeIdleConnections();
    const grace = setTimeout(() => current.closeAllConnections(), STOP_GRACE_MS);
    await closed;
    clearTimeout(grace);
    server = null;
    log.info('webhook listener stopped');
  };

  const lifecycle = createStartStop({
    start: listen,
    // What was stored is logged as the stop begins: waiting for open requests may outlast the daemon's stop bound.
    interrupt: () => batcher.flushLog(),
    stop: close,
    afterStop: () => new ConnectorError('WEBHOOK_STOPPING', 'The webhook listener was stopped; create a new one'),
  });

  return {
    name: 'webhook listener',
    start: lifecycle.start,
    stop: lifecycle.stop,
    reload(material) {
      if (!tlsInUse) throw new ConnectorError('CONFIG_INVALID', 'webhook.tls: the listener speaks plain HTTP; a restart is needed to switch it to HTTPS');
      const problem = tlsMaterialProblem(material);
      if (problem) throw new ConnectorError('CONFIG_INVALID', `webhook.tls: ${problem}`);
      if (server instanceof https.Server) server.setSecureContext(secureContextOptions(material));
      tlsInUse = material;
    },
    get address() {
      return (server?.address() as AddressInfo | null) ?? null;
    },
  };
}
