/**
 * `decideMessage`: what one of 1C's messages is to the exchange, from its header, the flow's codes
 * and versions, and the last message number taken. Pure: one table.
 */
import { describe, expect, it } from 'vitest';
import { decideMessage, type ExchangeMemory, type MessageDecision } from '../../src/exchange/decide-message.js';
import { ENTERPRISEDATA_NAMESPACE as ED } from '../../src/mapping/readers/enterprisedata-header.js';
import type { MessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import type { ExchangeCodes } from '../../src/exchange/message-names.js';

const CODES: ExchangeCodes = { node: 'ПК', peer: 'УТ' };
/** The versions the flow reads. */
const VERSIONS = ['1.6', '1.8', '1.10', '1.11'];

/** 1C's data message number 6 in 1.8 to us, changed in one way. */
const header = (change: Partial<MessageHeader> = {}): MessageHeader => ({
  format: `${ED}/1.8`,
  creationDate: '2030-03-01T09:15:42',
  exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
  from: 'УТ',
  newFrom: null,
  to: 'ПК',
  messageNo: 6,
  receivedNo: 2,
  availableVersions: ['1.8', '1.6', '1.11'],
  objectTypes: null,
  ...change,
});

const settings = (availableVersions: string[]) => header({ format: ED, messageNo: 0, receivedNo: 0, availableVersions });

type Row = [string, MessageHeader, ExchangeMemory, MessageDecision | { kind: 'refuse'; code: string }];

describe('decideMessage', () => {
  it.each<Row>([
    // Codes.
    ['a message to another node is refused', header({ to: 'БП' }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' }],
    ['a message to nobody is refused', header({ to: null }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' }],
    ['a message from another node is refused', header({ from: 'БП' }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' }],
    ['codes swapped (our own reply) are refused', header({ from: 'ПК', to: 'УТ' }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' }],
    [
      'a message from an old code whose NewFrom is the peer is taken',
      header({ from: 'УТ-СТАРЫЙ', newFrom: 'УТ' }),
      { lastTakenNo: 0 },
      { kind: 'data', version: '1.8', messageNo: 6 },
    ],
    [
      'a NewFrom that is not the peer does not make another writer the peer',
      header({ from: 'БП', newFrom: 'БП-2' }),
      { lastTakenNo: 0 },
      { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' },
    ],
    [
      'codes are checked before the format',
      header({ to: 'БП', format: 'urn:1C.ru:commerceml_2' }),
      { lastTakenNo: 0 },
      { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH' },
    ],
    // Settings.
    ['settings agree the highest version both read', settings(['1.8', '1.6', '1.11']), { lastTakenNo: 4 }, { kind: 'settings', agreedVersion: '1.11' }],
    ['settings agree 1.10 over 1.8 (by number)', settings(['1.8', '1.10', '1.21']), { lastTakenNo: 0 }, { kind: 'settings', agreedVersion: '1.10' }],
    ['settings sharing no version agree none', settings(['1.2', '1.21']), { lastTakenNo: 0 }, { kind: 'settings', agreedVersion: null }],
    // Formats.
    [
      'a data message in a version the flow does not read is refused',
      header({ format: `${ED}/1.21` }),
      { lastTakenNo: 0 },
      { kind: 'refuse', code: 'EXCHANGE_VERSION_UNSUPPORTED' },
    ],
    ['another format is refused', header({ format: 'urn:1C.ru:commerceml_2' }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_MESSAGE_INVALID' }],
    ['a malformed version is another format', header({ format: `${ED}/1.x` }), { lastTakenNo: 0 }, { kind: 'refuse', code: 'EXCHANGE_MESSAGE_INVALID' }],
    [
      'a data message with an extension URI after its format is read in its version',
      header({ format: `${ED}/1.11 http://v8.1c.ru/edi/edi_stnd/EnterpriseData/Extensions/1.0` }),
      { lastTakenNo: 0 },
      { kind: 'data', version: '1.11', messageNo: 6 },
    ],
    // Numbers.
    ['a number equal to the last taken is stale', header({ messageNo: 6 }), { lastTakenNo: 6 }, { kind: 'stale', messageNo: 6, lastTakenNo: 6 }],
    ['a number below the last taken is stale', header({ messageNo: 3 }), { lastTakenNo: 6 }, { kind: 'stale', messageNo: 3, lastTakenNo: 6 }],
    ['the next number is data', header({ messageNo: 7 }), { lastTakenNo: 6 }, { kind: 'data', version: '1.8', messageNo: 7 }],
    ['a number past a gap is data', header({ messageNo: 12 }), { lastTakenNo: 6 }, { kind: 'data', version: '1.8', messageNo: 12 }],
    ['the first message is data', header({ messageNo: 1 }), { lastTakenNo: 0 }, { kind: 'data', version: '1.8', messageNo: 1 }],
    [
      'a data message numbered 0 is data without a number, never stale',
      header({ messageNo: 0 }),
      { lastTakenNo: 6 },
      { kind: 'data', version: '1.8', messageNo: null },
    ],
    [
      'a data message without a number is data without a number',
      header({ messageNo: null }),
      { lastTakenNo: 6 },
      { kind: 'data', version: '1.8', messageNo: null },
    ],
  ])('%s', (_what, message, memory, expected) => {
    const decision = decideMessage(message, CODES, VERSIONS, memory);
    if (expected.kind === 'refuse') expect(decision).toMatchObject({ kind: 'refuse', code: expected.code, reason: expect.any(String) });
    else expect(decision).toEqual(expected);
  });

  it.each([
    [
      header({ to: 'БП' }),
      'is addressed to "БП", not to this program\'s code "ПК" (enterpriseData.node)',
      { key: 'nodeMismatchTo', params: { to: 'БП', node: 'ПК', setting: 'enterpriseData.node' } },
    ],
    [
      header({ from: 'БП' }),
      'was written by "БП", not by 1C\'s code "УТ" (enterpriseData.peer)',
      { key: 'nodeMismatchFrom', params: { from: 'БП', peer: 'УТ', setting: 'enterpriseData.peer' } },
    ],
    [
      header({ format: `${ED}/1.21` }),
      'is in EnterpriseData 1.21, which this flow does not read (it reads 1.6, 1.8, 1.10, 1.11)',
      { key: 'versionUnsupported', params: { version: '1.21', versions: '1.6, 1.8, 1.10, 1.11', setting: 'enterpriseData.versions' } },
    ],
    [
      header({ format: 'urn:1C.ru:commerceml_2 urn:more' }),
      'is in the format "urn:1C.ru:commerceml_2", not EnterpriseData',
      { key: 'messageFormat', params: { format: 'urn:1C.ru:commerceml_2' } },
    ],
  ])('a refusal says why, and keeps the codes and versions for the console: %#', (message, reason, text) => {
    const decision = decideMessage(message, CODES, VERSIONS, { lastTakenNo: 0 });
    expect(decision.kind === 'refuse' ? decision.reason : '').toContain(reason);
    expect(decision.kind === 'refuse' ? decision.text : null).toEqual(text);
  });
});
