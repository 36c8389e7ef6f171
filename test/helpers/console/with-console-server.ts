/**
 * `withConsoleServer(options, fn)`: the console alone (no daemon) on a real store file and a real
 * HTTP server on port 0, with the clock the test gives it, closed whatever happens. For pages whose
 * content depends on the time (the overview's last 24 hours): the test fills the store at chosen
 * times and reads exactly what the page makes of them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsole } from '../../../src/admin/console/create-console.js';
import { consoleSchema } from '../../../src/config/console-schema.js';
import { flowSchema } from '../../../src/config/flow-schema.js';
import { silentLogger } from '../../../src/log.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import type { Clock } from '../../../src/shared/types.js';
import type { Db } from '../../../src/store/open-store.js';

export interface ConsoleServerOptions {
  db: Db;
  clock: Clock;
  language?: 'en' | 'ru';
  /** Default one `requests` flow. */
  flows?: readonly { name: string; kind: 'requests' | 'confirmations' }[];
  /** A webhook listener is configured (its card and chart are shown). Default true. */
  webhook?: boolean;
}

export async function withConsoleServer<T>(o: ConsoleServerOptions, fn: (url: string) => Promise<T>): Promise<T> {
  const flows = (o.flows ?? [{ name: 'requests', kind: 'requests' }]).map(({ name, kind }) =>
    flowSchema.parse({ name, kind, inbox: `/srv/${name}/inbox`, mapping: '/dev/null', results: `/srv/${name}/results` }),
  );
  const handler = createConsole({
    db: o.db,
    config: consoleSchema.parse({ language: o.language ?? 'en' }),
    listenerHost: '127.0.0.1',
    flows,
    metrics: createMetrics({ db: o.db, defaultMetrics: false }),
    readiness: () => Promise.resolve({ ready: true, reasons: [] }),
    operator: {
      retakeFile: () => Promise.reject(new Error('not in this test')),
      resumeFlow: () => false,
      flowGate: () => ({ mode: 'closed', nextProbeAt: 0, consecutiveFailures: 0, probeInFlight: false }),
      wakeDelivery: () => undefined,
      reloadMappings: () => ({ ok: true }),
    },
    logger: silentLogger,
    clock: o.clock,
    webhook: o.webhook === false ? null : { url: 'http://127.0.0.1:8788/webhooks/service' },
    exportChannels: [],
  });
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
