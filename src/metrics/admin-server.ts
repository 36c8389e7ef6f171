/**
 * The admin listener, bound to 127.0.0.1 by default: `GET /metrics` (Prometheus text format),
 * `GET /healthz` (the process is up) and `GET /readyz` (the store and folders are writable).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Metrics } from './metrics.js';

export interface Readiness {
  ready: boolean;
  /** Why not, when not ready. */
  reasons: readonly string[];
}

export interface AdminServerOptions {
  host: string;
  port: number;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
  logger: Logger;
}

export interface AdminServer {
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
}

export function createAdminServer(options: AdminServerOptions): AdminServer {
  let server: http.Server | null = null;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://admin');
    if (req.method !== 'GET') return send(res, 405, 'text/plain', 'method not allowed\n');
    if (url.pathname === '/metrics') {
      return send(res, 200, options.metrics.registry.contentType, await options.metrics.registry.metrics());
    }
    if (url.pathname === '/healthz') return send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
    if (url.pathname === '/readyz') {
      const report = await options.readiness();
      return send(res, report.ready ? 200 : 503, 'application/json', JSON.stringify(report));
    }
    return send(res, 404, 'text/plain', 'not found\n');
  };

  return {
    async start() {
      if (!server) {
        server = http.createServer((req, res) => {
          handle(req, res).catch((error: unknown) => {
            options.logger.error({ err: error }, 'admin request failed');
            if (!res.headersSent) send(res, 500, 'text/plain', 'internal error\n');
          });
        });
        server.headersTimeout = 10_000;
        server.requestTimeout = 30_000;
        const listening = server;
        await new Promise<void>((resolve, reject) => {
          listening.once('error', reject);
          listening.listen(options.port, options.host, () => resolve());
        });
      }
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `http://${host}:${address.port}` };
    },
    async stop() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}

function send(res: http.ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
