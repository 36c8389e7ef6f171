/**
 * The admin listener, bound to 127.0.0.1 by default: `GET /metrics` (Prometheus text format),
 * `GET /healthz` (the process is up) and `GET /readyz` (the store and folders are writable); with
 * `console`, every other request goes to the operator console (`console/create-console.tsx`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { describeError } from '../errors.js';
import type { Component } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';
import { isHealthProbe, sendHealthz } from '../shared/probes.js';
import { listenOn } from '../shared/listen.js';

export interface Readiness {
  ready: boolean;
  /** Why not, when not ready. */
  reasons: readonly string[];
}

export interface AdminServerOptions {
  host: string;
  port: number;
  /** The setting that owns the port, named when it cannot be bound. Default `metrics.port`. */
  portKey?: string;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
  logger: Logger;
  /** The operator console: handles every request that is not one of the three probes. */
  console?: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
}

/** The listener's own endpoints, answered before the console sees anything. */
const PROBE_PATHS = new Set(['/metrics', '/readyz']);

export interface AdminServer extends Component<{ url: string }> {
  /** Listen; resolves with the base URL (`http://127.0.0.1:9464`). */
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
}

export function createAdminServer(options: AdminServerOptions): AdminServer {
  let server: http.Server | null = null;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (isHealthProbe(req.url, req.method)) return sendHealthz(res);
    const pathname = pathOf(req.url);
    if (pathname === null) return send(res, 400, 'text/plain', 'bad request target\n');
    if (options.console && !PROBE_PATHS.has(pathname) && pathname !== '/healthz') return options.console(req, res);
    if (req.method !== 'GET') return send(res, 405, 'text/plain', 'method not allowed\n');
    if (pathname === '/metrics') {
      return send(res, 200, options.metrics.registry.contentType, await options.metrics.registry.metrics());
    }
    if (pathname === '/readyz') {
      const report = await options.readiness().catch((error: unknown) => ({ ready: false, reasons: [`readiness check failed: ${describeError(error)}`] }));
      return send(res, report.ready ? 200 : 503, 'application/json', JSON.stringify({ ready: report.ready, reasons: report.reasons }));
    }
    return send(res, 404, 'text/plain', 'not found\n');
  };

  const lifecycle = createStartStop({
    async start() {
      const listening = http.createServer((req, res) => {
        handle(req, res).catch((error: unknown) => {
          options.logger.error({ err: error }, 'admin request failed');
          if (!res.headersSent) send(res, 500, 'text/plain', 'internal error\n');
        });
      });
      listening.headersTimeout = 10_000;
      listening.requestTimeout = 30_000;
      server = listening;
      await listenOn(listening, { host: options.host, port: options.port, key: options.portKey ?? 'metrics.port' });
      const address = listening.address() as AddressInfo;
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
    afterStop: 'restart',
  });

  return { name: 'admin listener', start: lifecycle.start, stop: lifecycle.stop };
}

/** The path of a request target, or null when it cannot be a URL (`//[/`). */
function pathOf(target: string | undefined): string | null {
  try {
    return new URL(target ?? '/', 'http://admin').pathname;
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
