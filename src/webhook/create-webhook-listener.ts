/**
 * The webhook listener: node:http (node:https with `webhook.tls`) on `webhook.host:port`,
 * `POST webhook.path`.
 *
 * Order of checks: request target (400) → path (404) → method (405) → source (403) → stopping (503) → media type (415) →
 * size (413) → signature over the raw bytes (401) → JSON (400) → event schema (400) → store (503 on
 * failure). `200 {"received":true}` is sent only after the event's transaction committed with
 * synchronous=FULL, so a 200 means the event survives a power cut; anything else makes the platform
 * send it again, and the eventId makes the repeat harmless (a repeat whose body differs is logged as
 * `WEBHOOK_EVENT_CONFLICT` and still answered 200: the first one is kept).
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Db, Clock } from '../store/open-store.js';
import { systemClock } from '../store/open-store.js';
import { tlsMaterialProblem, type TlsMaterial, type WebhookConfig } from '../config/webhook-schema.js';
import { ConnectorError, describeError, type ErrorCode } from '../errors.js';
import { webhookEventSchema, issuesToFieldErrors } from '../platform/contract.js';
import { verifySignature, SIGNATURE_HEADER } from './verify-signature.js';
import { parseAllowList } from './allow-from.js';
import { readBody, isJsonContentType } from './read-body.js';
import { createEventBatcher } from './event-batcher.js';
import { checkReadiness, type ReadinessReport } from './readiness.js';
import { findEventConflict } from './event-conflict.js';
import { createListenerServer, secureContextOptions, type ListenerServer } from './listener-server.js';

export interface WebhookListenerDeps {
  db: Db;
  config: WebhookConfig;
  logger: Logger;
  clock?: Clock;
  /** Called after new events were committed (the daemon wakes the exporter here). */
  onStored?: () => void;
  /** `/readyz` check; by default the store and `exportFolders` are checked directly. */
  readiness?: () => Promise<ReadinessReport>;
  /** Folders `/readyz` requires to be writable when no `readiness` callback is given. */
  exportFolders?: readonly string[];
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'webhookEvents'>;
}

export interface WebhookListener {
  /** Listen; resolves with the webhook URL (`http://host:port/path`, `https://…` with `tls`). Idempotent. */
  start(): Promise<{ url: string }>;
  /**
   * Serve a new certificate and key (SIGHUP) to every new connection; open ones keep theirs.
   * Throws `CONFIG_INVALID` and keeps the old pair when the new one does not load, or when the
   * listener speaks plain HTTP (switching needs a restart).
   */
  setTls(material: TlsMaterial): void;
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
  const allowList = parseAllowList(config.allowFrom);
  const batcher = createEventBatcher({ db, now: clock, onCommitted: () => deps.onStored?.() });
  const readiness = deps.readiness ?? (() => Promise.resolve(checkReadiness(db, deps.exportFolders ?? [])));

  let server: ListenerServer | null = null;
  let tlsInUse = config.tls;
  let starting: Promise<{ url: string }> | null = null;
  let stopping: Promise<void> | null = null;
  const inFlight = new Set<Promise<void>>();
  /** Responses not yet fully sent (a pipelined one may wait behind another on its socket). */
  const unfinished = new Set<ServerResponse>();

  /** Answer a refusal and count it by its code. */
  const refuse = (res: ServerResponse, status: number, code: ErrorCode, message: string): void => {
    deps.metrics?.webhookEvents.inc({ outcome: code });
    sendRefusal(res, status, code, message);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = parseTarget(req.url);
    if (!url) {
      // `POST //[/ HTTP/1.1` is valid HTTP but no URL: a scanner's probe, not our failure.
      log.warn(
        { remote: req.socket.remoteAddress, code: 'WEBHOOK_REQUEST_INVALID', target: req.url?.slice(0, 200) },
        'webhook request refused: the request target is not a URL path',
      );
      res.setHeader('Connection', 'close');
      return refuse(res, 400, 'WEBHOOK_REQUEST_INVALID', 'request target cannot be parsed');
    }
    if (url.pathname === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      return sendJson(res, 200, { status: 'ok' });
    }
    if (url.pathname === '/readyz' && (req.method === 'GET' || req.method === 'HEAD')) {
      const report: ReadinessReport = stopping
        ? { ready: false, reasons: ['webhook listener: stopping'] }
        : await readiness().catch((error: unknown) => ({ ready: false, reasons: [`readiness check failed: ${describeError(error)}`] }));
      return sendJson(res, report.ready ? 200 : 503, { ready: report.ready, reasons: report.reasons });
    }
    if (url.pathname !== config.path) return sendJson(res, 404, { received: false, error: 'not found' });
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendJson(res, 405, { received: false, error: 'method not allowed' });
    }
    const remote = req.socket.remoteAddress;
    if (!allowList.allows(remote)) {
      log.warn({ remote, code: 'WEBHOOK_FORBIDDEN_SOURCE' }, 'webhook refused: source address not in webhook.allowFrom');
      return refuse(res, 403, 'WEBHOOK_FORBIDDEN_SOURCE', 'source address not allowed');
    }
    if (stopping) {
      log.info({ remote, requestId: req.headers['x-request-id'] }, 'webhook refused with 503: the listener is stopping');
      return refuse(res, 503, 'WEBHOOK_STORE_FAILED', 'shutting down; send again later');
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return refuse(res, 415, 'WEBHOOK_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    const read = await readBody(req, config.maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'aborted') return void req.destroy();
      log.warn({ remote, code: 'WEBHOOK_TOO_LARGE', limit: config.maxBodyBytes }, 'webhook refused: body too large');
      res.setHeader('Connection', 'close');
      return refuse(res, 413, 'WEBHOOK_TOO_LARGE', `body exceeds ${config.maxBodyBytes} bytes`);
    }
    const body = read.body;
    if (config.requireSignature) {
      const verdict = verifySignature(body, req.headers[SIGNATURE_HEADER], config.secrets);
      if (!verdict.valid) {
        // Logged without the body: an unsigned body is untrusted input.
        log.warn(
          { remote, code: 'WEBHOOK_SIGNATURE_INVALID', problem: verdict.problem, requestId: req.headers['x-request-id'] },
          'webhook refused: bad signature',
        );
        return refuse(res, 401, 'WEBHOOK_SIGNATURE_INVALID', `signature ${verdict.problem}`);
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch (error) {
      log.warn({ remote, code: 'WEBHOOK_BODY_INVALID' }, `webhook refused: body is not JSON (${describeError(error)})`);
      return refuse(res, 400, 'WEBHOOK_BODY_INVALID', 'body is not valid JSON');
    }
    const parsed = webhookEventSchema.safeParse(json);
    if (!parsed.success) {
      const errors = issuesToFieldErrors(parsed.error.issues);
      log.warn({ remote, code: 'WEBHOOK_BODY_INVALID', errors }, 'webhook refused: body does not match the event schema');
      deps.metrics?.webhookEvents.inc({ outcome: 'WEBHOOK_BODY_INVALID' });
      return sendJson(res, 400, { received: false, code: 'WEBHOOK_BODY_INVALID', errors });
    }
    const event = parsed.data;
    const eventLog = log.child({ eventId: event.eventId });
    const result = await batcher.submit({
      eventId: event.eventId,
      eventType: event.eventType,
      eventDate: event.eventDate,
      orderId: event.orderId,
      status: event.status,
      body: body.toString('utf8'),
    });
    if (!result.ok) {
      const error = new ConnectorError('WEBHOOK_STORE_FAILED', `Event ${event.eventId} could not be stored: ${describeError(result.error)}`, {
        cause: result.error,
        details: { eventId: event.eventId },
      });
      eventLog.error({ code: error.code, err: error }, error.message);
      return refuse(res, 503, 'WEBHOOK_STORE_FAILED', 'event not stored; send again');
    }
    const conflict = result.outcome === 'duplicate' ? findEventConflict(result.storedBody, body.toString('utf8')) : null;
    if (conflict) {
      eventLog.warn(
        { code: 'WEBHOOK_EVENT_CONFLICT', eventType: event.eventType, orderId: event.orderId, ...conflict },
        `webhook event ${event.eventId} arrived again with a different body; the first one is kept`,
      );
      deps.metrics?.webhookEvents.inc({ outcome: 'WEBHOOK_EVENT_CONFLICT' });
      return sendJson(res, 200, { received: true });
    }
    eventLog.info({ eventType: event.eventType, orderId: event.orderId, status: event.status, outcome: result.outcome }, `webhook event ${result.outcome}`);
    deps.metrics?.webhookEvents.inc({ outcome: result.outcome });
    sendJson(res, 200, { received: true });
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // Once stopping, new answers close their connection, and a keep-alive socket that falls idle
    // after an answer is closed at once, so neither holds stop() up. A request already queued on
    // the socket (pipelined) is still answered: 503, see `handle`.
    if (stopping) res.setHeader('Connection', 'close');
    unfinished.add(res);
    res.once('close', () => {
      unfinished.delete(res);
      if (stopping && unfinished.size === 0) setImmediate(() => server?.closeIdleConnections());
    });
    const task = handle(req, res)
      .catch((error: unknown) => {
        log.error({ err: error }, 'webhook handler failed');
        if (!res.headersSent) refuse(res, 500, 'WEBHOOK_STORE_FAILED', 'internal error');
        else res.destroy();
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
      countRefusal: (code) => deps.metrics?.webhookEvents.inc({ outcome: code }),
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
    start() {
      if (stopping) return Promise.reject(new Error('webhook listener is stopped'));
      starting ??= listen();
      return starting;
    },
    stop() {
      stopping ??= close();
      return stopping;
    },
    setTls(material) {
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

/** The request target resolved against a placeholder origin, or null when it cannot be a URL (`//[/`). */
function parseTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://listener');
  } catch {
    return null;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendRefusal(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(res, status, { received: false, code, message });
}
