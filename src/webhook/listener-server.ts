/**
 * The listener's server: node:http, or node:https when `webhook.tls` is set, with every bound an
 * unauthenticated client meets before the signature check: a connection cap, header, request and
 * handshake timeouts, and answers without stacks to what cannot be parsed.
 *
 * Memory an unauthenticated client can pin is at most `maxConnections` × (`maxBodyBytes` + the
 * headers). Node's own header cap (`--max-http-header-size`, 16 KiB) is left as it is: the platform
 * sends a handful of short headers, and 16 KiB per connection is already counted in that bound.
 */
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SecureContextOptions } from 'node:tls';
import type { WebhookConfig, TlsMaterial } from '../config/webhook-schema.js';
import type { ErrorCode } from '../errors.js';
import type { Logger } from '../log.js';
import { listenOn } from '../shared/listen.js';

export type ListenerServer = http.Server | https.Server;

export interface ListenerServerOptions {
  config: WebhookConfig;
  /** The certificate and key in use (the config's, or the last reloaded). */
  tls: TlsMaterial | undefined;
  log: Logger;
  now: () => number;
  onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  /** Count a refusal by its code (the daemon's metrics). */
  countRefusal: (code: ErrorCode) => void;
}

/** How often, at most, connections refused for `maxConnections` are logged (a flood must not flood the log). */
const DROP_LOG_INTERVAL_MS = 60_000;

/** TLS 1.2 or newer, whatever Node's defaults (`--tls-min-v1.0`) or OpenSSL's say. */
export function secureContextOptions(material: TlsMaterial): SecureContextOptions {
  return { cert: material.cert, key: material.key, minVersion: 'TLSv1.2' };
}

export function createListenerServer(options: ListenerServerOptions): ListenerServer {
  const { config, log } = options;
  const limits: http.ServerOptions = {
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Check the timeouts above every second, not every 30 s (Node's default), against slow clients.
    connectionsCheckingInterval: 1_000,
  };
  const server: ListenerServer = options.tls
    ? // A handshake gets the headers' time, not Node's 120 s: it comes before them.
      https.createServer({ ...limits, ...secureContextOptions(options.tls), handshakeTimeout: config.headersTimeoutMs }, options.onRequest)
    : http.createServer(limits, options.onRequest);
  // No socket inactivity timeout (`server.timeout`) beside these: a connection that sends nothing
  // or stops is closed by the header or request timeout (408), an idle keep-alive one by its own,
  // and one more timer armed and cleared on every request was a cost of every webhook.
  server.maxConnections = config.maxConnections;

  let dropped = 0;
  let lastDropLog = Number.NEGATIVE_INFINITY;
  server.on('drop', (data?: { remoteAddress?: string }) => {
    dropped += 1;
    const now = options.now();
    if (now - lastDropLog < DROP_LOG_INTERVAL_MS) return;
    log.warn({ remote: data?.remoteAddress, dropped, maxConnections: config.maxConnections }, 'webhook connections refused: webhook.maxConnections are open');
    lastDropLog = now;
    dropped = 0;
  });

  // Bytes that are not HTTP: Node answers 400 itself when nobody listens, but silently; here it is
  // counted and logged as a warning, without the raw packet (it may hold a signature).
  server.on('clientError', (error: NodeJS.ErrnoException, duplex: Duplex) => {
    const socket = duplex as Socket;
    if (error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    options.countRefusal('WEBHOOK_REQUEST_INVALID');
    log.warn({ remote: socket.remoteAddress, code: 'WEBHOOK_REQUEST_INVALID', reason: error.code }, `webhook request refused with ${status}: ${error.message}`);
    // As Node does: answer only on a connection that has sent nothing yet; on one that has, an
    // answer could land in the middle of another response.
    if (!socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ received: false, code: 'WEBHOOK_REQUEST_INVALID', message: 'request cannot be parsed' });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  if (server instanceof https.Server) {
    server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      options.countRefusal('WEBHOOK_REQUEST_INVALID');
      log.warn({ remote: socket.remoteAddress, code: 'WEBHOOK_REQUEST_INVALID', reason: error.code }, `webhook TLS handshake failed: ${error.message}`);
    });
  }
  return server;
}

/**
 * Listen on `config.host:port`; resolves with the webhook URL (`http://host:port/path`, `https://…`
 * for a TLS server, an IPv6 host in brackets), rejects when the address cannot be bound. Errors
 * after that are logged, never thrown.
 */
export async function listenForWebhooks(server: ListenerServer, config: Pick<WebhookConfig, 'host' | 'port' | 'path'>, log: Logger): Promise<string> {
  await listenOn(server, { host: config.host, port: config.port, key: 'webhook.port' });
  server.on('error', (error) => log.error({ err: error }, 'webhook server error'));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${server instanceof https.Server ? 'https' : 'http'}://${host}:${address.port}${config.path}`;
}
