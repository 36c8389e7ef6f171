/**
 * Prometheus metrics (prom-client), on a registry of our own. Counters are incremented by the
 * stages that see the event; queue depth, oldest pending age and export lag are read from the store
 * at scrape time, so they are right even after a restart. What only the running daemon knows (each
 * flow's gate, the readiness verdict) is read at scrape time too, from the sources `attach` is given.
 *
 * The dashboard and the alert rules of packaging/monitoring/ use these names: a test scrapes a real
 * daemon and fails on any name they use that is not here.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../store/open-store.js';
import { countSubmissionsByState, oldestPendingByFlow } from '../store/outbox.js';
import { latestExchanges } from '../store/exchanges.js';
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
  /** Requests recorded from input files (new ones, and corrections of rejected or dead ones), by flow. */
  requestsRecorded: Counter<'flow'>;
  /** 1C's exchange messages read, by flow and what each was taken as (settings, taken, stale, refused). */
  exchangeMessages: Counter<'flow' | 'kind'>;
  /** Files a reader of ours failed on for a reason of its own (`READER_FAULT`: a bug), by flow. */
  readerFaults: Counter<'flow'>;
  /**
   * Add what only the running daemon can answer: each flow's gate and the readiness verdict, read at
   * every scrape; and the configured flows' counter series, at zero from the start. Call it once,
   * when delivery exists; until then those gauges are not exported at all (rather than wrongly 0).
   */
  attach(live: LiveState): void;
}

/** What the composition root hands `Metrics.attach`: live state that the store does not hold. */
export interface LiveState {
  /** Every configured flow's name. */
  flows: readonly string[];
  /** The flows that exchange with 1C (`enterpriseData`). */
  exchangeFlows?: readonly string[];
  /** A flow's gate mode (`closed`, `open`, `paused`), undefined when delivery does not know the flow. */
  gateMode(flow: string): string | undefined;
  /** The verdict `/readyz` answers with. */
  readiness(): Promise<{ ready: boolean }>;
}

/**
 * The values the stages give these labels (delivery's gate modes, intake's and delivery's
 * outcomes). Listed here only to start each flow's series at zero and to export every gate mode of a
 * flow: a counter whose series appears already at 1 shows no increase to `increase()`, so an alert
 * on the first dead letter after a start would never fire. A value missing here is still counted.
 */
const GATE_MODES = ['closed', 'open', 'paused'] as const;
const FILE_OUTCOMES = ['archived', 'rejected', 'duplicate'] as const;
const SUBMISSION_OUTCOMES = ['accepted', 'retry', 'rejected', 'held', 'paused', 'dead'] as const;
const EXCHANGE_KINDS = ['settings', 'taken', 'stale', 'refused'] as const;

export function createMetrics(options: { db: Db; clock?: () => number; defaultMetrics?: boolean }): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'connector_' });
  const scrape: ScrapeSources = { registry, db: options.db, clock: options.clock ?? Date.now };
  // The families in the order of the pipeline, each stage's counters and its store gauges together.
  const intake = intakeMetrics(scrape);
  const exchange = exchangeMetrics(scrape);
  const delivery = deliveryMetrics(scrape);
  const webhook = webhookMetrics(scrape);
  const exporter = exportMetrics(scrape);
  const counters: FlowCounters = { ...intake, ...exchange, ...delivery };
  return {
    registry,
    files: intake.files,
    submissions: delivery.submissions,
    retries: delivery.retries,
    webhookEvents: webhook.webhookEvents,
    exportFiles: exporter.exportFiles,
    requestsRecorded: intake.requestsRecorded,
    exchangeMessages: exchange.exchangeMessages,
    readerFaults: intake.readerFaults,
    attach: (live) => {
      startFlowSeries(counters, live);
      addLiveGauges(registry, live);
    },
  };
}

/** What a stage's families are made with: our registry, and the store and clock its gauges read at scrape time. */
interface ScrapeSources {
  registry: Registry;
  db: Db;
  clock: () => number;
}

/** Intake: files taken, requests recorded, reader faults. */
function intakeMetrics({ registry }: ScrapeSources): Pick<Metrics, 'files' | 'requestsRecorded' | 'readerFaults'> {
  const files = new Counter({
    name: 'connector_files_total',
    help: 'Input files taken, by flow and outcome.',
    labelNames: ['flow', 'outcome'] as const,
    registers: [registry],
  });
  const requestsRecorded = new Counter({
    name: 'connector_requests_recorded_total',
    help: 'Requests recorded from input files (new and corrected), by flow.',
    labelNames: ['flow'] as const,
    registers: [registry],
  });
  const readerFaults = new Counter({
    name: 'connector_reader_faults_total',
    help: 'Files a reader of the connector failed on for a reason of its own (READER_FAULT: a bug, reported with the file), by flow.',
    labelNames: ['flow'] as const,
    registers: [registry],
  });
  return { files, requestsRecorded, readerFaults };
}

/** Intake's exchange with 1C: messages read, and from the store the last message written, taken and acknowledged. */
function exchangeMetrics({ registry, db }: ScrapeSources): Pick<Metrics, 'exchangeMessages'> {
  const exchangeMessages = new Counter({
    name: 'connector_exchange_messages_total',
    help: "1C's exchange messages read, by flow and what each was taken as (settings, taken, stale, refused).",
    labelNames: ['flow', 'kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'connector_exchange_last_message_timestamp_seconds',
    help: "When 1C last wrote a message into the flow's exchange folder (Unix time), by flow.",
    labelNames: ['flow'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of latestExchanges(db)) if (row.lastMessageAt !== null) this.set({ flow: row.flow }, row.lastMessageAt / 1000);
    },
  });
  new Gauge({
    name: 'connector_exchange_last_taken_message',
    help: "The number of 1C's last exchange message taken, by flow.",
    labelNames: ['flow'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of latestExchanges(db)) this.set({ flow: row.flow }, row.lastTakenNo);
    },
  });
  new Gauge({
    name: 'connector_exchange_acknowledged_message',
    help: "The number of 1C's last message our reply in the folder acknowledges (lags the last taken while the reply is not yet written), by flow.",
    labelNames: ['flow'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of latestExchanges(db)) if (row.acknowledgedNo !== null) this.set({ flow: row.flow }, row.acknowledgedNo);
    },
  });
  return { exchangeMessages };
}

/** Delivery: attempts and retries, and from the store the queue depth and the oldest pending age. */
function deliveryMetrics({ registry, db, clock }: ScrapeSources): Pick<Metrics, 'submissions' | 'retries'> {
  const submissions = new Counter({
    name: 'connector_submissions_total',
    help: 'Submission attempts, by flow and outcome.',
    labelNames: ['flow', 'outcome'] as const,
    registers: [registry],
  });
  const retries = new Counter({ name: 'connector_retries_total', help: 'Retries scheduled, by flow.', labelNames: ['flow'] as const, registers: [registry] });
  new Gauge({
    name: 'connector_queue_depth',
    help: 'Submissions in the store, by flow and state.',
    labelNames: ['flow', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of countSubmissionsByState(db)) this.set({ flow: row.flow, state: row.state }, row.count);
    },
  });
  new Gauge({
    name: 'connector_oldest_pending_age_seconds',
    help: 'Age of the oldest submission not yet delivered, by flow.',
    labelNames: ['flow'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of oldestPendingByFlow(db)) this.set({ flow: row.flow }, Math.max(0, (clock() - row.createdAt) / 1000));
    },
  });
  return { submissions, retries };
}

/** The webhook listener: requests by outcome. */
function webhookMetrics({ registry }: ScrapeSources): Pick<Metrics, 'webhookEvents'> {
  const webhookEvents = new Counter({
    name: 'connector_webhook_events_total',
    help: 'Webhook requests, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { webhookEvents };
}

/** Export: files written, and from the store the age of the oldest record not yet written. */
function exportMetrics({ registry, db, clock }: ScrapeSources): Pick<Metrics, 'exportFiles'> {
  const exportFiles = new Counter({
    name: 'connector_export_files_total',
    help: 'Files written to ERP import folders, by channel.',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'connector_export_lag_seconds',
    help: 'Age of the oldest record not yet written to its import folder, by channel (0 when none).',
    labelNames: ['channel'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of pendingExportsByChannel(db)) this.set({ channel: row.channel }, Math.max(0, (clock() - row.oldestAt) / 1000));
    },
  });
  return { exportFiles };
}

/** The counters with a series per configured flow. */
type FlowCounters = Pick<Metrics, 'files' | 'requestsRecorded' | 'readerFaults' | 'exchangeMessages' | 'submissions' | 'retries'>;

/** Each configured flow's counter series, at zero from the start (see GATE_MODES). */
function startFlowSeries(counters: FlowCounters, live: LiveState): void {
  for (const flow of live.flows) {
    counters.requestsRecorded.inc({ flow }, 0);
    counters.retries.inc({ flow }, 0);
    counters.readerFaults.inc({ flow }, 0);
    for (const outcome of FILE_OUTCOMES) counters.files.inc({ flow, outcome }, 0);
    for (const outcome of SUBMISSION_OUTCOMES) counters.submissions.inc({ flow, outcome }, 0);
  }
  for (const flow of live.exchangeFlows ?? []) for (const kind of EXCHANGE_KINDS) counters.exchangeMessages.inc({ flow, kind }, 0);
}

/** What only the running daemon knows, read at every scrape: each flow's gate and the readiness verdict. */
function addLiveGauges(registry: Registry, live: LiveState): void {
  new Gauge({
    name: 'connector_flow_gate',
    help: "Each flow's delivery gate: 1 for the mode it is in (closed: sending; open: the platform looks down, probing; paused: the token was refused, probing), 0 for the others.",
    labelNames: ['flow', 'mode'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const flow of live.flows) {
        const current = live.gateMode(flow);
        if (current === undefined) continue;
        for (const mode of new Set<string>([...GATE_MODES, current])) this.set({ flow, mode }, mode === current ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'connector_ready',
    help: '1 when /readyz answers ready (the store takes writes, every export folder is writable), else 0.',
    registers: [registry],
    async collect() {
      const verdict = await live.readiness().catch(() => ({ ready: false }));
      this.set(verdict.ready ? 1 : 0);
    },
  });
}
