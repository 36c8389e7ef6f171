/**
 * `renderReply`: our message to 1C, read back by the same header reader 1C's messages go through
 * (and, for the acknowledgement's body, by the XML reader), so that what we write is what we read.
 */
import { describe, expect, it } from 'vitest';
import { decideMessage } from '../../src/exchange/decide-message.js';
import { ENTERPRISEDATA_NAMESPACE as ED, readMessageHeader, type MessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import { DEFAULT_EXCHANGE_PLAN, renderReply, type ReplyInput } from '../../src/exchange/render-reply.js';
import { XML_DEFAULTS, chunksOf, readAll, readSpec } from '../helpers/xml.js';

const NOW = Date.UTC(2030, 2, 1, 9, 15, 42, 123);
const VERSIONS = ['1.6', '1.8', '1.10', '1.11'];

const input = (change: Partial<ReplyInput> = {}): ReplyInput => ({
  codes: { node: 'ПК', peer: 'УТ' },
  exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
  versions: VERSIONS,
  format: { version: '1.8' },
  messageNo: 10,
  receivedNo: 7,
  now: NOW,
  ...change,
});

const readBack = (xml: string) => readMessageHeader(chunksOf(xml), XML_DEFAULTS);

const OUR_TYPES = [{ name: 'Документ.ЗаказПоставщику', sending: '', receiving: '*' }];

describe('renderReply, read back', () => {
  it.each<[string, Partial<ReplyInput>, MessageHeader]>([
    [
      'the settings reply: the bare format, numbered 0',
      { format: 'settings', messageNo: 0, receivedNo: 0 },
      {
        format: ED,
        creationDate: '2030-03-01T09:15:42',
        exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
        from: 'ПК',
        newFrom: null,
        to: 'УТ',
        messageNo: 0,
        receivedNo: 0,
        availableVersions: VERSIONS,
        objectTypes: OUR_TYPES,
      },
    ],
    [
      'an acknowledgement: the versioned format, our number, 1C’s number received',
      {},
      {
        format: `${ED}/1.8`,
        creationDate: '2030-03-01T09:15:42',
        exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
        from: 'ПК',
        newFrom: null,
        to: 'УТ',
        messageNo: 10,
        receivedNo: 7,
        availableVersions: VERSIONS,
        objectTypes: OUR_TYPES,
      },
    ],
    [
      'no exchange plan named by 1C: 1C’s standard one',
      { exchangePlan: null, format: { version: '1.11' }, messageNo: 1, receivedNo: 1 },
      {
        format: `${ED}/1.11`,
        creationDate: '2030-03-01T09:15:42',
        exchangePlan: DEFAULT_EXCHANGE_PLAN,
        from: 'ПК',
        newFrom: null,
        to: 'УТ',
        messageNo: 1,
        receivedNo: 1,
        availableVersions: VERSIONS,
        objectTypes: OUR_TYPES,
      },
    ],
  ])('%s', async (_what, change, expected) => {
    expect(await readBack(renderReply(input(change)))).toEqual(expected);
  });

  it('is addressed so that 1C takes it: read with the codes the other way round, it is 1C’s data or settings', async () => {
    const peerSide = { node: 'УТ', peer: 'ПК' };
    const ack = await readBack(renderReply(input({ messageNo: 10, receivedNo: 7 })));
    expect(decideMessage(ack, peerSide, ['1.8'], { lastTakenNo: 9 })).toEqual({ kind: 'data', version: '1.8', messageNo: 10 });
    const settings = await readBack(renderReply(input({ format: 'settings', messageNo: 0, receivedNo: 0 })));
    expect(decideMessage(settings, peerSide, ['1.8', '1.11'], { lastTakenNo: 0 })).toEqual({ kind: 'settings', agreedVersion: '1.11' });
  });

  it('writes UTF-8 with its declaration and the creation date in UTC without a zone', () => {
    const xml = renderReply(input({ now: Date.UTC(2030, 11, 31, 23, 59, 59, 999) }));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Message xmlns:msg="http://www.1c.ru/SSL/Exchange/Message"')).toBe(true);
    expect(xml).toContain('<msg:CreationDate>2030-12-31T23:59:59</msg:CreationDate>');
    expect(xml.endsWith('</Message>\n')).toBe(true);
  });

  it('declares the purchase order as received in every version, and sent never', () => {
    const xml = renderReply(input());
    expect(xml).toContain(
      '<msg:AvailableObjectTypes>\n\t\t\t<msg:ObjectType><msg:Name>Документ.ЗаказПоставщику</msg:Name><msg:Sending/><msg:Receiving>*</msg:Receiving></msg:ObjectType>\n\t\t</msg:AvailableObjectTypes>',
    );
  });
});

describe('renderReply: the body', () => {
  it('the settings reply has no Body', async () => {
    const xml = renderReply(input({ format: 'settings', messageNo: 0, receivedNo: 0 }));
    expect(xml).not.toContain('Body');
    expect(await readAll(chunksOf(xml), readSpec('Message/Body'))).toEqual([]);
  });

  it.each(['1.8', '1.21'])('an acknowledgement in %s has an empty Body in that version’s namespace', async (version) => {
    const xml = renderReply(input({ format: { version } }));
    expect(xml).toContain(`\t<Body xmlns="${ED}/${version}"/>\n</Message>`);
    const bodies = await readAll(chunksOf(xml), readSpec('Message/Body'));
    expect(bodies.map((body) => body.node)).toEqual([expect.objectContaining({ name: 'Body', children: [], text: '' })]);
  });
});

describe('renderReply: escaping', () => {
  it('codes and the exchange plan with & < > " are escaped, and read back as they were', async () => {
    const codes = { node: 'A&B<"1">', peer: 'Q>&amp;' };
    const exchangePlan = 'План "Обмен" <&>';
    const xml = renderReply(input({ codes, exchangePlan }));
    expect(xml).toContain('<msg:From>A&amp;B&lt;&quot;1&quot;&gt;</msg:From>');
    expect(xml).toContain('<msg:To>Q&gt;&amp;amp;</msg:To>');
    expect(await readBack(xml)).toMatchObject({ from: codes.node, to: codes.peer, exchangePlan });
  });
});
