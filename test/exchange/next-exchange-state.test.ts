/**
 * `nextExchangeState`: what one of 1C's messages changes in its exchange's row, from the row, the
 * header, the decision and whether the message's file was archived. Pure: tables.
 */
import { describe, expect, it } from 'vitest';
import type { MessageDecision } from '../../src/exchange/decide-message.js';
import { ENTERPRISEDATA_NAMESPACE as ED } from '../../src/mapping/readers/enterprisedata-header.js';
import type { MessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import { nextExchangeState, type ExchangeChange } from '../../src/exchange/next-exchange-state.js';
import type { ExchangeState } from '../../src/store/exchanges.js';

const NOW = Date.UTC(2030, 2, 1, 9, 20, 0);
const EARLIER = Date.UTC(2030, 1, 27, 12, 0, 0);
const PLAN = 'СинхронизацияДанныхЧерезУниверсальныйФормат';

/** An exchange that took 1C's message 5 and acknowledged it as our message 3, changed in one way. */
const row = (change: Partial<ExchangeState> = {}): ExchangeState => ({
  flow: 'requests',
  node: 'ПК',
  peer: 'УТ',
  exchangePlan: PLAN,
  peerVersions: '["1.8","1.6"]',
  peerObjectTypes: '[]',
  agreedVersion: '1.8',
  settingsAt: EARLIER,
  lastTakenNo: 5,
  lastTakenAt: EARLIER,
  lastMessageAt: EARLIER,
  peerReceivedNo: 2,
  sentNo: 3,
  replyFormat: '1.8',
  replyReceivedNo: 5,
  replyDue: 0,
  replyWrittenAt: EARLIER,
  acknowledgedNo: 5,
  peerNameForm: 'plain',
  replyName: 'Message_ПК_УТ.xml',
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
const REFUSED: ExchangeChange = { kind: 'refused', patch: { lastMessageAt: NOW } };

/** What every message that is not refused records of its header (here: `header()` over `row()`). */
const SEEN = { lastMessageAt: NOW, peerReceivedNo: 3, exchangePlan: PLAN, peerVersions: '["1.8","1.6","1.11"]' };

describe('nextExchangeState: refused messages change only when 1C last wrote', () => {
  it.each<[string, MessageHeader | null, MessageDecision | null, boolean]>([
    ['a message whose header could not be read', null, null, false],
    ['a header read but not decided', header(), null, false],
    [
      'a refused message',
      header({ to: 'БП' }),
      { kind: 'refuse', code: 'EXCHANGE_NODE_MISMATCH', reason: 'is addressed to "БП"', text: { key: 'nodeMismatchTo' } },
      true,
    ],
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
        lastMessageAt: NOW,
        // A settings message says ReceivedNo 0: what 1C accepted earlier still stands.
        peerReceivedNo: 2,
        exchangePlan: PLAN,
        peerVersions: '["1.8","1.6","1.11"]',
        peerObjectTypes: JSON.stringify(SETTINGS_TYPES),
        agreedVersion: '1.11',
        settingsAt: NOW,
        lastTakenNo: 0,
        replyFormat: 'settings',
        replyReceivedNo: 0,
        replyDue: 1,
      },
    });
  });

  it.each<[string, MessageHeader, Partial<ExchangeChange['patch']>]>([
    ['object types declared as none are recorded as an empty list', header({ format: ED, objectTypes: null }), { peerObjectTypes: '[]' }],
    ['no agreed version is recorded as none', settingsHeader, { agreedVersion: null }],
  ])('%s', (_what, message, expected) => {
    const change = nextExchangeState(undefined, message, { kind: 'settings', agreedVersion: null }, true, NOW);
    expect(change.kind).toBe('settings');
    expect(change.patch).toMatchObject({ lastTakenNo: 0, replyFormat: 'settings', replyDue: 1, ...expected });
  });

  it('a header without an exchange plan or versions leaves those as they were', () => {
    const change = nextExchangeState(
      row(),
      header({ format: ED, exchangePlan: null, availableVersions: [] }),
      { kind: 'settings', agreedVersion: null },
      true,
      NOW,
    );
    expect(change.patch).not.toHaveProperty('exchangePlan');
    expect(change.patch).not.toHaveProperty('peerVersions');
  });
});

describe('nextExchangeState: stale messages', () => {
  it.each<[string, ExchangeState | undefined, ExchangeChange['patch']]>([
    ['our acknowledgement is written again when there is one', row({ replyFormat: '1.8' }), { ...SEEN, replyDue: 1 }],
    ['our settings reply is written again when that was our last reply', row({ replyFormat: 'settings' }), { ...SEEN, replyDue: 1 }],
    ['nothing is due when we never replied', row({ replyFormat: null }), SEEN],
    ['nothing is due for an exchange the store does not hold', undefined, SEEN],
  ])('%s', (_what, previous, patch) => {
    expect(nextExchangeState(previous, header(), { kind: 'stale', messageNo: 6, lastTakenNo: 6 }, true, NOW)).toEqual({ kind: 'stale', patch });
  });
});

describe('nextExchangeState: data taken', () => {
  it.each<[string, ExchangeState | undefined, number | null, { sentNo: number; peerReceivedNo: number }]>([
    ['our next number follows our last one', row({ sentNo: 3, peerReceivedNo: 2 }), 3, { sentNo: 4, peerReceivedNo: 3 }],
    ['a store restored from a backup numbers above what 1C accepted', row({ sentNo: 3, peerReceivedNo: 2 }), 9, { sentNo: 10, peerReceivedNo: 9 }],
    ['a ReceivedNo below the last one recorded does not lower it', row({ sentNo: 3, peerReceivedNo: 8 }), 4, { sentNo: 9, peerReceivedNo: 8 }],
    ['our own count above 1C’s is kept', row({ sentNo: 12, peerReceivedNo: 2 }), 9, { sentNo: 13, peerReceivedNo: 9 }],
    ['no ReceivedNo keeps what was recorded', row({ sentNo: 3, peerReceivedNo: 3 }), null, { sentNo: 4, peerReceivedNo: 3 }],
    ['the first message of an exchange the store does not hold', undefined, null, { sentNo: 1, peerReceivedNo: 0 }],
  ])('%s', (_what, previous, receivedNo, numbers) => {
    expect(nextExchangeState(previous, header({ messageNo: 6, receivedNo }), data(6), true, NOW)).toEqual({
      kind: 'taken',
      patch: {
        ...SEEN,
        ...numbers,
        lastTakenNo: 6,
        lastTakenAt: NOW,
        agreedVersion: '1.8',
        replyFormat: '1.8',
        replyReceivedNo: 6,
        replyDue: 1,
      },
    });
  });

  it('the acknowledgement is in the message’s version, which becomes the agreed one', () => {
    const change = nextExchangeState(row({ agreedVersion: '1.8' }), header({ format: `${ED}/1.11` }), data(6, '1.11'), true, NOW);
    expect(change.patch).toMatchObject({ agreedVersion: '1.11', replyFormat: '1.11' });
  });

  it('an unnumbered data message is taken without changing the numbering or what is acknowledged', () => {
    expect(nextExchangeState(row(), header({ messageNo: 0, receivedNo: 3 }), data(null, '1.11'), true, NOW)).toEqual({
      kind: 'taken',
      patch: { ...SEEN, lastTakenAt: NOW, agreedVersion: '1.11' },
    });
  });
});
