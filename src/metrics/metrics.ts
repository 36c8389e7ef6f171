/**
 * Prometheus metrics (prom-client), on a registry of our own. Counters are incremented by the
 * stages that see the event; queue depth, oldest pending age and export lag are read from the store
 * at scrape time, so they are right even after a restart.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../store/open-store.js';
import { countSubmissionsByState, oldestPendingByFlow } from '../store/outbox.js';
import { pendingExportsByChannel } from '../store/stats.js';

export interface Metrics {
  registry: Registry;
  /** Files taken from an inbox, by flow and outcome (archived, rejected, duplicate). */
  files: Counter<'flow' | 'outcome'>;
  /** Submission attempts by flow and outcome (accepted, retry, rejected, held, paused, dead). */
  submissions: Counter<'flow' | 'outcome'>;
  /** Retries scheduled, by flow. */
  retries: Counter<'flow'>;
  /**
   * Webhook requests by outcome: `applied`, `stored`, `duplicate` for events taken, else the code it
   * was refused or failed with (`WEBHOOK_SIGNATURE_INVALID`, `WEBHOOK_BODY_INVALID`, `WEBHOOK_STOPPING`,
   * `WEBHOOK_STORE_FAILED`, `WEBHOOK_EVENT_CONFLICT`, …).
   */
  webhookEvents: Counter<'outcome'>;
  /** Export files written, by channel. */
  exportFiles: Counter<'channel'>;
}

export function createMetrics(options: { db: Db; clock?: () => number; defaultMetrics?: boolean }): Metrics {
  const registry = new Registry();
  const clock = options.clock ?? Date.now;
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'connector_' });

  const files = new Counter({
    name: 'connector_files_total',
    help: 'Input files taken, by flow and outcome.',
    labelNames: ['flow', 'outcome'] as const,
    registers: [registry],
  });
  const submissions = new Counter({
    name: 'connector_submissions_total',
    help: 'Submission attempts, by flow and outcome.',
    labelNames: ['flow', 'outcome'] as const,
    registers: [registry],
  });
  const retries = new Counter({ name: 'connector_retries_total', help: 'Retries scheduled, by flow.', labelNames: ['flow'] as const, registers: [registry] });
  const webhookEvents = new Counter({
    name: 'connector_webhook_events_total',
    help: 'Webhook requests, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const exportFiles = new Counter({
    name: 'connector_export_files_total',
    help: 'Files written to ERP import folders, by channel.',
    labelNames: ['channel'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'connector_queue_depth',
    help: 'Submissions in the store, by flow and state.',
    labelNames: ['flow', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of countSubmissionsByState(options.db)) this.set({ flow: row.flow, state: row.state }, row.count);
    },
  });
  new Gauge({
    name: 'connector_oldest_pending_age_seconds',
    help: 'Age of the oldest submission not yet delivered, by flow.',
    labelNames: ['flow'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of oldestPendingByFlow(options.db)) this.set({ flow: row.flow }, Math.max(0, (clock() - row.createdAt) / 1000));
    },
  });
  new Gauge({
    name: 'connector_export_lag_seconds',
    help: 'Age of the oldest record not yet written to its import folder, by channel (0 when none).',
    labelNames: ['channel'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of pendingExportsByChannel(options.db)) this.set({ channel: row.channel }, Math.max(0, (clock() - row.oldestAt) / 1000));
    },
  });

  return { registry, files, submissions, retries, webhookEvents, exportFiles };
}
