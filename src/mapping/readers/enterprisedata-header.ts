/**
 * The header of one of 1C's EnterpriseData exchange messages (`Message/Header`, the `msg:`
 * namespace of 1C's Standard Subsystems Library), read before anything else of the message: it
 * says whether the message is the settings handshake or data, who wrote it to whom, and its number.
 * The exchange (`exchange/`) acts on it; `mapping suggest` recognises a message by it.
 *
 * Read by the same hardened XML reader as the records (no DOCTYPE, bounded depth, text and
 * element sizes), and only as far as the header's end: a data message's body is read afterwards,
 * by the flow's mapping.
 */
import type { XmlOptions } from '../../config/mapping-schema.js';
import { ConnectorError, isConnectorError, type MessageText } from '../../errors.js';
import { readXmlRecords, type XmlNode } from './xml-reader.js';

export const ENTERPRISEDATA_NAMESPACE = 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData';
/** The namespace of the message's envelope (`msg:Header`). */
export const MESSAGE_NAMESPACE = 'http://www.1c.ru/SSL/Exchange/Message';

/**
 * What a header's `Format` says: the settings message (the bare namespace), a data message's
 * version (`…/EnterpriseData/1.8`, optionally followed by a space and an extension's URI), or
 * another format.
 */
export type FormatOf = { kind: 'settings' } | { kind: 'data'; version: string } | { kind: 'other'; uri: string };

const VERSION = /^\d{1,4}\.\d{1,4}(?:\.\d{1,4})?$/;

export function formatOf(format: string): FormatOf {
  const uri = format.trim().split(/\s+/)[0] ?? '';
  if (uri === ENTERPRISEDATA_NAMESPACE) return { kind: 'settings' };
  if (uri.startsWith(`${ENTERPRISEDATA_NAMESPACE}/`)) {
    const version = uri.slice(ENTERPRISEDATA_NAMESPACE.length + 1);
    if (VERSION.test(version)) return { kind: 'data', version };
  }
  return { kind: 'other', uri };
}

/** One object type a side declares: what it sends and receives, `*` (all its versions) or a list of versions. */
export interface ObjectTypeDeclaration {
  name: string;
  sending: string;
  receiving: string;
}

export interface MessageHeader {
  /** `Format`: the EnterpriseData namespace, bare (settings) or with its version (data). */
  format: string;
  creationDate: string | null;
  exchangePlan: string | null;
  /** The writer's code (`Confirmation/From`), and its new code when 1C renamed it (`NewFrom`). */
  from: string;
  newFrom: string | null;
  /** The addressee's code (`Confirmation/To`). */
  to: string | null;
  /** The message's number (0 or absent: not numbered, as the settings message is). */
  messageNo: number | null;
  /** The last of our messages the writer accepted. */
  receivedNo: number | null;
  availableVersions: string[];
  /** Null when the header declares none (`xsi:nil`, or absent). */
  objectTypes: ObjectTypeDeclaration[] | null;
}

/** A header is small: a few hundred object types at most. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;
/** A message number as 1C writes it (xs:integer, counting up from 1). */
const NUMBER = /^\d{1,15}$/;

const invalid = (reason: string, text: MessageText): ConnectorError => new ConnectorError('EXCHANGE_MESSAGE_INVALID', reason, { text });

/**
 * The header of the message whose bytes `chunks` are; reading stops at the header's end. Throws
 * `EXCHANGE_MESSAGE_INVALID` for a document that is not an exchange message, and what the XML
 * reader throws for one that is not well-formed or breaks its limits.
 */
export async function readMessageHeader(chunks: AsyncIterable<Buffer>, xml: XmlOptions, signal?: AbortSignal): Promise<MessageHeader> {
  const spec = { record: 'Message/Header', lines: '.', xml: { ...xml, maxRecordBytes: Math.min(xml.maxRecordBytes, MAX_HEADER_BYTES) } };
  try {
    for await (const record of readXmlRecords(chunks, spec, signal)) {
      return parseHeader(record.node as XmlNode);
    }
  } catch (error) {
    const root = isConnectorError(error) ? error.details.rootElement : undefined;
    if (typeof root === 'string')
      throw invalid(`is not an exchange message of 1C: its root element is <${root}>, not <Message>`, { key: 'messageRoot', params: { root } });
    throw error;
  }
  throw invalid('is not an exchange message of 1C: it has no Message/Header element', { key: 'messageNoHeader' });
}

const childrenNamed = (node: XmlNode, name: string): XmlNode[] => node.children.filter((child) => child.name === name);
const childNamed = (node: XmlNode, name: string): XmlNode | undefined => node.children.find((child) => child.name === name);
const textOf = (node: XmlNode | undefined): string | null => {
  const text = node?.text.trim();
  return text === undefined || text === '' ? null : text;
};

function numberOf(confirmation: XmlNode, name: string): number | null {
  const text = textOf(childNamed(confirmation, name));
  if (text === null) return null;
  if (!NUMBER.test(text)) {
    const value = text.slice(0, 40);
    throw invalid(`has Confirmation/${name} "${value}", which is not a message number`, { key: 'messageNumber', params: { element: name, value } });
  }
  return Number(text);
}

/** The header element's fields, checked. */
export function parseHeader(header: XmlNode): MessageHeader {
  const format = textOf(childNamed(header, 'Format'));
  if (format === null) throw invalid('has no Header/Format: it is not an exchange message of 1C', { key: 'messageNoFormat' });
  const confirmation = childNamed(header, 'Confirmation');
  if (confirmation === undefined) throw invalid('has no Header/Confirmation (the codes and numbers of the exchange)', { key: 'messageNoConfirmation' });
  const from = textOf(childNamed(confirmation, 'From'));
  if (from === null) throw invalid('has no Confirmation/From (the code of the program that wrote it)', { key: 'messageNoFrom' });
  const types = childNamed(header, 'AvailableObjectTypes');
  return {
    format,
    creationDate: textOf(childNamed(header, 'CreationDate')),
    exchangePlan: textOf(childNamed(confirmation, 'ExchangePlan')),
    from,
    newFrom: textOf(childNamed(header, 'NewFrom')),
    to: textOf(childNamed(confirmation, 'To')),
    messageNo: numberOf(confirmation, 'MessageNo'),
    receivedNo: numberOf(confirmation, 'ReceivedNo'),
    availableVersions: childrenNamed(header, 'AvailableVersion')
      .map((node) => textOf(node))
      .filter((version): version is string => version !== null),
    objectTypes:
      types === undefined || types.children.length === 0
        ? null
        : childrenNamed(types, 'ObjectType').flatMap((type) => {
            const name = textOf(childNamed(type, 'Name'));
            if (name === null) return [];
            return [{ name, sending: textOf(childNamed(type, 'Sending')) ?? '', receiving: textOf(childNamed(type, 'Receiving')) ?? '' }];
          }),
  };
}
