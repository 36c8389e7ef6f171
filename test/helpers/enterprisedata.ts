/**
 * 1C's side of the EnterpriseData exchange, written from the published schemas (the Standard
 * Subsystems Library's packages 1.6 to 1.21, УТ 11.5.27's 1.22) and from what УТ's conversion rules
 * fill (docs/enterprisedata.md): one valid purchase order and one valid message, which each test
 * changes in one way.
 *
 * - `edOrder(version, order)`: a `Документ.ЗаказПоставщику` element in that version's shape (the
 *   unit flat in 1.6 and under `ДанныеКлассификатора` from 1.7; the buyer's wish 1.7–1.17, the
 *   header's latest line date 1.8–1.17 and `ДатаДоставкиОтПоставщика` from 1.19, nothing at 1.18;
 *   the responsible user at the top up to 1.10 and under `ОбщиеСвойстваОбъектовФормата` from 1.11;
 *   services in their own table; `СсылкаВнешняяНавигационная` from 1.21);
 * - `edWithdrawal(ref)`: 1C's `УдалениеОбъекта` of an order;
 * - `edMessage(options)`: the envelope, as the settings message (no version) or a data message;
 * - `edZip(name, xml, password?)`: the message compressed as 1C does (one entry of the same name),
 *   by Debian's Info-ZIP `zip` (ZipCrypto with a password), installed when missing.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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
  /** The line's own date wanted (`ОжидаемаяДатаПоставки`, 1.8 on). */
  expected?: string;
  /** `ДанныеНоменклатуры/Характеристика/НаименованиеПолное` (the format has no short name). */
  characteristic?: string;
  /** `ДанныеНоменклатуры/Упаковка/Наименование`. */
  packaging?: string;
}

/** A service line (`Услуги/Строка`): the item directly, no unit, `Содержание` its own text. */
export interface EdService {
  no?: number;
  name?: string;
  quantity?: string;
  content?: string;
  expected?: string;
}

export interface EdOrderInput {
  number: string;
  /** `КлючевыеСвойства/Ссылка`; default: a UUID made from the number (the same number, the same document). */
  ref?: string;
  date?: string;
  inn?: string;
  orgName?: string;
  address?: string;
  /** The user responsible for the order (`Ответственный/Наименование`); none when undefined. */
  contact?: string;
  /** The responsible user's person (`Ответственный/ФизическоеЛицо/ФИО`), as УТ writes it. */
  person?: string;
  /**
   * The buyer's wish: `ОжидаемаяДатаПоступления` (1.7–1.17); from 1.19 1C has only the header's
   * `ДатаДоставкиОтПоставщика`, written with it; 1.18 writes none. Null: none at all. Default 2030-03-20.
   */
  expected?: string | null;
  /** The header's `ОжидаемаяДатаПоставки` (1.8–1.17): the latest of the lines' dates, as 1C puts it. */
  headerExpected?: string;
  /** `КонтактноеЛицоКонтрагента`: the supplier's contact (1.7 on), which is never the request's contact. */
  supplierContact?: string;
  comment?: string;
  lines?: EdLine[];
  services?: EdService[];
}

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const el = (name: string, text: string | undefined | null): string => (text === undefined || text === null ? '' : `<${name}>${esc(text)}</${name}>`);
const minor = (version: string): number => Number(version.split('.')[1]);

/** A UUID made from `text` (its SHA-1), as 1C's `Ссылка` looks: the same text, the same reference; other texts, others. */
export function refOf(text: string): string {
  const hex = createHash('sha1').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-11ee-${hex.slice(12, 16)}-${hex.slice(16, 28)}`;
}

function line(version: string, input: EdLine, index: number): string {
  const unitName = input.unit ?? 'шт';
  const unitCode = input.unitCode ?? '796';
  const unit =
    minor(version) <= 6
      ? `<ЕдиницаИзмерения>${el('Код', unitCode)}${el('Наименование', input.unit === '' ? undefined : unitName)}</ЕдиницаИзмерения>`
      : `<ЕдиницаИзмерения><ДанныеКлассификатора>${el('Код', unitCode)}${el('Наименование', input.unit === '' ? undefined : unitName)}</ДанныеКлассификатора></ЕдиницаИзмерения>`;
  const item = `<Номенклатура><Ссылка>0000000${index}-1c2d-11ea-80e1-0050569f0001</Ссылка>${el('Наименование', input.name ?? `Товар ${index + 1}`)}</Номенклатура>`;
  const characteristic =
    input.characteristic === undefined
      ? ''
      : `<Характеристика><Ссылка>0000000${index}-1c2d-11ea-80e1-0050569f0c00</Ссылка><ВладелецХарактеристики>${item}</ВладелецХарактеристики>${el('НаименованиеПолное', input.characteristic)}</Характеристика>`;
  const packaging =
    input.packaging === undefined
      ? ''
      : `<Упаковка><Ссылка>0000000${index}-1c2d-11ea-80e1-0050569f0a00</Ссылка>${item}<Коэффициент>10</Коэффициент>${el('Наименование', input.packaging)}</Упаковка>`;
  return [
    '<Строка>',
    el('НомерСтрокиДокумента', String(input.no ?? index + 1)),
    `<ДанныеНоменклатуры>${item}${characteristic}${packaging}</ДанныеНоменклатуры>`,
    unit,
    el('Количество', input.quantity ?? '10'),
    '<Сумма>100.00</Сумма><Цена>10.00</Цена>',
    minor(version) >= 17
      ? '<СтавкаНДС><РасчетнаяСтавка>false</РасчетнаяСтавка><НеОблагается>false</НеОблагается><ВидСтавки>Общая</ВидСтавки></СтавкаНДС>'
      : '<СтавкаНДС>НДС20</СтавкаНДС>',
    '<ТипЗапасов>СобственныеТовары</ТипЗапасов>',
    minor(version) >= 8 ? el('ОжидаемаяДатаПоставки', input.expected) : '',
    '</Строка>',
  ].join('');
}

function service(version: string, input: EdService, index: number): string {
  return [
    '<Строка>',
    el('НомерСтрокиДокумента', String(input.no ?? index + 1)),
    `<Номенклатура><Ссылка>0000000${index}-1c2d-11ea-80e1-0050569f0e00</Ссылка>${el('Наименование', input.name ?? `Услуга ${index + 1}`)}</Номенклатура>`,
    el('Количество', input.quantity ?? '1'),
    '<Сумма>500.00</Сумма><Цена>500.00</Цена>',
    minor(version) >= 17 ? '<СтавкаНДС><ВидСтавки>Общая</ВидСтавки></СтавкаНДС>' : '<СтавкаНДС>НДС20</СтавкаНДС>',
    el('Содержание', input.content),
    minor(version) >= 8 ? el('ОжидаемаяДатаПоставки', input.expected) : '',
    '</Строка>',
  ].join('');
}

/**
 * A purchase order in `version`'s shape, as УТ 11.5 writes it: the identity (`Ссылка`) in its key
 * properties, goods and services in their own tables, the user responsible for it (top level up
 * to 1.10, under `ОбщиеСвойстваОбъектовФормата` from 1.11, in 1.11's order or 1.15's), the
 * supplier's contact, no contact of the buyer's own organization.
 */
export function edOrder(version: string, order: EdOrderInput): string {
  const v = minor(version);
  const lines = order.lines ?? [
    { name: 'Бумага А4', quantity: '20' },
    { name: 'Картридж', quantity: '2' },
  ];
  const expected = order.expected === undefined ? '2030-03-20' : order.expected;
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
    el('Ссылка', order.ref ?? refOf(order.number)),
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
  const person =
    order.person === undefined ? '' : `<ФизическоеЛицо><Ссылка>44444444-1c2d-11ea-80e1-0050569f0004</Ссылка>${el('ФИО', order.person)}</ФизическоеЛицо>`;
  const responsible =
    order.contact === undefined
      ? ''
      : `<Ответственный><Ссылка>55555555-1c2d-11ea-80e1-0050569f0005</Ссылка>${el('Наименование', order.contact)}${person}</Ответственный>`;
  const common = v < 15 ? `${responsible}${el('Комментарий', order.comment)}` : `${el('Комментарий', order.comment)}${responsible}`;
  const supplierContact = order.supplierContact ?? 'Петров Петр Петрович';
  const services = order.services ?? [];
  return [
    '<Документ.ЗаказПоставщику>',
    keys,
    v <= 10 ? responsible : '',
    currency,
    '<ДанныеВзаиморасчетов/>',
    el('АдресДоставки', order.address ?? '123456, Москва г, Ленина ул, дом № 1'),
    `<Товары>${lines.map((l, i) => line(version, l, i)).join('')}</Товары>`,
    services.length === 0 ? '' : `<Услуги>${services.map((s, i) => service(version, s, i)).join('')}</Услуги>`,
    v >= 7
      ? `<КонтактноеЛицоКонтрагента>${v >= 17 ? `<КонтактноеЛицо>${el('ФИО', supplierContact)}</КонтактноеЛицо>` : el('ФИО', supplierContact)}</КонтактноеЛицоКонтрагента>`
      : '',
    v >= 7 && v <= 17 ? el('ОжидаемаяДатаПоступления', expected) : '',
    v >= 8 && v <= 17 ? el('ОжидаемаяДатаПоставки', order.headerExpected) : '',
    v >= 19 ? el('ДатаДоставкиОтПоставщика', expected) : '',
    v >= 11 ? `<ОбщиеСвойстваОбъектовФормата>${common}</ОбщиеСвойстваОбъектовФормата>` : '',
    '</Документ.ЗаказПоставщику>',
  ].join('');
}

/** 1C's withdrawal of an order (unposted or deleted): its identity, and nothing else. */
export function edWithdrawal(ref: string, type = 'ЗаказПоставщикуСсылка'): string {
  return `<УдалениеОбъекта><СсылкаНаОбъект><СсылкаНаОбъект><${type}>${esc(ref)}</${type}></СсылкаНаОбъект></СсылкаНаОбъект></УдалениеОбъекта>`;
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
