/**
 * The webhook listener: node:http (node:https with `webhook.tls`) on `webhook.host:port`,
 * `POST webhook.path`. It does one job: read a request, admit it (`admit-webhook.ts`, the pure
 * ladder of checks), store the event, answer.
 *
 * `200 {"received":true}` is sent only once the event's transaction is durable (the batcher awaits
 * the store's group commit), so a 200 means the event survives a power cut; anything else makes the
 * platform send it again, and the eventId makes the repeat harmless (a repeat whose body differs
 * is logged as `WEBHOOK_EVENT_CONFLICT` and still answered 200: the first one is kept). The
 * readiness probe lives on the admin listener; `/healthz` is answered here too, for a reverse
 * proxy in front, by the same code (`shared/probes.ts`).
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tlsMaterialProblem, type TlsMaterial, type WebhookConfig } from '../config/webhook-schema.js';
import { ConnectorError, describeError, type ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Component, Reloadable } from '../shared/lifecycle.js';
import { isHealthProbe, sendHealthz } from '../shared/probes.js';
import { endAfterDrain } from '../shared/end-after-drain.js';
import { readBody } from '../shared/read-body.js';
import { systemClock, type Clock, type WaitDurable } from '../shared/types.js';
import type { Db } from '../store/open-store.js';
import { admitWebhook, type AdmissionPolicy, type RequestHead } from './admit-webhook.js';
import { parseAllowList } from './allow-from.js';
import { createEventBatcher } from './event-batcher.js';
import { findEventConflict } from './event-conflict.js';
import { createListenerServer, secureContextOptions, type ListenerServer } from './listener-server.js';

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
  let starting: Promise<{ url: string }> | null = null;
  let stopping: Promise<void> | null = null;
  const inFlight = new Set<Promise<void>>();
  /** Responses not yet fully sent (a pipelined one may wait behind another on its socket). */
  const unfinished = new Set<ServerResponse>();

  const count = (outcome: string): void => deps.metrics?.webhookEvents.inc({ outcome });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (isHealthProbe(req.url, req.method)) return sendHealthz(res);
    const head: RequestHead = { target: req.url, method: req.method, remote: req.socket.remoteAddress, headers: req.headers, stopping: stopping !== null };
    log.debug({ remote: head.remote, requestId: req.headers['x-request-id'], method: req.method }, 'webhook request received');
    let admission = admitWebhook(policy, head);
    if (admission.kind === 'read-body') {
      const read = await readBody(req, config.maxBodyBytes, req.headers['content-length']);
      if (!read.ok && read.reason === 'aborted') return void req.destroy();
      admission = admitWebhook(policy, head, read.ok ? read.body : 'too-large');
    }
    const context = { remote: head.remote, requestId: req.headers['x-request-id'] };
    if (admission.kind === 'refuse') {
      const { status, code, message } = admission;
      if (code === null) {
        if (status === 405) res.setHeader('Allow', 'POST');
        return sendJson(res, status, { received: false, error: message });
      }
      count(code);
      // Logged without the body: an unadmitted body is untrusted input.
      if (code === 'WEBHOOK_STOPPING') log.info({ ...context, code }, 'webhook refused with 503: the listener is stopping');
      else {
        const target = code === 'WEBHOOK_REQUEST_INVALID' ? { target: head.target?.slice(0, 200) } : {};
        log.warn({ ...context, ...target, code, problem: admission.signatureProblem, errors: admission.errors }, `webhook refused with ${status}: ${message}`);
      }
      if (code === 'WEBHOOK_TOO_LARGE' || code === 'WEBHOOK_REQUEST_INVALID') res.setHeader('Connection', 'close');
      const answer = admission.errors ? { received: false, code, errors: admission.errors } : { received: false, code, message };
      // A too-large body is still arriving: closing now would reset the connection before the
      // sender reads its 413 (it would see EPIPE and send again). Drain a bounded rest first; the
      // endpoint is unauthenticated, so the bound is small and within the request timeout.
      if (code === 'WEBHOOK_TOO_LARGE') return sendJson(res, status, answer, () => endAfterDrain(req, res, drainLimits));
      return sendJson(res, status, answer);
    }

    // The ladder accepts nothing without the body, so a second `read-body` would be our own bug.
    if (admission.kind !== 'accept') throw new ConnectorError('WEBHOOK_INTERNAL_ERROR', 'The admission ladder asked for the body twice');
    const { event, text: body } = admission;
    const result = await batcher.submit(event, body);
    if (!result.ok) {
      const error = new ConnectorError('WEBHOOK_STORE_FAILED', `Event ${event.eventId} could not be stored: ${describeError(result.error)}`, {
        cause: result.error,
        details: { eventId: event.eventId },
      });
      log.error({ eventId: event.eventId, code: error.code, err: error }, error.message);
      count(error.code);
      return sendJson(res, 503, { received: false, code: error.code, message: 'event not stored; send again' });
    }
    const conflict = result.outcome === 'duplicate' ? findEventConflict(result.storedBody, body) : null;
    if (conflict) {
      log.warn(
        { eventId: event.eventId, code: 'WEBHOOK_EVENT_CONFLICT', eventType: event.eventType, orderId: event.orderId, ...conflict },
        `webhook event ${event.eventId} arrived again with a different body; the first one is kept`,
      );
      count('WEBHOOK_EVENT_CONFLICT');
      return sendReceived(res);
    }
    // Logged with its group by the batcher, once durable.
    count(result.outcome);
    sendReceived(res);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // Once stopping, new answers close their connection, and a keep-alive socket that falls idle
    // after an answer is closed at once, so neither holds stop() up. A request already queued on
    // the socket (pipelined) is still answered: 503 WEBHOOK_STOPPING.
    if (stopping) res.setHeader('Connection', 'close');
    unfinished.add(res);
    res.once('close', () => {
      unfinished.delete(res);
      if (stopping && unfinished.size === 0) setImmediate(() => server?.closeIdleConnections());
    });
    const task = handle(req, res)
      .catch((error: unknown) => {
        const failure = new ConnectorError('WEBHOOK_INTERNAL_ERROR', `The webhook listener failed: ${describeError(error)}`, { cause: error });
        log.error({ code: failure.code, err: failure }, failure.message);
        if (res.headersSent) return void res.destroy();
        count(failure.code);
        sendJson(res, 500, { received: false, code: failure.code, message: 'internal error; send again' });
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  const listen = async (): Promise<{ url: string }> => {
    const created = createListenerServer({
      config,
      tls: tlsInUse,
      log,
      now: clock,
      onRequest,
      countRefusal: (code: ErrorCode) => count(code),
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(config.port, config.host, () => {
        created.off('error', reject);
        resolve();
      });
    });
    created.on('error', (error) => log.error({ err: error }, 'webhook server error'));
    server = created;
    const address = created.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `${created instanceof https.Server ? 'https' : 'http'}://${host}:${address.port}${config.path}`;
    log.info({ url }, 'webhook listener started');
    return { url };
  };

  const close = async (): Promise<void> => {
    const current = server;
    if (!current) {
      await starting?.catch(() => undefined);
      if (!server) return;
      return close();
    }
    // What was stored is logged now: waiting for open requests may outlast the daemon's stop bound.
    batcher.flushLog();
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    current.closeIdleConnections();
    await Promise.allSettled([...inFlight]);
    await batcher.drain();
    if (unfinished.size === 0) current.closeIdleConnections();
    const grace = setTimeout(() => current.closeAllConnections(), STOP_GRACE_MS);
    await closed;
    clearTimeout(grace);
    server = null;
    log.info('webhook listener stopped');
  };

  return {
    name: 'webhook listener',
    start() {
      if (stopping) return Promise.reject(new ConnectorError('WEBHOOK_STOPPING', 'The webhook listener was stopped; create a new one'));
      starting ??= listen();
      return starting;
    },
    stop() {
      stopping ??= close();
      return stopping;
    },
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

/** The answer to every stored event, built once: it is written thousands of times a second under load. */
const RECEIVED_BODY = JSON.stringify({ received: true });
const RECEIVED_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(RECEIVED_BODY) };

function sendReceived(res: ServerResponse): void {
  res.writeHead(200, RECEIVED_HEADERS);
  res.end(RECEIVED_BODY);
}

/** Answer with `body`; `end` ends the response in its own time (after draining the request), by default at once. */
function sendJson(res: ServerResponse, status: number, body: unknown, end?: () => void): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  if (end === undefined) return void res.end(text);
  res.write(text);
  end();
}
