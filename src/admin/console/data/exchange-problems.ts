/**
 * What a flow's exchange with 1C waits on a person for, shown on its exchange page and on
 * /attention alike:
 *
 * - the message files in its folder for other codes, as the intake's last scan found them
 *   (`exchange_folders`), each with the codes its name carries, read against the flow's codes;
 * - 1C's settings that share no EnterpriseData version with the flow: 1C then keeps the version
 *   "0.0" and cannot export at all, until settings with a shared version arrive (a data message
 *   taken in a version of ours also shows one is shared).
 */
import { ENTERPRISEDATA_VERSIONS } from '../../../config/enterprisedata-schema.js';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { replyName } from '../../../exchange/message-names.js';
import { describeStrayMessage, strayMessageOf, type StrayKind } from '../../../exchange/stray-messages.js';
import { compareVersions } from '../../../exchange/versions.js';
import { strayMessagesOf } from '../../../store/exchange-folders.js';
import type { ExchangeState } from '../../../store/exchanges.js';
import type { Db } from '../../../store/open-store.js';
import { iso } from '../format.js';

/** A message file in the folder for other codes. */
export interface StrayMessageItem {
  name: string;
  kind: StrayKind;
  /** The codes its name carries (null for a name whose codes cannot be told apart); `prefix` stands before 1C's UUID. */
  prefix: string | null;
  from: string | null;
  to: string | null;
  /** The flow's codes, which the name was read against, and the name of its reply. */
  node: string;
  peer: string;
  reply: string;
  /** When a scan first saw it. */
  seenAt: string | null;
  /** What it tells and what to do, in English (for a script; the page words it in its language). */
  message: string;
}

/** 1C's settings share no version with the flow. */
export interface VersionProblem {
  /** The versions 1C declared, and the flow's. */
  theirs: string[];
  ours: string[];
  /** 1C's versions this program reads, were the flow to declare them ([]: 1C's configuration must be updated). */
  readable: string[];
  /** The versions this program reads at most: the first and the last. */
  first: string;
  last: string;
}

export interface ExchangeProblems {
  strayMessages: StrayMessageItem[];
  versionProblem: VersionProblem | null;
}

/** How many things the problems are (each stray file one, a version problem one). */
export const exchangeProblemCount = (problems: ExchangeProblems | null): number =>
  problems === null ? 0 : problems.strayMessages.length + (problems.versionProblem ? 1 : 0);

/** The problems of a flow's exchange; null for a flow without one. */
export function exchangeProblems(db: Db, flow: FlowConfig, state: ExchangeState | undefined): ExchangeProblems | null {
  const exchange = flow.enterpriseData;
  if (!exchange) return null;
  const replied = (state?.replyWrittenAt ?? null) !== null;
  const strayMessages = strayMessagesOf(db, flow.name).flatMap((recorded): StrayMessageItem[] => {
    const stray = strayMessageOf(recorded.name, exchange, replied);
    if (stray === null) return [];
    return [
      {
        ...stray,
        node: exchange.node,
        peer: exchange.peer,
        reply: replyName(exchange, false),
        seenAt: iso(recorded.seenAt),
        message: describeStrayMessage(stray, exchange),
      },
    ];
  });
  return { strayMessages, versionProblem: versionProblemOf(exchange.versions, state) };
}

/** 1C's settings arrived and share no version with the flow: settings set the version agreed, null when none is shared; a data message taken sets its own. */
export function sharesNoVersion(state: ExchangeState | undefined): state is ExchangeState {
  return state !== undefined && state.settingsAt !== null && state.agreedVersion === null;
}

function versionProblemOf(ours: readonly string[], state: ExchangeState | undefined): VersionProblem | null {
  if (!sharesNoVersion(state)) return null;
  const theirs = state.peerVersions === null ? [] : (JSON.parse(state.peerVersions) as string[]);
  return {
    theirs,
    ours: [...ours],
    readable: theirs.filter((version) => ENTERPRISEDATA_VERSIONS.some((known) => compareVersions(known, version) === 0)),
    first: ENTERPRISEDATA_VERSIONS[0],
    last: ENTERPRISEDATA_VERSIONS.at(-1)!,
  };
}
