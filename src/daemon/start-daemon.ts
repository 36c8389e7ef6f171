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
 * Reload (SIGHUP) is one all-or-nothing mechanism: `reload.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAdminServer } from '../admin/admin-server.js';
import { createConsole } from '../admin/console/create-console.js';
import { checkReadiness } from '../admin/readiness.js';
import { flowMappingWarnings } from '../config/flow-mapping-checks.js';
import type { Config } from '../config/schema.js';
import { createDispatcher, type Dispatcher } from '../delivery/dispatcher.js';
import { ConnectorError } from '../errors.js';
import { createExporter, statusExportTarget, type Exporter, type ExportTarget } from '../export/index.js';
import { createFileGate, createIntake, type Intake } from '../intake/index.js';
import type { Logger } from '../log.js';
import { createMetrics, type Metrics } from '../metrics/metrics.js';
import { createPlatformClient } from '../platform/client.js';
import { createSandbox, type Sandbox } from '../sandbox/index.js';
import { runHousekeeping } from '../schedule/housekeeping.js';
import { createScheduler, type ScheduledJob } from '../schedule/scheduler.js';
import { summarise } from '../schedule/summary.js';
import { createLifecycle } from '../shared/lifecycle.js';
import { systemClock, type Clock } from '../shared/types.js';
import { ackChannel, STATUS_CHANNEL } from '../store/exports.js';
import { createStore, storePath, type Db } from '../store/open-store.js';
import { createStateLock } from '../store/state-lock.js';
import { createWebhookListener, type WebhookListener } from '../webhook/index.js';
import { createOperatorActions } from './operator-actions.js';
import { readReloadables, reloadAll, type ReloadResult } from './reload.js';
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
   * Graceful stop, bounded by `config.shutdownTimeoutMs` + 3 s (`stop-bound.ts`); idempotent. Resolves `'timeout'`
   * when the bound passed with components still stopping: the process should then exit (code 1).
   */
  stop(): Promise<StopOutcome>;
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger;
  const lifecycle = createLifecycle((name, error) => log.error({ err: error, component: name }, 'stopping a component failed'));

  const read = readReloadables(config);
  if (!read.ok) throw new ConnectorError('MAPPING_INVALID', read.errors.join('\n'), { details: { errors: read.errors } });
  const initial = read.reloadables;
  for (const flow of config.flows) {
    const spec = initial.mappings.get(flow.name);
    for (const warning of spec ? flowMappingWarnings(flow, spec) : []) log.warn({ flow: flow.name }, warning);
  }
  const statusTarget = config.export ? statusExportTarget(config.export) : null;

  try {
    // First taken, last released: nothing of this daemon touches the store without it.
    await lifecycle.start(createStateLock(config.stateDir));
    const { db, durability } = await lifecycle.start(
      createStore(storePath(config.stateDir), {
        onThreadGone: (error) =>
          log.error({ err: error, component: 'store' }, "the store's helper thread failed; checkpoints run in commits and fsyncs in the thread pool again"),
      }),
    );
    const durable = () => durability.durable();
    const metrics = createMetrics({ db, clock });

    // Status files and acknowledgements often share the ERP's import folder: each folder once.
    const exportFolders = [...new Set([...(config.export ? [config.export.folder] : []), ...config.flows.map((f) => f.results)])];
    for (const folder of exportFolders) fs.mkdirSync(folder, { recursive: true });
    // Not ready until every stage has started (recovery can take a while after a crash).
    let started = false;
    const readiness = () => Promise.resolve(started ? checkReadiness(db, exportFolders) : { ready: false, reasons: ['starting'] });

    const urls: { webhook?: string; admin?: string; sandbox?: string; console?: string } = {};
    // Created before the listener, which wakes it when events are stored; started after it (and the
    // demo's sandbox): the listener's first events wait in the store, and the exporter's start
    // writes whatever is pending (a wake before that start does nothing).
    const ackTargets: ExportTarget[] = config.flows.map((flow) => ({
      channel: ackChannel(flow.name),
      folder: flow.results,
      format: initial.ackFormats.get(ackChannel(flow.name))!,
      mode: 'perEvent',
    }));
    const exporter = createExporter({
      db,
      targets: [...(statusTarget ? [statusTarget] : []), ...ackTargets],
      logger: log,
      clock,
      metrics,
      durable,
      ...(options.exporterPollIntervalMs !== undefined ? { pollIntervalMs: options.exporterPollIntervalMs } : {}),
    });
    let listener: WebhookListener | null = null;
    if (config.webhook) {
      listener = createWebhookListener({ db, config: config.webhook, logger: log, clock, metrics, durable, onStored: () => exporter.wake() });
      urls.webhook = (await lifecycle.start(listener)).url;
    }

    let sandbox: Sandbox | null = null;
    if (config.sandbox.enabled) {
      sandbox = await lifecycle.start(
        createSandbox({
          host: config.sandbox.host,
          port: config.sandbox.port,
          token: config.platform.token,
          ...(config.sandbox.supplierToken ? { supplierToken: config.sandbox.supplierToken } : {}),
          ...(urls.webhook ? { webhookUrl: urls.webhook } : {}),
          ...(config.webhook?.secrets[0] ? { webhookSecret: config.webhook.secrets[0] } : {}),
          // The demo's listener may speak TLS with a self-signed certificate: trust exactly that one.
          ...(config.webhook?.tls ? { webhookCa: config.webhook.tls.cert } : {}),
          demo: config.sandbox.demo,
          logger: log,
        }),
      );
      urls.sandbox = sandbox.url;
      log.warn({ url: sandbox.url }, 'the built-in sandbox platform is running in-process (demo only; never in production)');
    }

    await lifecycle.start(exporter);

    const client = createPlatformClient({
      baseUrl: sandbox?.url ?? config.platform.baseUrl,
      connectTimeoutMs: config.platform.connectTimeoutMs,
      headersTimeoutMs: config.platform.headersTimeoutMs,
      bodyTimeoutMs: config.platform.bodyTimeoutMs,
      attemptTimeoutMs: config.platform.attemptTimeoutMs,
      maxResponseBytes: config.platform.maxResponseBytes,
      connections: Math.max(4, config.delivery.concurrency * config.flows.length),
    });
    await lifecycle.start({ name: 'platform client', start: () => Promise.resolve(), stop: () => client.close() });
    const dispatcher = createDispatcher({
      db,
      flows: config.flows,
      platform: config.platform,
      delivery: config.delivery,
      client,
      logger: log,
      clock,
      metrics,
      // In-flight submissions get most of the shutdown bound; whatever is left is aborted and stays due.
      stopGraceMs: Math.max(0, config.shutdownTimeoutMs - 2_000),
      onAcknowledged: () => exporter.wake(),
    });
    await lifecycle.start(dispatcher);
    // What the metrics cannot read from the store: each flow's gate and the readiness verdict.
    metrics.attach({
      flows: config.flows.map((flow) => flow.name),
      exchangeFlows: config.flows.filter((flow) => flow.enterpriseData).map((flow) => flow.name),
      gateMode: (flow) => dispatcher.gate(flow)?.mode,
      readiness,
    });

    const intakes = new Map<string, Intake>();
    // One gate for every flow: the files taken at once are what the memory budget counts.
    const fileGate = createFileGate(config.intake.concurrentFiles);
    for (const flow of config.flows) {
      const intake = createIntake({
        db,
        flow,
        sourceSystem: config.platform.sourceSystem,
        mapping: initial.mappings.get(flow.name)!,
        logger: log,
        clock,
        durable,
        onRecorded: (count) => {
          metrics.requestsRecorded.inc({ flow: flow.name }, count);
          dispatcher.wake();
        },
        metrics,
        fileGate,
      });
      await lifecycle.start(intake);
      intakes.set(flow.name, intake);
    }

    const jobs: ScheduledJob[] = [
      { name: 'retry-sweep', cron: config.schedules.retrySweep, run: () => dispatcher.wake() },
      { name: 'housekeeping', cron: config.schedules.housekeeping, run: () => runHousekeeping({ db, config, logger: log, now: clock() }) },
      { name: 'summary', cron: config.schedules.summary, run: () => log.info({ summary: summarise(db, clock()) }, 'daily summary') },
    ];
    if (config.export?.mode === 'batch') {
      jobs.push({ name: 'export-batch', cron: config.export.batchCron, run: async () => void (await exporter.flush()) });
    }
    await lifecycle.start(createScheduler(jobs, log));

    const reload = (): ReloadResult => reloadAll(config, options.reloadConfig, { intakes, exporter, listener }, log);

    if (config.metrics.enabled) {
      const operatorConsole = config.console.enabled
        ? createConsole({
            db,
            config: config.console,
            listenerHost: config.metrics.host,
            flows: config.flows,
            metrics,
            readiness,
            operator: createOperatorActions({ intakes, dispatcher, reload }),
            logger: log,
            clock,
            webhook: config.webhook ? { url: urls.webhook ?? null } : null,
            exportChannels: [...(config.export ? [STATUS_CHANNEL] : []), ...config.flows.map((flow) => ackChannel(flow.name))],
            durable,
          })
        : undefined;
      urls.admin = (
        await lifecycle.start(
          createAdminServer({
            host: config.metrics.host,
            port: config.metrics.port,
            metrics,
            logger: log,
            readiness,
            ...(operatorConsole ? { console: operatorConsole } : {}),
          }),
        )
      ).url;
      if (operatorConsole) urls.console = `${urls.admin}/`;
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
