/**
 * The `status` and `retry` commands' work: a summary of the outbox read from the store, and
 * requeueing finished rows. The CLI only parses arguments and prints.
 */
import fs from 'node:fs';
import type { Config } from '../config/schema.js';
import { scrubSecrets } from '../log.js';
import { openStore, storePath, type Db } from '../store/open-store.js';
import {
  countSubmissionsByState,
  listDeadLetters,
  listLastErrors,
  oldestPendingByFlow,
  requeueSubmissions,
  type RequeueTarget,
  type SubmissionBrief,
} from '../store/outbox.js';
import { systemClock, type Clock } from '../shared/types.js';
import { exchangeStateOf } from '../store/exchanges.js';

export interface FlowStatus {
  flow: string;
  counts: Record<string, number>;
  /** Age of the oldest pending or in-flight row, in ms; null when none waits. */
  oldestPendingAgeMs: number | null;
}

/** A flow's exchange with 1C (EnterpriseData through a folder), as `status` prints it. */
export interface ExchangeStatus {
  flow: string;
  node: string;
  peer: string;
  /** The version agreed; null before 1C's settings arrived, or when they share none with the flow (`noCommonVersion`). */
  version: string | null;
  /** 1C's settings arrived and share no EnterpriseData version with the flow: 1C cannot exchange. */
  noCommonVersion: boolean;
  lastTakenNo: number;
  /** The last of 1C's messages our reply in the folder acknowledges (0: only our settings); null before any reply was written. */
  acknowledgedNo: number | null;
  /** Our reply is decided but not yet written into the folder. */
  replyDue: boolean;
  /** When 1C last wrote a message (ISO), or null. */
  lastMessageAt: string | null;
}

export interface OutboxStatus {
  flows: FlowStatus[];
  exchanges: ExchangeStatus[];
  lastErrors: SubmissionBrief[];
  deadLetters: SubmissionBrief[];
}

/** A flow that exchanges with 1C, as the config names its codes. */
export interface ExchangeFlow {
  name: string;
  enterpriseData?: { node: string; peer: string } | undefined;
}

/** The exchange of each flow that has one, as the store holds it (nothing yet before its first message, or without a store). */
export function readExchangeStatus(db: Db | null, flows: readonly ExchangeFlow[]): ExchangeStatus[] {
  return flows.flatMap((flow) => {
    const codes = flow.enterpriseData;
    if (!codes) return [];
    const state = db === null ? undefined : exchangeStateOf(db, { flow: flow.name, node: codes.node, peer: codes.peer });
    return [
      {
        flow: flow.name,
        node: codes.node,
        peer: codes.peer,
        version: state?.agreedVersion ?? null,
        noCommonVersion: state !== undefined && state.settingsAt !== null && state.agreedVersion === null,
        lastTakenNo: state?.lastTakenNo ?? 0,
        acknowledgedNo: state?.acknowledgedNo ?? null,
        replyDue: state?.replyDue === 1,
        lastMessageAt: state?.lastMessageAt ? new Date(state.lastMessageAt).toISOString() : null,
      },
    ];
  });
}

/** Read the summary. `flowNames` lists configured flows so that an empty flow still shows. */
export function readOutboxStatus(db: Db, now: number, flowNames: readonly string[] = [], exchangeFlows: readonly ExchangeFlow[] = []): OutboxStatus {
  const flows = new Map<string, FlowStatus>();
  const flowOf = (name: string) => {
    let flow = flows.get(name);
    if (!flow) flows.set(name, (flow = { flow: name, counts: {}, oldestPendingAgeMs: null }));
    return flow;
  };
  for (const name of flowNames) flowOf(name);
  for (const stateCount of countSubmissionsByState(db)) flowOf(stateCount.flow).counts[stateCount.state] = stateCount.count;
  for (const oldest of oldestPendingByFlow(db)) flowOf(oldest.flow).oldestPendingAgeMs = Math.max(0, now - oldest.createdAt);
  return {
    flows: [...flows.values()],
    exchanges: readExchangeStatus(db, exchangeFlows),
    lastErrors: listLastErrors(db, 10).map(scrubMessage),
    deadLetters: listDeadLetters(db).map(scrubMessage),
  };
}

/**
 * An error's message scrubbed of secrets (one stored before the platform's answers were scrubbed
 * at the boundary may hold one); its ids are the ERP's and the platform's, shown as they are.
 */
const scrubMessage = (brief: SubmissionBrief): SubmissionBrief => (brief.message === null ? brief : { ...brief, message: scrubSecrets(brief.message) });

/** `status` for a config: read-only, and an empty summary when the store does not exist yet. */
export function statusForConfig(config: Config, clock: Clock = systemClock): OutboxStatus {
  const file = storePath(config.stateDir);
  const names = config.flows.map((flow) => flow.name);
  if (!fs.existsSync(file)) {
    return {
      flows: names.map((flow) => ({ flow, counts: {}, oldestPendingAgeMs: null })),
      exchanges: readExchangeStatus(null, config.flows),
      lastErrors: [],
      deadLetters: [],
    };
  }
  const db = openStore(file, { readonly: true });
  try {
    return readOutboxStatus(db, clock(), names, config.flows);
  } finally {
    db.close();
  }
}

/** `retry` for a config: requeue and return how many rows went back to pending. */
export function requeueForConfig(config: Config, target: RequeueTarget, flow?: string, clock: Clock = systemClock): number {
  const db = openStore(storePath(config.stateDir));
  try {
    return requeueSubmissions(db, target, clock(), flow);
  } finally {
    db.close();
  }
}

/** The summary as text for people. */
export function formatOutboxStatus(status: OutboxStatus): string {
  const lines: string[] = ['Outbox'];
  for (const flow of status.flows) {
    const counts = Object.entries(flow.counts)
      .map(([state, count]) => `${state} ${count}`)
      .join(', ');
    const age = flow.oldestPendingAgeMs === null ? '' : `; oldest pending ${formatAge(flow.oldestPendingAgeMs)}`;
    lines.push(`  ${flow.flow}: ${counts || 'empty'}${age}`);
  }
  if (status.exchanges.length > 0) {
    lines.push('', 'Exchanges with 1C');
    for (const exchange of status.exchanges) {
      const { acknowledgedNo, version } = exchange;
      const agreed =
        version !== null ? `EnterpriseData ${version}` : exchange.noCommonVersion ? "no version shared with 1C's settings" : 'no settings from 1C yet';
      const acknowledged = acknowledgedNo === null ? 'nothing yet' : acknowledgedNo === 0 ? 'our settings' : `message ${acknowledgedNo}`;
      lines.push(
        `  ${exchange.flow}: 1C ${exchange.peer} -> ${exchange.node}; ${agreed}; last taken ${exchange.lastTakenNo || 'none'}; acknowledged ${acknowledged}${exchange.replyDue ? ' (reply not yet written)' : ''}; 1C last wrote ${exchange.lastMessageAt ?? 'never'}`,
      );
    }
  }
  lines.push('', `Last errors (${status.lastErrors.length})`);
  for (const lastError of status.lastErrors)
    lines.push(
      `  ${new Date(lastError.updatedAt).toISOString()} ${lastError.flow} ${lastError.externalId} [${lastError.state}] ${lastError.errorCode}: ${lastError.message ?? ''}`,
    );
  lines.push('', `Dead letters (${status.deadLetters.length})`);
  for (const dead of status.deadLetters) lines.push(`  ${dead.flow} ${dead.externalId} after ${dead.attempts} attempt(s): ${dead.message ?? ''}`);
  return lines.map(printable).join('\n');
}

/**
 * A line safe to print on a terminal: the platform's words (problem details) could carry escape
 * sequences that rewrite the operator's screen, so control characters are shown as `\\uXXXX`.
 */
function printable(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function formatAge(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
