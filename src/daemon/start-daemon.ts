/**
 * The one composition root: a list of components (`shared/lifecycle.ts`) started in order and
 * stopped in reverse:
 *
 *   state lock → store → webhook listener → (sandbox, demo only) → exporter → platform client →
 *   delivery → intake (one per flow) → schedules → admin listener (with the operator console)
 *
 * Stages never reach into each other: they talk through what the store records, and through the
 * few callbacks wired here (intake recorded rows → wake delivery; delivery enqueued an
 * acknowledgement or the listener stored events → wake the exporter). A crash is recovered by each
 * stage's `start()`: intake finishes files left in `processing/`, delivery releases rows left in
 * flight, the exporter writes records whose files do not exist yet.
 *
 * Reload (SIGHUP) is one all-or-nothing mechanism: `reload.ts`. The parts are built beside this
 * file, each named for what it is (`delivery.ts`, `intakes.ts`, `admin-listener.ts`…); here they
 * are only started, in order.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readiness } from '../admin/admin-server.js';
import { checkReadiness } from '../admin/readiness.js';
import { flowMappingWarnings } from '../config/flow-mapping-checks.js';
import type { Config } from '../config/schema.js';
import type { Dispatcher } from '../delivery/dispatcher.js';
import { ConnectorError } from '../errors.js';
import { createExporter, type Exporter } from '../export/index.js';
import type { Logger } from '../log.js';
import { createMetrics, type Metrics } from '../metrics/metrics.js';
import { createSandbox, type Sandbox } from '../sandbox/index.js';
import { createScheduler } from '../schedule/scheduler.js';
import { createLifecycle } from '../shared/lifecycle.js';
import { systemClock, type Clock } from '../shared/types.js';
import { createStore, storePath, type Db } from '../store/open-store.js';
import { createStateLock } from '../store/state-lock.js';
import { createWebhookListener } from '../webhook/index.js';
import { createAdminListener } from './admin-listener.js';
import { createDelivery } from './delivery.js';
import { demoSandboxOptions } from './demo-sandbox.js';
import { exportFolders, exportTargets } from './export-targets.js';
import { startIntakes } from './intakes.js';
import { createOperatorActions } from './operator-actions.js';
import { readReloadables, reloadAll, type Reloadables, type ReloadResult } from './reload.js';
import { scheduledJobs } from './schedules.js';
import { createBoundedStop, type StopOutcome } from './stop-bound.js';

export interface DaemonOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /**
   * Reads the config file again (the CLI's `loadConfig(file, env)`), for what a reload may change
   * beyond the mapping files: `webhook.tls`. Without it a reload re-reads the mappings only.
   */
  reloadConfig?: () => Config;
  /**
   * How often the exporter looks for pending rows by itself (default 1 s). Delivery and the webhook
   * listener wake it as soon as they commit a row to write; tests lengthen this to see that they do.
   */
  exporterPollIntervalMs?: number;
}

export interface Daemon {
  readonly db: Db;
  readonly metrics: Metrics;
  readonly dispatcher: Dispatcher;
  readonly exporter: Exporter;
  /** Where the listeners ended up (ports may be 0 in the config). */
  readonly urls: { webhook?: string; admin?: string; sandbox?: string; console?: string };
  /** The in-process sandbox, when `sandbox.enabled` (the demo). */
  readonly sandbox: Sandbox | null;
  /** Rescan every inbox now. */
  scanNow(): Promise<void>;
  /** SIGHUP: reload the mappings (and acknowledgement formats), and the listener's certificate and key when it speaks TLS; all or nothing. */
  reload(): ReloadResult;
  /**
   * Graceful stop, bounded by `config.shutdownTimeoutMs` + 3 s (`stop-bound.ts`); idempotent.
   * Resolves `'timeout'` when the bound passed with components still stopping: the process should
   * then exit (code 1).
   */
  stop(): Promise<StopOutcome>;
}

/**
 * Start every part in order. A start that fails stops what it had started and throws; a signal
 * during the start is the caller's to hold until it resolves (`cli.ts` `run`).
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger;
  const lifecycle = createLifecycle((name, error) => log.error({ err: error, component: name }, 'stopping a component failed'));

  const initial = readAtStart(config, log);
  const targets = exportTargets(config, initial.ackFormats);

  try {
    // First taken, last released: nothing of this daemon touches the store without it.
    await lifecycle.start(createStateLock(config.stateDir));
    const { db, durability } = await lifecycle.start(createDaemonStore(config, log));
    const durable = () => durability.durable();
    const metrics = createMetrics({ db, clock });
    const parts = { db, metrics, logger: log, clock, durable };

    const folders = exportFolders(targets);
    for (const folder of folders) fs.mkdirSync(folder, { recursive: true });
    // Not ready until every stage has started (recovery can take a while after a crash).
    let started = false;
    const readiness = (): Promise<Readiness> => Promise.resolve(started ? checkReadiness(db, folders) : { ready: false, reasons: ['starting'] });

    const urls: Daemon['urls'] = {};
    // Created before the listener, which wakes it when events are stored; started after it (and the
    // demo's sandbox): the listener's first events wait in the store, and the exporter's start
    // writes whatever is pending (a wake before that start does nothing).
    const pollInterval = options.exporterPollIntervalMs !== undefined ? { pollIntervalMs: options.exporterPollIntervalMs } : {};
    const exporter = createExporter({ ...parts, targets, ...pollInterval });
    // The listener's sender waits on every answer: its fsyncs run on the event loop on a quick disk (`store/durability.ts`).
    const listenerParts = { ...parts, durable: () => durability.durableNow() };
    const listener = config.webhook ? createWebhookListener({ ...listenerParts, config: config.webhook, onStored: () => exporter.wake() }) : null;
    if (listener) urls.webhook = (await lifecycle.start(listener)).url;
    const sandbox = config.sandbox.enabled ? await lifecycle.start(createSandbox(demoSandboxOptions(config, urls.webhook, log))) : null;
    if (sandbox) {
      urls.sandbox = sandbox.url;
      log.warn({ url: sandbox.url }, 'the built-in sandbox platform is running in-process (demo only; never in production)');
    }
    await lifecycle.start(exporter);

    const { client, dispatcher } = createDelivery({
      ...parts,
      config,
      baseUrl: sandbox?.url ?? config.platform.baseUrl,
      onAcknowledged: () => exporter.wake(),
    });
    await lifecycle.start(client);
    await lifecycle.start(dispatcher);
    attachMetrics(metrics, config, dispatcher, readiness);

    const intakes = await startIntakes(lifecycle, { ...parts, config, mappings: initial.mappings, dispatcher });
    await lifecycle.start(createScheduler(scheduledJobs({ ...parts, config, dispatcher, exporter }), log));

    const reload = (): ReloadResult => reloadAll(config, options.reloadConfig, { intakes, exporter, listener }, log);
    if (config.metrics.enabled) {
      const operator = createOperatorActions({ intakes, dispatcher, reload });
      const exportChannels = targets.map((target) => target.channel);
      const admin = createAdminListener({ ...parts, config, readiness, operator, webhookUrl: urls.webhook, exportChannels });
      urls.admin = (await lifecycle.start(admin.server)).url;
      if (admin.withConsole) urls.console = `${urls.admin}/`;
    }

    started = true;
    log.info(
      { flows: config.flows.map((f) => `${f.name} (${f.kind}): ${f.inbox}`), urls, stateDir: path.resolve(config.stateDir), components: lifecycle.started },
      'connector started',
    );

    return {
      db,
      metrics,
      dispatcher,
      exporter,
      urls,
      sandbox,
      async scanNow() {
        await Promise.all([...intakes.values()].map((intake) => intake.scanNow()));
      },
      reload,
      stop: createBoundedStop({ stopAll: () => lifecycle.stopAll(), shutdownTimeoutMs: config.shutdownTimeoutMs, logger: log }),
    };
  } catch (error) {
    await lifecycle.stopAll();
    throw error;
  }
}

/** What a reload may change, read for the start: an invalid mapping stops the start (`MAPPING_INVALID`, listing every problem); a doubtful one is logged. */
function readAtStart(config: Config, log: Logger): Reloadables {
  const read = readReloadables(config);
  if (!read.ok) throw new ConnectorError('MAPPING_INVALID', read.errors.join('\n'), { details: { errors: read.errors } });
  for (const flow of config.flows) {
    const spec = read.reloadables.mappings.get(flow.name);
    for (const warning of spec ? flowMappingWarnings(flow, spec) : []) log.warn({ flow: flow.name }, warning);
  }
  return read.reloadables;
}

/**
 * The store in `stateDir`. Logged once each: a failure of its helper thread (the store goes on
 * without it until it is restarted), and the disk filling and emptying (writes held back meanwhile).
 */
function createDaemonStore(config: Config, log: Logger): ReturnType<typeof createStore> {
  const storeLog = log.child({ component: 'store' });
  return createStore(storePath(config.stateDir), {
    onThreadGone: (error) =>
      storeLog.error({ err: error }, "the store's helper thread failed; checkpoints run in commits and fsyncs in the thread pool until it is restarted"),
    onThreadBack: () => storeLog.info("the store's helper thread was restarted"),
    onSpaceChange: (holding, cause) => {
      if (holding) {
        storeLog.error(
          { err: cause, code: 'STORE_DISK_FULL', stateDir: config.stateDir },
          'the state disk is full: store writes are refused until a checkpoint of the WAL gets through',
        );
      } else storeLog.info({ stateDir: config.stateDir }, 'space is back on the state disk: store writes go on');
    },
  });
}

/** What the metrics cannot read from the store: each flow's gate and the readiness verdict. */
function attachMetrics(metrics: Metrics, config: Config, dispatcher: Dispatcher, readiness: () => Promise<Readiness>): void {
  metrics.attach({
    flows: config.flows.map((flow) => flow.name),
    exchangeFlows: config.flows.filter((flow) => flow.enterpriseData).map((flow) => flow.name),
    gateMode: (flow) => dispatcher.gate(flow)?.mode,
    readiness,
  });
}
