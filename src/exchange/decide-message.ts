/**
 * What one of 1C's messages is to the exchange, decided from its header and what the store
 * remembers, as 1C's own correspondent code decides it (the Standard Subsystems Library's
 * `DataExchangeXDTOServer`): pure, table-tested.
 *
 * - a message from or to other codes is refused (it is another exchange's, or a mistake in the codes);
 * - the bare EnterpriseData format is 1C's settings (the handshake): its versions and object types
 *   are recorded and answered with ours;
 * - a data message in a version the flow does not read is refused;
 * - a data message whose number is at or below the last one taken is stale: 1C writes the same
 *   number again after a failure of its own, and its documents were taken already;
 * - any other data message is taken, and acknowledged once it is recorded. One numbered 0 (or not
 *   at all) is taken without changing what is acknowledged, as 1C takes such a message of ours.
 */
import type { ErrorCode, MessageText } from '../errors.js';
import { formatOf, type MessageHeader } from '../mapping/readers/enterprisedata-header.js';
import { highestCommonVersion } from './versions.js';
import type { ExchangeCodes } from './message-names.js';

/** What the store remembers of the exchange, as the decision needs it. */
export interface ExchangeMemory {
  /** The number of the last data message taken (0: none yet). */
  lastTakenNo: number;
}

export type MessageDecision =
  | { kind: 'refuse'; code: ErrorCode; reason: string; text: MessageText }
  | { kind: 'settings'; agreedVersion: string | null }
  | { kind: 'stale'; messageNo: number; lastTakenNo: number }
  | { kind: 'data'; version: string; messageNo: number | null };

export function decideMessage(header: MessageHeader, codes: ExchangeCodes, versions: readonly string[], memory: ExchangeMemory): MessageDecision {
  if (header.to !== codes.node) {
    return {
      kind: 'refuse',
      code: 'EXCHANGE_NODE_MISMATCH',
      reason: `is addressed to "${header.to ?? ''}", not to this program's code "${codes.node}" (enterpriseData.node): check the codes entered in 1C`,
      text: { key: 'nodeMismatchTo', params: { to: header.to ?? '—', node: codes.node, setting: 'enterpriseData.node' } },
    };
  }
  if (header.from !== codes.peer && header.newFrom !== codes.peer) {
    return {
      kind: 'refuse',
      code: 'EXCHANGE_NODE_MISMATCH',
      reason: `was written by "${header.from}", not by 1C's code "${codes.peer}" (enterpriseData.peer): check the codes entered in 1C`,
      text: { key: 'nodeMismatchFrom', params: { from: header.from, peer: codes.peer, setting: 'enterpriseData.peer' } },
    };
  }
  const format = formatOf(header.format);
  if (format.kind === 'other') {
    const shown = format.uri.slice(0, 120);
    return {
      kind: 'refuse',
      code: 'EXCHANGE_MESSAGE_INVALID',
      reason: `is in the format "${shown}", not EnterpriseData`,
      text: { key: 'messageFormat', params: { format: shown } },
    };
  }
  if (format.kind === 'settings') return { kind: 'settings', agreedVersion: highestCommonVersion(versions, header.availableVersions) };
  if (!versions.includes(format.version)) {
    return {
      kind: 'refuse',
      code: 'EXCHANGE_VERSION_UNSUPPORTED',
      reason: `is in EnterpriseData ${format.version}, which this flow does not read (it reads ${versions.join(', ')}): run 1C's synchronization setup again so that it agrees a version with this program`,
      text: { key: 'versionUnsupported', params: { version: format.version, versions: versions.join(', '), setting: 'enterpriseData.versions' } },
    };
  }
  const messageNo = header.messageNo === null || header.messageNo === 0 ? null : header.messageNo;
  if (messageNo !== null && messageNo <= memory.lastTakenNo) return { kind: 'stale', messageNo, lastTakenNo: memory.lastTakenNo };
  return { kind: 'data', version: format.version, messageNo };
}
