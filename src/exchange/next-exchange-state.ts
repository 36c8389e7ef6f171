/**
 * What one of 1C's messages changes in its exchange, once its file is decided: pure, from the
 * exchange as the store holds it, the message's header and what was decided about it.
 *
 * - Every message: when 1C last wrote; from a message that is not refused, the exchange plan and
 *   versions it names and the last of our messages it has accepted (`ReceivedNo`).
 * - Settings: what 1C declared, the version both read, and our settings reply due. The handshake
 *   comes again only when the synchronization was set up again in 1C, which then numbers its
 *   messages from 1: what was taken is forgotten (the documents taken are still known by number).
 * - A data message taken (its file archived): its number is the last taken, and our
 *   acknowledgement of it is due under a number of ours above every one 1C has accepted (1C
 *   ignores a message numbered at or below what it accepted last, so the count survives even a
 *   store restored from a backup).
 * - A stale message: our last reply is written again, in case it went missing.
 * - A refused message, or a data message whose file was rejected: nothing is acknowledged, so 1C
 *   sends the same changes again in its next message.
 */
import type { ExchangeMessageKind, ExchangePatch, ExchangeState } from '../store/exchanges.js';
import type { MessageDecision } from './decide-message.js';
import type { MessageHeader } from '../mapping/readers/enterprisedata-header.js';

export interface ExchangeChange {
  patch: ExchangePatch;
  /** What the message file is recorded as. */
  kind: ExchangeMessageKind;
}

export function nextExchangeState(
  previous: ExchangeState | undefined,
  header: MessageHeader | null,
  decision: MessageDecision | null,
  fileArchived: boolean,
  now: number,
): ExchangeChange {
  const taken = decision !== null && decision.kind !== 'refuse' && (decision.kind !== 'data' || fileArchived);
  if (header === null || decision === null || !taken) return { kind: 'refused', patch: { lastMessageAt: now } };
  const peerReceivedNo = Math.max(previous?.peerReceivedNo ?? 0, header.receivedNo ?? 0);
  const seen: ExchangePatch = {
    lastMessageAt: now,
    peerReceivedNo,
    ...(header.exchangePlan === null ? {} : { exchangePlan: header.exchangePlan }),
    ...(header.availableVersions.length === 0 ? {} : { peerVersions: JSON.stringify(header.availableVersions) }),
  };
  switch (decision.kind) {
    case 'settings':
      return {
        kind: 'settings',
        patch: {
          ...seen,
          peerObjectTypes: JSON.stringify(header.objectTypes ?? []),
          agreedVersion: decision.agreedVersion,
          settingsAt: now,
          lastTakenNo: 0,
          replyFormat: 'settings',
          replyReceivedNo: 0,
          replyDue: 1,
        },
      };
    case 'stale':
      return { kind: 'stale', patch: { ...seen, ...(previous?.replyFormat ? { replyDue: 1 } : {}) } };
    case 'data':
      if (decision.messageNo === null) return { kind: 'taken', patch: { ...seen, lastTakenAt: now, agreedVersion: decision.version } };
      return {
        kind: 'taken',
        patch: {
          ...seen,
          lastTakenNo: decision.messageNo,
          lastTakenAt: now,
          agreedVersion: decision.version,
          replyFormat: decision.version,
          replyReceivedNo: decision.messageNo,
          sentNo: Math.max(previous?.sentNo ?? 0, peerReceivedNo) + 1,
          replyDue: 1,
        },
      };
  }
}
