/**
 * The one composition root. It starts the stages in order and stops them in reverse:
 *
 *   stateDir lock → store → webhook listener → (sandbox, demo only) → exporter → delivery → intake → schedules → admin
 *
 * Stages never reach into each other: they talk through what the store records, and through the
 * few callbacks wired here (intake recorded rows → wake delivery; events stored → wake export).
 * A crash is recovered by each stage's `start()`: intake finishes files left in `processing/`,
 * delivery releases rows left in flight, the exporter writes records whose files do not exist yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config, FlowConfig } from './config/schema.js';
import type { MappingSpec } from './config/mapping-schema.js';
import { loadMappingSpec } from './config/load-mapping.js';
import { ConnectorError, describeError } from './errors.js';
import type { Logger } from './log.js';
import { createDispatcher, type Dispatcher } from './delivery/dispatcher.js';
import { createExporter, statusExportTarget, type Exporter, type ExportTarget } from './export/index.js';
import { createIntake, type Intake } from './intake/index.js';
import { createAdminServer, type AdminServer } from './metrics/admin-server.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { createPlatformClient, type PlatformClient } from './platform/client.js';
import { startSandbox, type Sandbox } from './sandbox/index.js';
import { createScheduler, type Scheduler, type ScheduledJob } from './schedule/scheduler.js';
import { runHousekeeping } from './schedule/housekeeping.js';
import { summarise } from './schedule/summary.js';
import { ackChannel } from './store/exports.js';
import { openStore, storePath, systemClock, type Clock, type Db } from './store/open-store.js';
import { acquireStateLock } from './store/state-lock.js';
import { checkReadiness } from './webhook/readiness.js';
import { createWebhookListener, type WebhookListener } from './webhook/index.js';

export interface DaemonOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /**
   * Reads the config file again (the CLI's `loadConfig(file, env)`), for what a reload may change:
   * `webhook.tls`. Without it a reload re-reads the mappings only.
   */
  reloadConfig?: () => Config;
}

/** How a stop ended: everything closed, or the bound passed first (the caller should exit). */
export type StopOutcome = 'stopped' | 'timeout';

/** A reload's verdict; on errors whatever failed keeps its old value, and the errors are logged. */
export type ReloadResult = { ok: true } | { ok: false; errors: string[] };

export interface Daemon {
  readonly db: Db;
  readonly metrics: Metrics;
  readonly dispatcher: Dispatcher;
  readonly exporter: Exporter;
  /** Where the listeners ended up (ports may be 0 in the config). */
  readonly urls: { webhook?: string; admin?: string; sandbox?: string };
  /** The in-process sandbox, when `sandbox.enabled` (the demo). */
  readonly sandbox: Sandbox | null;
  /** Rescan every inbox now. */
  scanNow(): Promise<void>;
  /** Reload the mappings. Keeps the old ones and returns the errors when any new one is invalid. */
  reloadMappings(): ReloadResult;
  /** SIGHUP: reload the mappings, and the listener's certificate and key when it speaks TLS. */
  reload(): ReloadResult;
  /**
   * Graceful stop, bounded by `config.shutdownTimeoutMs` + 3 s; idempotent. Resolves `'timeout'`
   * when the bound passed with components still stopping: the process should then exit (code 1).
   */
  stop(): Promise<StopOutcome>;
}

/** Load every flow's mapping, checking its kind against the flow's. Throws `MAPPING_INVALID` listing every error. */
export function loadFlowMappings(flows: readonly FlowConfig[]): Map<string, MappingSpec> {
  const mappings = new Map<string, MappingSpec>();
  const errors: string[] = [];
  for (const flow of flows) {
    try {
      const spec = loadMappingSpec(flow.mapping);
      if (spec.kind !== flow.kind) errors.push(`flow ${flow.name}: kind is ${flow.kind} but ${flow.mapping} is a ${spec.kind} mapping`);
      mappings.set(flow.name, spec);
    } catch (error) {
      errors.push(`flow ${flow.name}: ${describeError(error)}`);
    }
  }
  if (errors.length > 0) throw new ConnectorError('MAPPING_INVALID', errors.join('\n'), { details: { errors } });
  return mappings;
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger;
  let mappings = loadFlowMappings(config.flows);
  const statusTarget = config.export ? statusExportTarget(config.export) : null;

  // Everything started so far, stopped in reverse on failure or shutdown.
  const stops: { name: string; stop: () => Promise<void> | void }[] = [];
  const stopAll = async (): Promise<void> => {
    for (const { name, stop } of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        log.error({ err: error, component: name }, 'stopping a component failed');
      }
    }
  };

  try {
    // First taken, last released: nothing of this daemon touches the store without it.
    const lock = acquireStateLock(config.stateDir);
    stops.push({ name: 'state lock', stop: () => lock.release() });
    const db = openStore(storePath(config.stateDir));
    stops.push({ name: 'store', stop: () => void db.close() });
    const metrics = createMetrics({ db, clock });

    const exportFolders = [...(config.export ? [config.export.folder] : []), ...config.flows.map((f) => f.results)];
    for (const folder of exportFolders) fs.mkdirSync(folder, { recursive: true });
    // Not ready until every stage has started (recovery can take a while after a crash).
    let started = false;
    const readiness = () => Promise.resolve(started ? checkReadiness(db, exportFolders) : { ready: false, reasons: ['starting'] });

    let exporterRef: Exporter | null = null;
    let listener: WebhookListener | null = null;
    const urls: { webhook?: string; admin?: string; sandbox?: string } = {};
    if (config.webhook) {
      listener = createWebhookListener({ db, config: config.webhook, logger: log, clock, readiness, metrics, onStored: () => exporterRef?.wake() });
      urls.webhook = (await listener.start()).url;
      const started = listener;
      stops.push({ name: 'webhook', stop: () => started.stop() });
    }

    let sandbox: Sandbox | null = null;
    if (config.sandbox.enabled) {
      sandbox = await startSandbox({
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
      });
      urls.sandbox = sandbox.url;
      const started = sandbox;
      stops.push({ name: 'sandbox', stop: () => started.stop() });
      log.warn({ url: sandbox.url }, 'the built-in sandbox platform is running in-process (demo only; never in production)');
    }

    // The exporter reads `format` at each pass, so a SIGHUP can swap an acknowledgement format in place.
    const ackTargets = new Map<string, ExportTarget>(
      config.flows.map((flow) => [
        flow.name,
        { channel: ackChannel(flow.name), folder: flow.results, format: mappings.get(flow.name)!.acknowledgements, mode: 'perEvent' },
      ]),
    );
    const targets: ExportTarget[] = [...(statusTarget ? [statusTarget] : []), ...ackTargets.values()];
    const exporter = createExporter({ db, targets, logger: log, clock, metrics });
    exporterRef = exporter;
    await exporter.start();
    stops.push({ name: 'exporter', stop: () => exporter.stop() });

    const client: PlatformClient = createPlatformClient({
      baseUrl: sandbox?.url ?? config.platform.baseUrl,
      connectTimeoutMs: config.platform.connectTimeoutMs,
      headersTimeoutMs: config.platform.headersTimeoutMs,
      bodyTimeoutMs: config.platform.bodyTimeoutMs,
      connections: Math.max(4, config.delivery.concurrency * config.flows.length),
    });
    stops.push({ name: 'platform client', stop: () => client.close() });
    const dispatcher = createDispatcher({ db, flows: config.flows, platform: config.platform, delivery: config.delivery, client, logger: log, clock, metrics });
    dispatcher.start();
    // In-flight submissions get the shutdown bound; whatever is left is aborted and stays due.
    stops.push({ name: 'delivery', stop: () => dispatcher.stop(Math.max(0, config.shutdownTimeoutMs - 2_000)) });

    const intakes: Intake[] = [];
    for (const flow of config.flows) {
      const intake = createIntake({
        db,
        flow,
        sourceSystem: config.platform.sourceSystem,
        getMapping: () => mappings.get(flow.name)!,
        logger: log,
        clock,
        onRecorded: () => dispatcher.wake(),
        metrics,
      });
      await intake.start();
      intakes.push(intake);
      stops.push({ name: `intake ${flow.name}`, stop: () => intake.stop() });
    }

    const jobs: ScheduledJob[] = [
      { name: 'retry-sweep', cron: config.schedules.retrySweep, run: () => dispatcher.wake() },
      { name: 'housekeeping', cron: config.schedules.housekeeping, run: () => runHousekeeping({ db, config, logger: log, now: clock() }) },
      { name: 'summary', cron: config.schedules.summary, run: () => log.info({ summary: summarise(db, clock()) }, 'daily summary') },
    ];
    if (config.export?.mode === 'batch') {
      jobs.push({ name: 'export-batch', cron: config.export.batchCron, run: async () => void (await exporter.flush()) });
    }
    const scheduler: Scheduler = createScheduler(jobs, log);
    scheduler.start();
    stops.push({ name: 'schedules', stop: () => scheduler.stop() });

    if (config.metrics.enabled) {
      const admin: AdminServer = createAdminServer({ host: config.metrics.host, port: config.metrics.port, metrics, logger: log, readiness });
      urls.admin = (await admin.start()).url;
      stops.push({ name: 'admin', stop: () => admin.stop() });
    }

    started = true;
    log.info({ flows: config.flows.map((f) => `${f.name} (${f.kind}): ${f.inbox}`), urls, stateDir: path.resolve(config.stateDir) }, 'connector started');

    const reloadMappings = (): ReloadResult => {
      try {
        mappings = loadFlowMappings(config.flows);
        for (const [flow, target] of ackTargets) target.format = mappings.get(flow)!.acknowledgements;
        log.info('mappings reloaded');
        return { ok: true };
      } catch (error) {
        const errors = (error instanceof ConnectorError && Array.isArray(error.details.errors) ? error.details.errors : [describeError(error)]) as string[];
        log.error({ code: 'MAPPING_INVALID', errors }, 'mappings not reloaded: the new ones are invalid; the old ones stay in use');
        return { ok: false, errors };
      }
    };

    /** Re-read `webhook.tls` from the config file; a config or pair that does not load keeps the old pair. */
    const reloadTls = (): ReloadResult => {
      if (!listener || !config.webhook?.tls || !options.reloadConfig) return { ok: true };
      try {
        const fresh = options.reloadConfig().webhook?.tls;
        if (!fresh) throw new ConnectorError('CONFIG_INVALID', 'webhook.tls was removed: a restart is needed to switch the listener to plain HTTP');
        listener.setTls(fresh);
        log.info({ component: 'webhook' }, 'webhook TLS certificate and key reloaded');
        return { ok: true };
      } catch (error) {
        const code = error instanceof ConnectorError ? error.code : 'CONFIG_INVALID';
        log.error({ code, component: 'webhook', reason: describeError(error) }, 'webhook TLS certificate not reloaded; the old one stays in use');
        return { ok: false, errors: [describeError(error)] };
      }
    };

    let stopping: Promise<StopOutcome> | null = null;
    return {
      db,
      metrics,
      dispatcher,
      exporter,
      urls,
      sandbox,
      async scanNow() {
        await Promise.all(intakes.map((intake) => intake.scanNow()));
      },
      reloadMappings,
      reload() {
        const errors = [reloadMappings(), reloadTls()].flatMap((result) => (result.ok ? [] : result.errors));
        return errors.length === 0 ? { ok: true } : { ok: false, errors };
      },
      stop() {
        stopping ??= (async () => {
          log.info({ shutdownTimeoutMs: config.shutdownTimeoutMs }, 'connector stopping');
          // Delivery gets most of the bound for in-flight requests; the whole stop gets the bound
          // plus a little for closing, then gives up waiting (every state change is already
          // committed, so the next start recovers whatever was still open).
          let timer: NodeJS.Timeout | undefined;
          const bound = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs + 3_000);
          });
          const result = await Promise.race([stopAll().then(() => 'stopped' as const), bound]);
          clearTimeout(timer);
          if (result === 'timeout') log.error({ shutdownTimeoutMs: config.shutdownTimeoutMs }, 'stop took longer than its bound; exiting anyway');
          else log.info('connector stopped');
          return result;
        })();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
