/**
 * `readMessageHeader`: the header of one of 1C's exchange messages, read by the hardened XML reader
 * as far as the header's end and no further; messages from `test/helpers/enterprisedata.ts`, or a
 * header written here to break it in one way.
 */
import { describe, expect, it } from 'vitest';
import { ConnectorError, type ErrorCode } from '../../../src/errors.js';
import {
  ENTERPRISEDATA_NAMESPACE,
  formatOf,
  readMessageHeader,
  type FormatOf,
  type MessageHeader,
} from '../../../src/mapping/readers/enterprisedata-header.js';
import { ED_NAMESPACE, NODE, PEER, edCatalogItem, edMessage, edOrder } from '../../helpers/enterprisedata.js';
import { CountingSource, XML_DEFAULTS, chunksOf } from '../../helpers/xml.js';

const read = (content: string | Buffer, chunkBytes?: number) => readMessageHeader(chunksOf(content, chunkBytes), XML_DEFAULTS);

async function headerError(content: string | Buffer, code: ErrorCode): Promise<ConnectorError> {
  try {
    await read(content);
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe(code);
    return error as ConnectorError;
  }
  throw new Error(`expected ${code}, but the header was read`);
}

const ENVELOPE_START =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Message xmlns:msg="http://www.1c.ru/SSL/Exchange/Message" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n';

/** A message whose header holds `inner` (the elements inside `msg:Header`). */
const withHeader = (inner: string, body = `<Body xmlns="${ED_NAMESPACE}/1.8"/>`) => `${ENVELOPE_START}<msg:Header>${inner}</msg:Header>\n${body}\n</Message>\n`;

/** The Confirmation element with `fields` (element name → text; undefined leaves it out). */
const confirmation = (fields: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    ExchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
    To: NODE,
    From: PEER,
    MessageNo: '4',
    ReceivedNo: '2',
    ...fields,
  };
  const inner = Object.entries(all)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, text]) => `<msg:${name}>${text}</msg:${name}>`)
    .join('');
  return `<msg:Confirmation>${inner}</msg:Confirmation>`;
};

const FORMAT_1_8 = `<msg:Format>${ED_NAMESPACE}/1.8</msg:Format>`;

const SETTINGS_HEADER: MessageHeader = {
  format: ED_NAMESPACE,
  creationDate: '2030-03-01T09:15:42',
  exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
  from: PEER,
  newFrom: null,
  to: NODE,
  messageNo: 0,
  receivedNo: 0,
  availableVersions: ['1.8', '1.6', '1.11'],
  objectTypes: [
    { name: 'Документ.ЗаказПоставщику', sending: '*', receiving: '*' },
    { name: 'Справочник.Номенклатура', sending: '*', receiving: '' },
  ],
};

const DATA_HEADER: MessageHeader = {
  format: `${ED_NAMESPACE}/1.11`,
  creationDate: '2030-03-01T09:15:42',
  exchangePlan: 'СинхронизацияДанныхЧерезУниверсальныйФормат',
  from: PEER,
  newFrom: null,
  to: NODE,
  messageNo: 7,
  receivedNo: 3,
  availableVersions: ['1.6', '1.11'],
  objectTypes: null,
};

const DATA_MESSAGE = edMessage({
  version: '1.11',
  no: 7,
  received: 3,
  versions: ['1.6', '1.11'],
  body: [edCatalogItem(), edOrder('1.11', { number: 'ЗП-1' })],
});

describe('readMessageHeader: 1C’s messages', () => {
  it.each<[string, string, MessageHeader]>([
    ['the settings message (the handshake)', edMessage({ version: null }), SETTINGS_HEADER],
    ['a data message', DATA_MESSAGE, DATA_HEADER],
    ['a data message with a byte order mark', edMessage({ version: '1.11', no: 7, received: 3, versions: ['1.6', '1.11'], bom: true }), DATA_HEADER],
  ])('reads %s', async (_what, xml, expected) => {
    expect(await read(xml)).toEqual(expected);
  });

  it.each([1, 7, 64, 1000])('reads the same header from chunks of %i bytes (a document cut at every place)', async (size) => {
    expect(await read(edMessage({ version: null }), size)).toEqual(SETTINGS_HEADER);
    expect(await read(DATA_MESSAGE, size)).toEqual(DATA_HEADER);
  });

  it('reads a byte order mark cut across chunks', async () => {
    const bytes = Buffer.from(edMessage({ version: null, bom: true }), 'utf8');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(await read(bytes, 2)).toEqual(SETTINGS_HEADER);
  });
});

describe('readMessageHeader: the header’s fields', () => {
  it.each<[string, string, Partial<MessageHeader>]>([
    ['AvailableObjectTypes given as xsi:nil is null', `${FORMAT_1_8}${confirmation()}<msg:AvailableObjectTypes xsi:nil="true"/>`, { objectTypes: null }],
    ['AvailableObjectTypes left out is null', `${FORMAT_1_8}${confirmation()}`, { objectTypes: null }],
    [
      'an object type without a name is passed over; one without Sending or Receiving has them empty',
      `${FORMAT_1_8}${confirmation()}<msg:AvailableObjectTypes><msg:ObjectType><msg:Sending>*</msg:Sending></msg:ObjectType><msg:ObjectType><msg:Name>Справочник.Валюты</msg:Name></msg:ObjectType></msg:AvailableObjectTypes>`,
      { objectTypes: [{ name: 'Справочник.Валюты', sending: '', receiving: '' }] },
    ],
    ['NewFrom is 1C’s new code', `${FORMAT_1_8}${confirmation({ From: 'СТАРЫЙ' })}<msg:NewFrom>${PEER}</msg:NewFrom>`, { from: 'СТАРЫЙ', newFrom: PEER }],
    ['an empty NewFrom is none', `${FORMAT_1_8}${confirmation()}<msg:NewFrom/>`, { from: PEER, newFrom: null }],
    [
      'blanks around the texts are trimmed',
      `<msg:Format>\n  ${ED_NAMESPACE}/1.8\n</msg:Format>${confirmation({ From: ` ${PEER} `, MessageNo: ' 12 ' })}`,
      { format: `${ED_NAMESPACE}/1.8`, from: PEER, messageNo: 12 },
    ],
    ['a number with leading zeros is that number', `${FORMAT_1_8}${confirmation({ MessageNo: '007' })}`, { messageNo: 7 }],
    [
      'MessageNo and ReceivedNo left out are null',
      `${FORMAT_1_8}${confirmation({ MessageNo: undefined, ReceivedNo: undefined })}`,
      { messageNo: null, receivedNo: null },
    ],
    ['an empty To is null', `${FORMAT_1_8}${confirmation({ To: '' })}`, { to: null }],
    [
      'no ExchangePlan, CreationDate or versions',
      `${FORMAT_1_8}${confirmation({ ExchangePlan: undefined })}`,
      { exchangePlan: null, creationDate: null, availableVersions: [] },
    ],
    [
      'an empty AvailableVersion is passed over',
      `${FORMAT_1_8}${confirmation()}<msg:AvailableVersion>1.8</msg:AvailableVersion><msg:AvailableVersion/>`,
      { availableVersions: ['1.8'] },
    ],
  ])('%s', async (_what, inner, expected) => {
    expect(await read(withHeader(inner))).toMatchObject(expected);
  });
});

describe('readMessageHeader: what is not an exchange message', () => {
  it.each<[string, string, ErrorCode, string]>([
    ['a header without Format', confirmation(), 'EXCHANGE_MESSAGE_INVALID', 'has no Header/Format'],
    ['a header with an empty Format', `<msg:Format/>${confirmation()}`, 'EXCHANGE_MESSAGE_INVALID', 'has no Header/Format'],
    [
      'a header without Confirmation',
      `${FORMAT_1_8}<msg:AvailableVersion>1.8</msg:AvailableVersion>`,
      'EXCHANGE_MESSAGE_INVALID',
      'has no Header/Confirmation',
    ],
    ['a Confirmation without From', `${FORMAT_1_8}${confirmation({ From: undefined })}`, 'EXCHANGE_MESSAGE_INVALID', 'has no Confirmation/From'],
    ['a Confirmation with a blank From', `${FORMAT_1_8}${confirmation({ From: '  ' })}`, 'EXCHANGE_MESSAGE_INVALID', 'has no Confirmation/From'],
    [
      'a MessageNo that is not a number',
      `${FORMAT_1_8}${confirmation({ MessageNo: 'abc' })}`,
      'EXCHANGE_MESSAGE_INVALID',
      'has Confirmation/MessageNo "abc", which is not a message number',
    ],
    ['a negative MessageNo', `${FORMAT_1_8}${confirmation({ MessageNo: '-1' })}`, 'EXCHANGE_MESSAGE_INVALID', 'Confirmation/MessageNo "-1"'],
    ['a fractional MessageNo', `${FORMAT_1_8}${confirmation({ MessageNo: '1.5' })}`, 'EXCHANGE_MESSAGE_INVALID', 'Confirmation/MessageNo "1.5"'],
    ['a MessageNo of 16 digits', `${FORMAT_1_8}${confirmation({ MessageNo: '1234567890123456' })}`, 'EXCHANGE_MESSAGE_INVALID', 'Confirmation/MessageNo'],
    [
      'a ReceivedNo that is not a number',
      `${FORMAT_1_8}${confirmation({ ReceivedNo: '1e3' })}`,
      'EXCHANGE_MESSAGE_INVALID',
      'has Confirmation/ReceivedNo "1e3"',
    ],
  ])('%s is EXCHANGE_MESSAGE_INVALID', async (_what, inner, code, reason) => {
    const error = await headerError(withHeader(inner), code);
    expect(error.message).toContain(reason);
  });

  it('a document with another root is EXCHANGE_MESSAGE_INVALID naming the root', async () => {
    const error = await headerError(
      '<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация ВерсияСхемы="2.08"><Документ/></КоммерческаяИнформация>',
      'EXCHANGE_MESSAGE_INVALID',
    );
    expect(error.message).toBe('is not an exchange message of 1C: its root element is <КоммерческаяИнформация>, not <Message>');
  });

  it('a Message without a Header is EXCHANGE_MESSAGE_INVALID', async () => {
    const error = await headerError(`${ENVELOPE_START}<Body xmlns="${ED_NAMESPACE}/1.8"/>\n</Message>\n`, 'EXCHANGE_MESSAGE_INVALID');
    expect(error.message).toContain('it has no Message/Header element');
  });

  it('a DOCTYPE is refused before the header is read (XML_DTD_REFUSED)', async () => {
    const xml = edMessage({ version: null }).replace('<Message ', '<!DOCTYPE Message [<!ENTITY e "x">]>\n<Message ');
    expect(xml).toContain('<!DOCTYPE');
    await headerError(xml, 'XML_DTD_REFUSED');
  });

  it('a header cut short is XML_MALFORMED', async () => {
    const xml = edMessage({ version: null });
    await headerError(xml.slice(0, xml.indexOf('</msg:Header>')), 'XML_MALFORMED');
  });
});

describe('readMessageHeader: reading stops at the header', () => {
  /** A data message's header declaring `types` object types, as 1C declares them all (about 150 in UT 11). */
  const headOf = (types: number) => {
    const declared = Array.from(
      { length: types },
      (_, n) => `<msg:ObjectType><msg:Name>Справочник.Тип${n}</msg:Name><msg:Sending>*</msg:Sending><msg:Receiving>*</msg:Receiving></msg:ObjectType>`,
    ).join('');
    const message = edMessage({ version: '1.8', no: 5, body: [] });
    const withTypes = types === 0 ? message : message.replace('</msg:Header>', `<msg:AvailableObjectTypes>${declared}</msg:AvailableObjectTypes></msg:Header>`);
    // The header and the body's start tag; the body's objects follow for as long as the reader asks.
    return withTypes.slice(0, withTypes.indexOf('>', withTypes.indexOf('<Body')) + 1);
  };

  it.each([
    // The decoder reads the first KiB whole to choose the encoding: a header shorter than that
    // costs one piece of the body, and nothing after it.
    ['a header shorter than the KiB the encoding is chosen from', 0, 1],
    ['a header declaring 150 object types', 150, 0],
  ])('does not read the body after %s', async (_what, types, bodyChunksRead) => {
    const head = headOf(types);
    expect(Buffer.byteLength(head) < 1024).toBe(types === 0);
    const order = edOrder('1.8', { number: 'ЗП-1' });
    const bodyChunk = order.repeat(Math.ceil((64 * 1024) / Buffer.byteLength(order)));
    let bodyChunksAsked = 0;
    const source = new CountingSource(function* () {
      yield* chunksOfText(head, 64);
      for (;;) {
        bodyChunksAsked += 1;
        // 1 GiB of body behind the header: reading it all would fail here rather than pass.
        if (bodyChunksAsked > 16 * 1024) throw new Error('the body was read past the header');
        yield bodyChunk;
      }
    });
    const header = await readMessageHeader(source.chunks(), XML_DEFAULTS);
    expect(header).toMatchObject({ format: `${ED_NAMESPACE}/1.8`, messageNo: 5 });
    expect(header.objectTypes?.length ?? 0).toBe(types);
    expect(source.finished).toBe(true);
    expect(bodyChunksAsked).toBe(bodyChunksRead);
    expect(source.produced).toBeLessThanOrEqual(Buffer.byteLength(head) + bodyChunksRead * Buffer.byteLength(bodyChunk));
  });
});

/** `text` in pieces of `size` characters. */
function* chunksOfText(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const ED = ENTERPRISEDATA_NAMESPACE;

describe('formatOf', () => {
  it.each<[string, string, FormatOf]>([
    ['the bare namespace is the settings message', ED, { kind: 'settings' }],
    ['the bare namespace with blanks around it is still the settings message', `  ${ED}\n`, { kind: 'settings' }],
    ['a versioned namespace is a data message in that version', `${ED}/1.8`, { kind: 'data', version: '1.8' }],
    ['a two-digit minor version is kept as written', `${ED}/1.16`, { kind: 'data', version: '1.16' }],
    ['a three-part version is a version', `${ED}/1.10.2`, { kind: 'data', version: '1.10.2' }],
    [
      'an extension URI after a space is passed over',
      `${ED}/1.11 http://v8.1c.ru/edi/edi_stnd/EnterpriseData/Extensions/1.0`,
      { kind: 'data', version: '1.11' },
    ],
    ['the settings namespace followed by an extension is still settings', `${ED} http://example.com/ext`, { kind: 'settings' }],
    ['another URI is not EnterpriseData', 'urn:1C.ru:commerceml_2', { kind: 'other', uri: 'urn:1C.ru:commerceml_2' }],
    ['a namespace that only starts like EnterpriseData is another', `${ED}X/1.8`, { kind: 'other', uri: `${ED}X/1.8` }],
    ['a version that is not numbers is malformed', `${ED}/abc`, { kind: 'other', uri: `${ED}/abc` }],
    ['a version of one part is malformed', `${ED}/1`, { kind: 'other', uri: `${ED}/1` }],
    ['a version of four parts is malformed', `${ED}/1.8.0.1`, { kind: 'other', uri: `${ED}/1.8.0.1` }],
    ['a trailing slash after the version is malformed', `${ED}/1.8/`, { kind: 'other', uri: `${ED}/1.8/` }],
    ['an empty version is malformed', `${ED}/`, { kind: 'other', uri: `${ED}/` }],
    ['an empty format is another', '', { kind: 'other', uri: '' }],
  ])('%s', (_what, format, expected) => {
    expect(formatOf(format)).toEqual(expected);
  });
});
