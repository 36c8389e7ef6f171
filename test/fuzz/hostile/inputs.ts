/**
 * One valid input of each format the daemon reads, for the shipped mapping that reads it, which
 * each hostile shape breaks in one way:
 *
 * - CSV, `config/mappings/1c-requests.yaml`: 1C's windows-1251 `;` export, one row per line;
 * - JSON, `config/mappings/requests-json.yaml`: `data.requests`, lines at `lines`;
 * - XLSX, `config/mappings/1c-report-xlsx.yaml`: a report sheet, its header found by name;
 * - XML, `config/mappings/commerceml-orders.yaml`: a CommerceML 2 document export;
 * - XML, `config/mappings/enterprisedata-orders.yaml`: 1C's EnterpriseData message, plain or zipped.
 *
 * `HUGE` marks where a shape puts content too large to build as a string: `spliceAt` puts the bytes
 * there, so a file of tens of MB is one Buffer.concat, never one JS string.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import YAML from 'yaml';
import { loadMappingSpec, parseMappingSpec } from '../../../src/config/load-mapping.js';
import type { MappingSpec } from '../../../src/config/mapping-schema.js';
import { edMessage, edOrder, PEER_MESSAGE, type EdOrderInput } from '../../helpers/enterprisedata.js';
import { workbookParts, worksheet, zipOf } from '../../helpers/xlsx/workbook-builder.js';
import { writeZip, type ZipEntry } from '../../helpers/xlsx/zip-writer.js';
import { REQUEST_HEADER } from '../../helpers/reliability/request-files.js';

const MAPPINGS = path.resolve(import.meta.dirname, '../../../config/mappings');

/** A mapping shipped in `config/mappings/`, loaded as a flow loads it. */
export function shippedMapping(name: string): MappingSpec {
  return loadMappingSpec(path.join(MAPPINGS, name));
}

/** A shipped mapping with some fields of its `request:` and `items:` sections replaced, as an operator would edit them. */
export function shippedMappingWith(name: string, patch: { request?: Record<string, unknown>; items?: Record<string, unknown> }): MappingSpec {
  const file = path.join(MAPPINGS, name);
  const raw = YAML.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  if (patch.request) raw.request = { ...raw.request, ...patch.request };
  if (patch.items) raw.items = { ...raw.items, ...patch.items };
  return parseMappingSpec(raw, file);
}

/** A mapping from YAML-shaped data (for the XML shapes that are not CommerceML). */
export const mappingOf = (raw: Record<string, unknown>): MappingSpec => parseMappingSpec(raw, 'hostile-shape.yaml');

/** Where `spliceAt` puts the bytes of a huge value (ASCII, so the same bytes in windows-1251 and UTF-8). */
export const HUGE = '@@HUGE@@';

/** `bytes` with the first `marker` replaced by `insert`. */
export function spliceAt(bytes: Buffer, insert: Buffer, marker = HUGE): Buffer {
  const at = bytes.indexOf(marker, 0, 'latin1');
  if (at === -1) throw new Error(`no ${marker} in the input`);
  return Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(at + marker.length)]);
}

// CSV ----------------------------------------------------------------------------------------------

/** The header of 1C's request export (`config/mappings/1c-requests.yaml`), as the reliability storms write it. */
export const CSV_HEADER: readonly string[] = REQUEST_HEADER;

/** Line `line` of request ЗК-1, by header name; `patch` replaces cells (a `__proto__` key needs a computed key, `['__proto__']`). */
export function csvLine(line = 1, patch: Record<string, string> = {}): Record<string, string> {
  return {
    'Номер заявки': 'ЗК-1',
    ИНН: '7707083893',
    Покупатель: 'ООО "Ромашка"',
    Контакт: 'Иванов Иван',
    Телефон: '+7 495 123-45-67',
    Email: 'ivanov@romashka.ru',
    Город: 'Москва',
    Адрес: 'ул. Ленина, д. 1',
    'Дата поставки': '15.03.2031',
    Комментарий: '',
    Строка: String(line),
    Номенклатура: `Бумага А4, вид ${line}`,
    Количество: '10',
    'Ед. изм.': 'пачка',
    'Комментарий строки': '',
    ...patch,
  };
}

const csvCell = (value: string) => (/[;"\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** A request file as 1C writes it (windows-1251, `;`, CRLF): `header`, then `lines` by header name. */
export function requestsCsv(lines: readonly Record<string, string>[], header: readonly string[] = CSV_HEADER): Buffer {
  // Own keys only: a header named `__proto__` must not read Object.prototype out of a plain object.
  const rows = [header, ...lines.map((line) => header.map((name) => (Object.hasOwn(line, name) ? line[name]! : '')))];
  return iconv.encode(rows.map((row) => row.map(csvCell).join(';')).join('\r\n') + '\r\n', 'win1251');
}

// JSON ---------------------------------------------------------------------------------------------

/** A request as `requests-json.yaml` reads it; `patch` replaces top-level keys. */
export function jsonRequest(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    number: 'ЗК-1',
    buyer: { inn: '7707083893', name: 'ООО «Ромашка»' },
    contact: { fullName: 'Иванов Иван', phone: '+7 495 123-45-67', email: 'ivanov@romashka.ru' },
    delivery: { city: 'Москва', address: 'ул. Ленина, д. 1', date: '2031-03-15' },
    lines: [{ line: '1', item: 'Бумага А4', qty: 10, uom: 'пачка' }],
    ...patch,
  };
}

/** The file: `{"data": {"requests": [...]}}`, each record as JSON text (given as text, it is written as it is). */
export function requestsJson(records: readonly (Record<string, unknown> | string)[]): Buffer {
  const texts = records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record)));
  return Buffer.from(`{"exportedAt":"2026-06-12T09:30:00+03:00","data":{"requests":[${texts.join(',')}]}}`, 'utf8');
}

// CommerceML ---------------------------------------------------------------------------------------

/** One order document of a CommerceML 2 export; `extra` goes inside it, before its lines. */
export function cmlDocument(options: { number?: string; comment?: string; quantity?: string; extra?: string } = {}): string {
  return [
    '<Документ>',
    `<Ид>doc-1</Ид><Номер>${options.number ?? 'ЗК-1'}</Номер><Дата>2031-03-01</Дата>`,
    '<ХозОперация>Заказ товара</ХозОперация><Роль>Покупатель</Роль><Валюта>руб</Валюта>',
    '<Контрагенты><Контрагент><Ид>buyer-1</Ид><Наименование>Ромашка ООО</Наименование>',
    '<ОфициальноеНаименование>ООО "Ромашка"</ОфициальноеНаименование><ИНН>7707083893</ИНН><Роль>Покупатель</Роль>',
    '<Адрес><Представление>Москва, ул. Ленина, д. 1</Представление><АдресноеПоле><Тип>Город</Тип><Значение>Москва</Значение></АдресноеПоле></Адрес>',
    '<Контакты><Контакт><Тип>Почта</Тип><Значение>zakupki@romashka.ru</Значение></Контакт></Контакты>',
    '</Контрагент></Контрагенты>',
    options.comment === undefined ? '' : `<Комментарий>${options.comment}</Комментарий>`,
    options.extra ?? '',
    '<Товары><Товар><Ид>item-1</Ид><Наименование>Бумага А4</Наименование><БазоваяЕдиница Код="796">шт</БазоваяЕдиница>',
    `<Количество>${options.quantity ?? '10'}</Количество></Товар></Товары>`,
    '</Документ>',
  ].join('\n');
}

/** A CommerceML 2.08 export (UTF-8) of `documents`; `prolog` stands between the declaration and the root (a DOCTYPE). */
export function commerceMl(documents: readonly string[] = [cmlDocument()], prolog = ''): Buffer {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${prolog}<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.08" ДатаФормирования="2031-03-01T10:00:00">\n${documents.join('\n')}\n</КоммерческаяИнформация>\n`;
  return Buffer.from(xml, 'utf8');
}

// EnterpriseData -----------------------------------------------------------------------------------

export const ED_ORDER: EdOrderInput = { number: 'ЗП-1', expected: '2031-03-20' };

/** A data message (1.8) of 1C's exchange holding `body` (by default one purchase order). */
export function edData(body: readonly string[] = [edOrder('1.8', ED_ORDER)]): string {
  return edMessage({ version: '1.8', no: 1, body: [...body] });
}

/** `xml` compressed as 1C sends a message: a ZIP of one deflated entry, under its own name. */
export function zippedMessage(xml: string | Buffer, entry: Partial<ZipEntry> = {}): Buffer {
  return writeZip([{ name: PEER_MESSAGE, data: typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml, ...entry }]);
}

// XLSX ---------------------------------------------------------------------------------------------

export const REPORT_HEADER = [
  'Номер заявки',
  'ИНН',
  'Организация',
  'Контакт',
  'Телефон',
  'E-mail',
  'Город',
  'Адрес',
  'Желаемая дата',
  'Номенклатура',
  'Количество',
  'Ед. изм.',
];
export const REPORT_LINE: readonly (string | number)[] = [
  'ЗК-1',
  '7707083893',
  'ООО Ромашка',
  'Иванов Иван',
  '+7 495 123-45-67',
  'ivanov@romashka.ru',
  'Москва',
  'ул. Ленина, д. 1',
  '15.03.2031',
  'Бумага А4',
  10,
  'пачка',
];

const xmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
const letter = (column: number) => String.fromCharCode(65 + column);

/** A cell: a number as `<v>`, a text inline, or (with `shared`) its index in the shared strings. */
function cellXml(ref: string, value: string | number, shared?: string[]): string {
  if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
  if (shared === undefined) return `<c r="${ref}" t="inlineStr"><is><t>${xmlText(value)}</t></is></c>`;
  shared.push(value);
  return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
}

/** The rows of a report sheet: the header in row 1, `lines` below it (their texts in `shared` when given). */
export function reportRows(lines: readonly (readonly (string | number)[])[] = [REPORT_LINE], shared?: string[]): string {
  return [REPORT_HEADER, ...lines]
    .map((cells, index) => `<row r="${index + 1}">${cells.map((value, column) => cellXml(`${letter(column)}${index + 1}`, value, shared)).join('')}</row>`)
    .join('');
}

/**
 * The parts of a report workbook (sheet "Заявки"): by default one request of one line, its texts
 * inline; with `shared`, in the shared strings. Change a part, then `zipOf` it.
 */
export function reportParts(options: { rows?: string; sheet?: string; shared?: boolean } = {}): Map<string, string> {
  const shared: string[] | undefined = options.shared ? [] : undefined;
  const rows = options.rows ?? reportRows(undefined, shared);
  return workbookParts({ sheets: [{ name: 'Заявки', xml: options.sheet ?? worksheet(rows) }], ...(shared === undefined ? {} : { sharedStrings: shared }) });
}

export const reportWorkbook = (options: Parameters<typeof reportParts>[0] = {}): Buffer => zipOf(reportParts(options));
