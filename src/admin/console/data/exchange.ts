/**
 * `/flows/<flow>/exchange`: a flow's exchange with 1C (EnterpriseData through a folder), as the
 * store holds it: the codes and file names (as 1C names its messages, and as our reply was
 * written), what 1C declared and the version agreed, the last message taken and what our reply
 * acknowledges, when 1C last wrote, the requests still waiting, what waits on a person
 * (`exchange-problems.ts`), and the last messages read with what each became.
 */
import type { FlowConfig } from '../../../config/flow-schema.js';
import { replyName, replyTransliterated, transliterate } from '../../../exchange/message-names.js';
import { exchangeStateOf, listExchangeMessageFiles, type ExchangeMessageKind, type ExchangeNameForm, type ExchangeState } from '../../../store/exchanges.js';
import { countSubmissionsByState } from '../../../store/outbox.js';
import type { ConsoleDeps } from '../deps.js';
import { iso } from '../format.js';
import { exchangeProblems, sharesNoVersion, type ExchangeProblems } from './exchange-problems.js';

/** Messages listed on the page. */
export const EXCHANGE_MESSAGES_SHOWN = 20;

export interface ExchangeSummary {
  node: string;
  peer: string;
  /** The name 1C writes its messages under (as it named the last one), and the name of our reply (as last written, else as it will be). */
  peerMessageName: string;
  replyName: string;
  /** Under which name 1C wrote its last message to us; null before any, or when the codes read the same either way. */
  peerNameForm: ExchangeNameForm | null;
  /** 1C names its messages otherwise than `transliterateFileNames` says (the reply follows 1C). */
  namesDisagree: boolean;
  /** Our settings, answering 1C's, are in the folder and no data message has been acknowledged yet: 1C's wizard may read them. */
  settingsAnswered: boolean;
  /** 1C's settings arrived and share no version with the flow (`exchange-problems.ts` says which). */
  noCommonVersion: boolean;
  /** The version both sides read (settings), or the version of the last data message; null before the handshake. */
  agreedVersion: string | null;
  /** Settings received (the handshake is done). */
  settingsAt: string | null;
  lastTakenNo: number;
  lastTakenAt: string | null;
  lastMessageAt: string | null;
  /** What our reply in the folder says: the last of 1C's messages received; null before any reply. */
  acknowledgedNo: number | null;
  /** Our reply is decided but not yet in the folder (it is written again at each scan). */
  replyDue: boolean;
  replyWrittenAt: string | null;
  /** Our own last message number, and the last of ours 1C says it accepted. */
  ourMessageNo: number;
  peerAcceptedNo: number;
}

export interface ExchangeMessageItem {
  fileId: number;
  fileName: string;
  kind: ExchangeMessageKind;
  messageNo: number | null;
  receivedNo: number | null;
  version: string | null;
  at: string | null;
  fileState: string;
  requests: number;
  problems: number;
}

export interface ExchangeData extends ExchangeProblems {
  page: 'exchange';
  flow: string;
  exchange: ExchangeSummary;
  ourVersions: readonly string[];
  /** The versions and object types 1C declared; null before its settings arrived. */
  peerVersions: string[] | null;
  peerObjectTypes: { name: string; sending: string; receiving: string }[] | null;
  /** Requests of the flow not yet delivered (pending or in flight). */
  waiting: number;
  /** Problems in the messages listed (bad documents, refused messages). */
  problems: number;
  messages: ExchangeMessageItem[];
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The summary of a flow's exchange, for the overview's card and the exchange page. */
export function exchangeSummary(flow: FlowConfig, state: ExchangeState | undefined): ExchangeSummary | null {
  const exchange = flow.enterpriseData;
  if (!exchange) return null;
  const peerNameForm = state?.peerNameForm ?? null;
  const plainPeerName = `Message_${exchange.peer}_${exchange.node}.xml`;
  const settingsAnswered = state?.replyFormat === 'settings' && state.replyDue === 0 && state.acknowledgedNo === 0;
  return {
    node: exchange.node,
    peer: exchange.peer,
    peerMessageName: peerNameForm === 'transliterated' ? transliterate(plainPeerName) : plainPeerName,
    replyName: state?.replyName ?? replyName(exchange, replyTransliterated(exchange.transliterateFileNames, peerNameForm)),
    peerNameForm,
    namesDisagree: peerNameForm !== null && (peerNameForm === 'transliterated') !== exchange.transliterateFileNames,
    settingsAnswered,
    noCommonVersion: sharesNoVersion(state),
    agreedVersion: state?.agreedVersion ?? null,
    settingsAt: iso(state?.settingsAt ?? null),
    lastTakenNo: state?.lastTakenNo ?? 0,
    lastTakenAt: iso(state?.lastTakenAt ?? null),
    lastMessageAt: iso(state?.lastMessageAt ?? null),
    acknowledgedNo: state?.acknowledgedNo ?? null,
    replyDue: state?.replyDue === 1,
    replyWrittenAt: iso(state?.replyWrittenAt ?? null),
    ourMessageNo: state?.sentNo ?? 0,
    peerAcceptedNo: state?.peerReceivedNo ?? 0,
  };
}

/** The exchange page's data, or null when the flow has no exchange. */
export function exchangeData(deps: ConsoleDeps, flowName: string): ExchangeData | null {
  const flow = deps.flows.find((candidate) => candidate.name === flowName);
  const exchange = flow?.enterpriseData;
  if (!flow || !exchange) return null;
  const state = exchangeStateOf(deps.db, { flow: flow.name, node: exchange.node, peer: exchange.peer });
  const messages = listExchangeMessageFiles(deps.db, flow.name, EXCHANGE_MESSAGES_SHOWN).map((m): ExchangeMessageItem => ({
    fileId: m.fileId,
    fileName: m.originalName,
    kind: m.kind,
    messageNo: m.messageNo,
    receivedNo: m.receivedNo,
    version: m.format === null ? null : (/\/EnterpriseData\/([\d.]+)/.exec(m.format)?.[1] ?? null),
    at: iso(m.recordedAt),
    fileState: m.state,
    requests: m.requestCount,
    problems: m.problemCount,
  }));
  const waiting = countSubmissionsByState(deps.db)
    .filter((count) => count.flow === flow.name && (count.state === 'pending' || count.state === 'in_flight'))
    .reduce((sum, count) => sum + count.count, 0);
  return {
    page: 'exchange',
    flow: flow.name,
    exchange: exchangeSummary(flow, state)!,
    ourVersions: exchange.versions,
    peerVersions: json<string[]>(state?.peerVersions ?? null),
    peerObjectTypes: json<{ name: string; sending: string; receiving: string }[]>(state?.peerObjectTypes ?? null),
    waiting,
    problems: messages.reduce((sum, m) => sum + m.problems, 0),
    messages,
    ...exchangeProblems(deps.db, flow, state)!,
  };
}
