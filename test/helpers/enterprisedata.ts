/**
 * 1C's side of the EnterpriseData exchange, written from the published schemas (1.6, 1.8, 1.21)
 * and the Standard Subsystems Library's message header: one valid purchase order and one valid
 * message, which each test changes in one way.
 *
 * - `edOrder(version, order)`: a `Документ.ЗаказПоставщику` element in that version's shape (the
 *   unit flat in 1.6 and under `ДанныеКлассификатора` from 1.7; the contact person and the dates
 *   wanted from 1.8; `СсылкаВнешняяНавигационная`, `ДатаДоставкиОтПоставщика` and
 *   `ОбщиеСвойстваОбъектовФормата` in 1.21);
 * - `edMessage(options)`: the envelope, as the settings message (no version) or a data message;
 * - `edZip(name, xml, password?)`: the message compressed as 1C does (one entry of the same name),
 *   by Debian's Info-ZIP `zip` (ZipCrypto with a password), installed when missing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PEER = 'УТ';
export const NODE = 'ПК';
export const ED_NAMESPACE = 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData';
/** The name 1C writes its messages to us under, and the name of our reply. */
export const PEER_MESSAGE = `Message_${PEER}_${NODE}.xml`;
export const OUR_REPLY = `Message_${NODE}_${PEER}.xml`;

export interface EdLine {
  no?: number;
  name?: string;
  quantity?: string;
  unit?: string;
  unitCode?: string;
  expected?: string;
}

export interface EdOrderInput {
  number: string;
  date?: string;
  inn?: string;
  orgName?: string;
  address?: string;
  contact?: string;
  /** The date wanted (ОжидаемаяДатаПоступления; ДатаДоставкиОтПоставщика from 1.18). */
  expected?: string;
  comment?: string;
  lines?: EdLine[];
}

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const el = (name: string, text: string | undefined): string => (text === undefined ? '' : `<${name}>${esc(text)}</${name}>`);
const minor = (version: string): number => Number(version.split('.')[1]);

function line(version: string, input: EdLine, index: number): string {
  const unitName = input.unit ?? 'шт';
  const unitCode = input.unitCode ?? '796';
  const unit =
    minor(version) <= 6
      ? `<ЕдиницаИзмерения>${el('Код', unitCode)}${el('Наименование', input.unit === '' ? undefined : unitName)}</ЕдиницаИзмерения>`
      : `<ЕдиницаИзмерения><ДанныеКлассификатора>${el('Код', unitCode)}${el('Наименование', input.unit === '' ? undefined : unitName)}</ДанныеКлассификатора></ЕдиницаИзмерения>`;
  return [
    '<Строка>',
    el('НомерСтрокиДокумента', String(input.no ?? index + 1)),
    `<ДанныеНоменклатуры><Номенклатура><Ссылка>0000000${index}-1c2d-11ea-80e1-0050569f0001</Ссылка>${el('Наименование', input.name ?? `Товар ${index + 1}`)}</Номенклатура></ДанныеНоменклатуры>`,
    unit,
    el('Количество', input.quantity ?? '10'),
    '<Сумма>100.00</Сумма><Цена>10.00</Цена>',
    minor(version) >= 17
      ? '<СтавкаНДС><РасчетнаяСтавка>false</РасчетнаяСтавка><НеОблагается>false</НеОблагается><ВидСтавки>Общая</ВидСтавки></СтавкаНДС>'
      : '<СтавкаНДС>НДС20</СтавкаНДС>',
    minor(version) >= 8 ? el('ОжидаемаяДатаПоставки', input.expected) : '',
    '</Строка>',
  ].join('');
}

/** A purchase order in `version`'s shape. */
export function edOrder(version: string, order: EdOrderInput): string {
  const v = minor(version);
  const lines = order.lines ?? [
    { name: 'Бумага А4', quantity: '20' },
    { name: 'Картридж', quantity: '2' },
  ];
  const expected = order.expected ?? '2030-03-20';
  const organization = [
    '<Организация>',
    v >= 21 ? '<СсылкаВнешняяНавигационная>e1cib/data/Справочник.Организации?ref=1</СсылкаВнешняяНавигационная>' : '',
    '<Ссылка>0b9e1f2a-1c2d-11ea-80e1-0050569f1234</Ссылка>',
    el('Наименование', order.orgName ?? 'Ромашка ООО'),
    el('НаименованиеПолное', order.orgName ?? 'Общество с ограниченной ответственностью "Ромашка"'),
    el('ИНН', order.inn ?? '7707083893'),
    '<ЮридическоеФизическоеЛицо>ЮридическоеЛицо</ЮридическоеФизическоеЛицо>',
    '</Организация>',
  ].join('');
  const keys = [
    '<КлючевыеСвойства>',
    v >= 21 ? '<СсылкаВнешняяНавигационная>e1cib/data/Документ.ЗаказПоставщику?ref=1</СсылкаВнешняяНавигационная>' : '',
    `<Ссылка>6f1c2a4e-8b3d-11ee-b962-${Buffer.from(order.number).toString('hex').slice(0, 12).padEnd(12, '0')}</Ссылка>`,
    el('Дата', order.date ?? '2030-03-01T10:00:00'),
    el('Номер', order.number),
    organization,
    '<Контрагент><Наименование>ТехСнаб ООО</Наименование><ИНН>7736207543</ИНН><ЮридическоеФизическоеЛицо>ЮридическоеЛицо</ЮридическоеФизическоеЛицо></Контрагент>',
    '</КлючевыеСвойства>',
  ].join('');
  const currency =
    v <= 6
      ? '<Валюта><Код>643</Код><Наименование>руб.</Наименование></Валюта>'
      : '<Валюта><ДанныеКлассификатора><Код>643</Код></ДанныеКлассификатора></Валюта>';
  const responsible = order.contact === undefined ? '' : `<Ответственный><Наименование>${esc(order.contact)}</Наименование></Ответственный>`;
  return [
    '<Документ.ЗаказПоставщику>',
    keys,
    v <= 10 ? responsible : '',
    currency,
    '<ДанныеВзаиморасчетов/>',
    el('АдресДоставки', order.address ?? '123456, Москва г, Ленина ул, дом № 1'),
    `<Товары>${lines.map((l, i) => line(version, l, i)).join('')}</Товары>`,
    v >= 7 && v < 18 ? el('ОжидаемаяДатаПоступления', expected) : '',
    v >= 8 && order.contact === undefined ? '<КонтактноеЛицоОрганизации><ФИО>Иванов Иван Иванович</ФИО></КонтактноеЛицоОрганизации>' : '',
    v >= 18 ? el('ДатаДоставкиОтПоставщика', expected) : '',
    v >= 11 ? `<ОбщиеСвойстваОбъектовФормата>${el('Комментарий', order.comment)}${v >= 11 ? responsible : ''}</ОбщиеСвойстваОбъектовФормата>` : '',
    '</Документ.ЗаказПоставщику>',
  ].join('');
}

/** An object of another type, which the connector reads past. */
export function edCatalogItem(name = 'Бумага А4'): string {
  return `<Справочник.Номенклатура><КлючевыеСвойства><Ссылка>11111111-1c2d-11ea-80e1-0050569f0001</Ссылка><Наименование>${esc(name)}</Наименование></КлючевыеСвойства><ТипНоменклатуры>Товар</ТипНоменклатуры></Справочник.Номенклатура>`;
}

export interface EdMessageOptions {
  /** The data message's version; null for the settings message (the handshake). Default 1.8. */
  version?: string | null;
  no?: number;
  received?: number;
  from?: string;
  to?: string;
  versions?: string[];
  /** Body objects (data messages). */
  body?: string[];
  bom?: boolean;
}

/** A message as 1C writes it. */
export function edMessage(options: EdMessageOptions = {}): string {
  const version = options.version === undefined ? '1.8' : options.version;
  const settings = version === null;
  const versions = options.versions ?? ['1.8', '1.6', '1.11'];
  const header = [
    '<msg:Header>',
    `<msg:Format>${settings ? ED_NAMESPACE : `${ED_NAMESPACE}/${version}`}</msg:Format>`,
    '<msg:CreationDate>2030-03-01T09:15:42</msg:CreationDate>',
    '<msg:Confirmation>',
    '<msg:ExchangePlan>СинхронизацияДанныхЧерезУниверсальныйФормат</msg:ExchangePlan>',
    `<msg:To>${esc(options.to ?? NODE)}</msg:To>`,
    `<msg:From>${esc(options.from ?? PEER)}</msg:From>`,
    `<msg:MessageNo>${settings ? 0 : (options.no ?? 1)}</msg:MessageNo>`,
    `<msg:ReceivedNo>${settings ? 0 : (options.received ?? 0)}</msg:ReceivedNo>`,
    '</msg:Confirmation>',
    ...versions.map((v) => `<msg:AvailableVersion>${v}</msg:AvailableVersion>`),
    settings
      ? '<msg:AvailableObjectTypes><msg:ObjectType><msg:Name>Документ.ЗаказПоставщику</msg:Name><msg:Sending>*</msg:Sending><msg:Receiving>*</msg:Receiving></msg:ObjectType><msg:ObjectType><msg:Name>Справочник.Номенклатура</msg:Name><msg:Sending>*</msg:Sending><msg:Receiving/></msg:ObjectType></msg:AvailableObjectTypes><msg:SynchronizationContour xsi:nil="true"/>'
      : '',
    '</msg:Header>',
  ].join('\n');
  const body = settings ? '' : `\n<Body xmlns="${ED_NAMESPACE}/${version}">\n${(options.body ?? []).join('\n')}\n</Body>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Message xmlns:msg="http://www.1c.ru/SSL/Exchange/Message" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${header}${body}\n</Message>\n`;
  return options.bom ? `\uFEFF${xml}` : xml;
}

/** Make sure Info-ZIP's `zip` is on the machine (Debian's package), as `pretest` does for Chromium. */
function ensureZip(): void {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
  } catch {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zip >/dev/null'], { stdio: 'inherit' });
  }
}

/** `xml` compressed as 1C compresses a message: a ZIP of one entry named `name`, ZipCrypto-encrypted with `password`. */
export function edZip(name: string, xml: string | Buffer, password?: string): Buffer {
  ensureZip();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ed-zip-'));
  try {
    fs.writeFileSync(path.join(dir, name), xml);
    const zipName = 'message.zip';
    execFileSync('zip', ['-q', '-X', ...(password === undefined ? [] : ['-P', password]), zipName, name], { cwd: dir });
    return fs.readFileSync(path.join(dir, zipName));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
