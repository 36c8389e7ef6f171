/**
 * `nextExchangeState`: what one of 1C's messages changes in its exchange's row, from the row, the
 * header, the decision and whether the message's file was archived. Pure: tables.
 */
import { describe, expect, it } from 'vitest';
import type { MessageDecision } from '../../src/exchange/decide-message.js';
import { ENTERPRISEDATA_NAMESPACE as ED } from '../../src/mapping/readers/enterprisedata-header.js';
import type { MessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import { nextExchangeState, type ExchangeChange } from '../../src/exchange/next-exchange-state.js';
import type { ExchangeRow } from '../../src/store/exchanges.js';

const NOW = Date.UTC(2030, 2, 1, 9, 20, 0);
const EARLIER = Date.UTC(2030, 1, 27, 12, 0, 0);
const PLAN = 'СинхронизацияДанныхЧерезУниверсальныйФормат';

/** An exchange that took 1C's message 5 and acknowledged it as our message 3, changed in one way. */
const row = (change: Partial<ExchangeRow> = {}): ExchangeRow => ({
  flow: 'requests',
  node: 'ПК',
  peer: 'УТ',
  exchange_plan: PLAN,
  peer_versions: '["1.8","1.6"]',
  peer_object_types: '[]',
  agreed_version: '1.8',
  settings_at: EARLIER,
  last_taken_no: 5,
  last_taken_at: EARLIER,
  last_message_at: EARLIER,
  peer_received_no: 2,
  sent_no: 3,
  reply_format: '1.8',
  reply_received_no: 5,
  reply_due: 0,
  reply_written_at: EARLIER,
  acknowledged_no: 5,
  ...change,
});

/** 1C's data message 6 in 1.8, which has accepted our message 3. */
const header = (change: Partial<MessageHeader> = {}): MessageHeader => ({
  format: `${ED}/1.8`,
  creationDate: '2030-03-01T09:15:42',
  exchangePlan: PLAN,
  from: 'УТ',
  newFrom: null,
  to: 'ПК',
  messageNo: 6,
  receivedNo: 3,
  availableVersions: ['1.8', '1.6', '1.11'],
  objectTypes: null,
  ...change,
});

const SETTINGS_TYPES = [{ name: 'Документ.ЗаказПоставщику', sending: '*', receiving: '*' }];
const settingsHeader = header({ format: ED, messageNo: 0, receivedNo: 0, objectTypes: SETTINGS_TYPES });
const data = (messageNo: number | null, version = '1.8'): MessageDecision => ({ kind: 'data', version, messageNo });
const REFUSED: ExchangeChange = { kind: 'refused', patch: { last_message_at: NOW } };

/** What every message that is not refused records of its header (here: `header()` over `row()`). */
const SEEN = { last_message_at: NOW, peer_received_no: 3, exchange_plan: PLAN, peer_versions: '["1.8","1.6","1.11"]' };

describe('nextExchangeState: refused messages change only when 1C last wrote', () => {
  it.each<[string, MessageHeader | null, MessageDecision | null, boolean]>([
    ['a message whose header could not be read', null, null, false],
    ['a header read but not decided', header(), null, false],
    ['a refused message', header({ to: 'БП' }), { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH', reason: 'is addressed to "БП"' }, true],
    ['a data message whose file was rejected', header(), data(6), false],
    ['an unnumbered data message whose file was rejected', header({ messageNo: 0 }), data(null), false],
  ])('%s', (_what, message, decision, archived) => {
    expect(nextExchangeState(row(), message, decision, archived, NOW)).toEqual(REFUSED);
    expect(nextExchangeState(undefined, message, decision, archived, NOW)).toEqual(REFUSED);
  });
});

describe('nextExchangeState: settings', () => {
  it('records what 1C declared, forgets what was taken, and makes our settings reply due', () => {
    expect(nextExchangeState(row(), settingsHeader, { kind: 'settings', agreedVersion: '1.11' }, true, NOW)).toEqual({
      kind: 'settings',
      patch: {
        last_message_at: NOW,
        // A settings message says ReceivedNo 0: what 1C accepted earlier still stands.
        peer_received_no: 2,
        exchange_plan: PLAN,
        peer_versions: '["1.8","1.6","1.11"]',
        peer_object_types: JSON.stringify(SETTINGS_TYPES),
        agreed_version: '1.11',
        settings_at: NOW,
        last_taken_no: 0,
        reply_format: 'settings',
        reply_received_no: 0,
        reply_due: 1,
      },
    });
  });

  it.each<[string, MessageHeader, Partial<ExchangeChange['patch']>]>([
    ['object types declared as none are recorded as an empty list', header({ format: ED, objectTypes: null }), { peer_object_types: '[]' }],
    ['no agreed version is recorded as none', settingsHeader, { agreed_version: null }],
  ])('%s', (_what, message, expected) => {
    const change = nextExchangeState(undefined, message, { kind: 'settings', agreedVersion: null }, true, NOW);
    expect(change.kind).toBe('settings');
    expect(change.patch).toMatchObject({ last_taken_no: 0, reply_format: 'settings', reply_due: 1, ...expected });
  });

  it('a header without an exchange plan or versions leaves those as they were', () => {
    const change = nextExchangeState(
      row(),
      header({ format: ED, exchangePlan: null, availableVersions: [] }),
      { kind: 'settings', agreedVersion: null },
      true,
      NOW,
    );
    expect(change.patch).not.toHaveProperty('exchange_plan');
    expect(change.patch).not.toHaveProperty('peer_versions');
  });
});

describe('nextExchangeState: stale messages', () => {
  it.each<[string, ExchangeRow | undefined, ExchangeChange['patch']]>([
    ['our acknowledgement is written again when there is one', row({ reply_format: '1.8' }), { ...SEEN, reply_due: 1 }],
    ['our settings reply is written again when that was our last reply', row({ reply_format: 'settings' }), { ...SEEN, reply_due: 1 }],
    ['nothing is due when we never replied', row({ reply_format: null }), SEEN],
    ['nothing is due for an exchange the store does not hold', undefined, SEEN],
  ])('%s', (_what, previous, patch) => {
    expect(nextExchangeState(previous, header(), { kind: 'stale', messageNo: 6, lastTakenNo: 6 }, true, NOW)).toEqual({ kind: 'stale', patch });
  });
});

describe('nextExchangeState: data taken', () => {
  it.each<[string, ExchangeRow | undefined, number | null, { sent_no: number; peer_received_no: number }]>([
    ['our next number follows our last one', row({ sent_no: 3, peer_received_no: 2 }), 3, { sent_no: 4, peer_received_no: 3 }],
    ['a store restored from a backup numbers above what 1C accepted', row({ sent_no: 3, peer_received_no: 2 }), 9, { sent_no: 10, peer_received_no: 9 }],
    ['a ReceivedNo below the last one recorded does not lower it', row({ sent_no: 3, peer_received_no: 8 }), 4, { sent_no: 9, peer_received_no: 8 }],
    ['our own count above 1C’s is kept', row({ sent_no: 12, peer_received_no: 2 }), 9, { sent_no: 13, peer_received_no: 9 }],
    ['no ReceivedNo keeps what was recorded', row({ sent_no: 3, peer_received_no: 3 }), null, { sent_no: 4, peer_received_no: 3 }],
    ['the first message of an exchange the store does not hold', undefined, null, { sent_no: 1, peer_received_no: 0 }],
  ])('%s', (_what, previous, receivedNo, numbers) => {
    expect(nextExchangeState(previous, header({ messageNo: 6, receivedNo }), data(6), true, NOW)).toEqual({
      kind: 'taken',
      patch: {
        ...SEEN,
        ...numbers,
        last_taken_no: 6,
        last_taken_at: NOW,
        agreed_version: '1.8',
        reply_format: '1.8',
        reply_received_no: 6,
        reply_due: 1,
      },
    });
  });

  it('the acknowledgement is in the message’s version, which becomes the agreed one', () => {
    const change = nextExchangeState(row({ agreed_version: '1.8' }), header({ format: `${ED}/1.11` }), data(6, '1.11'), true, NOW);
    expect(change.patch).toMatchObject({ agreed_version: '1.11', reply_format: '1.11' });
  });

  it('an unnumbered data message is taken without changing the numbering or what is acknowledged', () => {
    expect(nextExchangeState(row(), header({ messageNo: 0, receivedNo: 3 }), data(null, '1.11'), true, NOW)).toEqual({
      kind: 'taken',
      patch: { ...SEEN, last_taken_at: NOW, agreed_version: '1.11' },
    });
  });
});
