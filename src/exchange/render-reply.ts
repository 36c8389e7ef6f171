/**
 * Our message to 1C: a header only, as 1C's own correspondent code writes one. It acknowledges
 * (`ReceivedNo`: the last of 1C's messages taken, so that 1C stops sending those changes) and
 * restates what we read: our versions, and in `AvailableObjectTypes` only the purchase order, as a
 * type we receive and never send. 1C stores that table afresh from every message, and sends an
 * object only when we declared it as received in the exchange's version; a type declared and
 * acknowledged counts, for 1C, as delivered.
 *
 * - Settings (the answer to 1C's handshake): the bare format, numbered 0 (1C does not number
 *   settings), no body.
 * - An acknowledgement: the exchange's versioned format, our own number (above every earlier one,
 *   or 1C ignores it as received already), and an empty `Body`, which 1C expects after the header
 *   of a data message.
 *
 * UTF-8 with its declaration, as 1C writes; the creation date in UTC without a zone, as 1C writes it.
 */
import { ENTERPRISEDATA_NAMESPACE, MESSAGE_NAMESPACE } from '../mapping/readers/enterprisedata-header.js';
import type { ExchangeCodes } from './message-names.js';

/** The exchange plan named in our replies when 1C named none. */
export const DEFAULT_EXCHANGE_PLAN = 'СинхронизацияДанныхЧерезУниверсальныйФормат';

/** The one object type the connector takes from 1C: buyer's purchase orders. */
export const RECEIVED_OBJECT_TYPES = ['Документ.ЗаказПоставщику'] as const;

export interface ReplyInput {
  codes: ExchangeCodes;
  /** The exchange plan 1C named (echoed), or null for 1C's standard one. */
  exchangePlan: string | null;
  /** Our versions, as declared in settings. */
  versions: readonly string[];
  /** `settings` for the handshake's answer, else the exchange's version (the acknowledgement's format). */
  format: 'settings' | { version: string };
  messageNo: number;
  receivedNo: number;
  /** When the reply is written (epoch ms). */
  now: number;
}

/** `\r` as a reference: a parser would read a bare one as a line end and change the text. */
const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;');
const element = (name: string, text: string): string => (text === '' ? `<msg:${name}/>` : `<msg:${name}>${escapeXml(text)}</msg:${name}>`);

export function renderReply(input: ReplyInput): string {
  const formatUri = input.format === 'settings' ? ENTERPRISEDATA_NAMESPACE : `${ENTERPRISEDATA_NAMESPACE}/${input.format.version}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Message xmlns:msg="${MESSAGE_NAMESPACE}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`,
    '\t<msg:Header>',
    `\t\t${element('Format', formatUri)}`,
    `\t\t${element('CreationDate', new Date(input.now).toISOString().slice(0, 19))}`,
    '\t\t<msg:Confirmation>',
    `\t\t\t${element('ExchangePlan', input.exchangePlan ?? DEFAULT_EXCHANGE_PLAN)}`,
    `\t\t\t${element('To', input.codes.peer)}`,
    `\t\t\t${element('From', input.codes.node)}`,
    `\t\t\t${element('MessageNo', String(input.messageNo))}`,
    `\t\t\t${element('ReceivedNo', String(input.receivedNo))}`,
    '\t\t</msg:Confirmation>',
    ...input.versions.map((version) => `\t\t${element('AvailableVersion', version)}`),
    '\t\t<msg:AvailableObjectTypes>',
    ...RECEIVED_OBJECT_TYPES.map(
      (name) => `\t\t\t<msg:ObjectType>${element('Name', name)}${element('Sending', '')}${element('Receiving', '*')}</msg:ObjectType>`,
    ),
    '\t\t</msg:AvailableObjectTypes>',
    '\t</msg:Header>',
    ...(input.format === 'settings' ? [] : [`\t<Body xmlns="${ENTERPRISEDATA_NAMESPACE}/${input.format.version}"/>`]),
    '</Message>',
    '',
  ];
  return lines.join('\n');
}
