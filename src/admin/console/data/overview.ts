/**
 * `/`: per flow, counts by state, today's files, the last error, the oldest pending age and its last
 * 24 hours by outcome; the webhook listener with its last 24 hours, the exporter, readiness.
 */
import { countFilesSince } from '../../../store/console-files.js';
import { exchangeStateOf } from '../../../store/exchanges.js';
import { countEventsSince, lastWrittenExport, setAsideExports, recentEvents } from '../../../store/console-events.js';
import { lastErrorOfFlow } from '../../../store/console-submissions.js';
import { countSubmissionsByState, oldestPendingByFlow } from '../../../store/outbox.js';
import { pendingExportsByChannel } from '../../../store/stats.js';
import type { ConsoleDeps, FlowGateView } from '../deps.js';
import { iso, startOfLocalDay } from '../format.js';
import { exchangeSummary, type ExchangeSummary } from './exchange.js';
import { eventHistory, requestHistory, type EventOutcome, type HourlyHistory, type RequestOutcome } from './history.js';

/** Webhook outcomes that stored an event; every other outcome is a refusal (its error code). */
const STORED_OUTCOMES = new Set(['applied', 'stored', 'duplicate', 'WEBHOOK_EVENT_CONFLICT']);

export interface FlowOverview {
  name: string;
  kind: string;
  /** Submissions by state (pending, in_flight, accepted, rejected, held, dead). */
  counts: Record<string, number>;
  /** Files taken since local midnight, by state. */
  filesToday: Record<string, number>;
  lastError: {
    externalId: string;
    code: string | null;
    message: string | null;
    status: number | null;
    result: string | null;
    attempts: number;
    at: string | null;
  } | null;
  oldestPendingAgeMs: number | null;
  gate: FlowGateView | null;
  /** Per hour of the last 24, how many submissions had an attempt end in each outcome (`history.ts`). */
  lastDay: HourlyHistory<RequestOutcome>;
  /** The flow's exchange with 1C, when it has one (`enterpriseData`). */
  exchange: ExchangeSummary | null;
}

export interface OverviewData {
  page: 'overview';
  generatedAt: string;
  readiness: { ready: boolean; reasons: readonly string[] };
  flows: FlowOverview[];
  webhook: {
    url: string | null;
    eventsToday: number;
    lastEvent: { eventId: string; orderId: string | null; status: string | null; receivedAt: string | null } | null;
    /** Refused webhook requests since the daemon started, by error code. */
    refusedSinceStart: Record<string, number>;
    /** Events stored per hour of the last 24, applied or not (`history.ts`). */
    lastDay: HourlyHistory<EventOutcome>;
  } | null;
  exporter: {
    channels: { channel: string; pending: number; oldestPendingAgeMs: number | null; lastFile: { fileName: string | null; writtenAt: string | null } | null }[];
    setAside: number;
  };
}

export async function overviewData(deps: ConsoleDeps): Promise<OverviewData> {
  const { db } = deps;
  const now = deps.clock();
  const today = startOfLocalDay(now);
  const counts = countSubmissionsByState(db);
  const oldest = new Map(oldestPendingByFlow(db).map((row) => [row.flow, row.createdAt]));
  const lastDay = requestHistory(
    db,
    deps.flows.map((flow) => flow.name),
    now,
  );
  const flows = deps.flows.map((flow): FlowOverview => {
    const lastError = lastErrorOfFlow(db, flow.name);
    const oldestAt = oldest.get(flow.name);
    return {
      name: flow.name,
      kind: flow.kind,
      counts: Object.fromEntries(counts.filter((c) => c.flow === flow.name).map((c) => [c.state, c.count])),
      filesToday: Object.fromEntries(countFilesSince(db, flow.name, today).map((c) => [c.state, c.count])),
      lastError: lastError
        ? {
            externalId: lastError.externalId,
            code: lastError.errorCode,
            message: lastError.message,
            status: lastError.lastStatus,
            result: lastError.result,
            attempts: lastError.attempts,
            at: iso(lastError.updatedAt),
          }
        : null,
      oldestPendingAgeMs: oldestAt === undefined ? null : Math.max(0, now - oldestAt),
      gate: deps.operator.flowGate(flow.name) ?? null,
      lastDay: lastDay.get(flow.name)!,
      exchange: flow.enterpriseData
        ? exchangeSummary(flow, exchangeStateOf(db, { flow: flow.name, node: flow.enterpriseData.node, peer: flow.enterpriseData.peer }))
        : null,
    };
  });

  let webhook: OverviewData['webhook'] = null;
  if (deps.webhook) {
    const [last] = recentEvents(db, 1);
    const refused: Record<string, number> = {};
    for (const { labels, value } of (await deps.metrics.webhookEvents.get()).values) {
      const outcome = String(labels.outcome ?? '');
      if (!STORED_OUTCOMES.has(outcome) && value > 0) refused[outcome] = value;
    }
    webhook = {
      url: deps.webhook.url,
      eventsToday: countEventsSince(db, today),
      lastEvent: last ? { eventId: last.eventId, orderId: last.orderId, status: last.status, receivedAt: iso(last.receivedAt) } : null,
      refusedSinceStart: refused,
      lastDay: eventHistory(db, now),
    };
  }

  const pending = new Map(pendingExportsByChannel(db).map((row) => [row.channel, row]));
  const channels = deps.exportChannels.map((channel) => {
    const waiting = pending.get(channel);
    const last = lastWrittenExport(db, channel);
    return {
      channel,
      pending: waiting?.count ?? 0,
      oldestPendingAgeMs: waiting ? Math.max(0, now - waiting.oldestAt) : null,
      lastFile: last ? { fileName: last.fileName, writtenAt: iso(last.writtenAt) } : null,
    };
  });

  const readiness = await deps.readiness().catch((error: unknown) => ({ ready: false, reasons: [`readiness check failed: ${String(error)}`] }));
  return {
    page: 'overview',
    generatedAt: new Date(now).toISOString(),
    readiness: { ready: readiness.ready, reasons: readiness.reasons },
    flows,
    webhook,
    exporter: { channels, setAside: setAsideExports(db, 0).total },
  };
}
