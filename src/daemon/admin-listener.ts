/** The admin listener (/metrics, /healthz, /readyz), with the operator console on it when `console.enabled`. */
import { createAdminServer, type AdminServer, type Readiness } from '../admin/admin-server.js';
import { createConsole, type OperatorActions } from '../admin/console/create-console.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Clock, WaitDurable } from '../shared/types.js';
import type { Db } from '../store/open-store.js';

export interface AdminListenerDeps {
  config: Config;
  db: Db;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
  operator: OperatorActions;
  /** The webhook listener's URL, once it listens. */
  webhookUrl: string | undefined;
  /** The export channels the console shows. */
  exportChannels: readonly string[];
  logger: Logger;
  clock: Clock;
  durable: WaitDurable;
}

/** The listener to start, and whether the console is on it. */
export function createAdminListener(deps: AdminListenerDeps): { server: AdminServer; withConsole: boolean } {
  const { config, metrics, readiness, logger } = deps;
  const operatorConsole = config.console.enabled
    ? createConsole({
        db: deps.db,
        config: config.console,
        listenerHost: config.metrics.host,
        flows: config.flows,
        metrics,
        readiness,
        operator: deps.operator,
        logger,
        clock: deps.clock,
        webhook: config.webhook ? { url: deps.webhookUrl ?? null } : null,
        exportChannels: deps.exportChannels,
        durable: deps.durable,
      })
    : undefined;
  const server = createAdminServer({
    host: config.metrics.host,
    port: config.metrics.port,
    metrics,
    logger,
    readiness,
    ...(operatorConsole ? { console: operatorConsole } : {}),
  });
  return { server, withConsole: operatorConsole !== undefined };
}
