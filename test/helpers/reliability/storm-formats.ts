/**
 * The six formats of the memory storm, one flow each: what a valid file of requests `from` … `to - 1`
 * looks like in it, the mapping that reads it, a sample from `samples/` to break, and where a
 * field's value starts (so that a huge value can be put inside one). A file's *content* is what
 * the mutations work on; `pack` makes the file of it (a workbook zips its sheet, the others are
 * their content).
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { workbookParts, zipOf } from '../xlsx/workbook-builder.js';
import { REQUEST_HEADER, WORKBOOK_MAPPING, requestCommerceMl, requestRows } from './request-files.js';

/** How a generated file's requests are spoiled: a failing INN check digit, and an externalId padded to this many characters. */
export interface Spoil {
  badInn?: boolean;
  keyPad?: number;
}

export interface StormFormat {
  /** The flow's name, also the stem of its files' names. */
  flow: string;
  ext: string;
  /** The flow's mapping (YAML text). */
  mapping: string;
  /** The content of a file of requests `from` … `to - 1` of `run`. */
  render(run: string, from: number, to: number, spoil?: Spoil): Buffer;
  /** The file made of a content. */
  pack(content: Buffer): Buffer;
  /** A sample export (content) to break, when `samples/` has one in this format. */
  sample: Buffer | null;
  /** Bytes after which a field's value starts (a huge value is put there). */
  fieldStart: Buffer;
}

const BAD_INN = '7707083894';

function spoiledRows(run: string, from: number, to: number, spoil: Spoil = {}): string[][] {
  const rows: string[][] = [];
  for (let n = from; n < to; n += 1) {
    for (const row of requestRows(run, n)) {
      if (spoil.badInn) row[1] = BAD_INN;
      if (spoil.keyPad !== undefined) row[0] = row[0]!.padEnd(spoil.keyPad, 'Ж');
      rows.push(row);
    }
  }
  return rows;
}

const csvCell = (delimiter: string) => (value: string) => (value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function csvText(rows: readonly (readonly string[])[], delimiter: string): string {
  const cell = csvCell(delimiter);
  return `${rows.map((r) => r.map(cell).join(delimiter)).join('\r\n')}\r\n`;
}

/** Requests as `config/mappings/requests-json.yaml` reads them. */
function jsonRequests(rows: readonly string[][]): object[] {
  const requests = new Map<string, { lines: object[] } & Record<string, unknown>>();
  for (const [number, inn, name, contact, phone, email, city, address, , note, line, item, qty, uom] of rows) {
    let request = requests.get(number!);
    if (!request) {
      request = {
        number,
        buyer: { inn, name },
        contact: { fullName: contact, phone, email },
        delivery: { city, address, date: '2031-03-15' },
        ...(note ? { note } : {}),
        lines: [],
      };
      requests.set(number!, request);
    }
    request.lines.push({ line, item, qty: Number(qty), uom });
  }
  return [...requests.values()];
}

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function sheetRows(rows: readonly (readonly string[])[]): string {
  return rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row.map((value, c) => (value === '' ? '' : `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="inlineStr"><is><t>${xmlText(value)}</t></is></c>`)).join('')}</row>`,
    )
    .join('');
}

const readSample = (name: string) => fs.readFileSync(path.resolve('samples', name));

export function stormFormats(): StormFormat[] {
  const win1251 = (text: string) => iconv.encode(text, 'win1251');
  const identity = (content: Buffer) => content;
  const jsonMapping = fs.readFileSync(path.resolve('config/mappings/requests-json.yaml'), 'utf8');
  return [
    {
      flow: 'csv-1c',
      ext: 'csv',
      mapping: fs.readFileSync(path.resolve('config/mappings/1c-requests.yaml'), 'utf8'),
      render: (run, from, to, spoil) => win1251(csvText([REQUEST_HEADER, ...spoiledRows(run, from, to, spoil)], ';')),
      pack: identity,
      sample: readSample('requests-1c-windows1251.csv'),
      fieldStart: Buffer.from(';'),
    },
    {
      flow: 'csv-excel',
      ext: 'csv',
      mapping: fs.readFileSync(path.resolve('config/mappings/requests-utf8-bom.yaml'), 'utf8'),
      render: (run, from, to, spoil) => {
        const header = [
          'Серия',
          'Номер',
          'ИНН',
          'Организация',
          'Контактное лицо',
          'Телефон',
          'E-mail',
          'Город',
          'Адрес доставки',
          'Желаемая дата',
          '№',
          'Товар',
          'Кол-во',
          'Ед.',
          'Примечание',
        ];
        const rows = spoiledRows(run, from, to, spoil).map((r) => [
          'ЗКП',
          r[0]!,
          r[1]!,
          r[2]!,
          r[3]!,
          r[4]!,
          r[5]!,
          r[6]!,
          r[7]!,
          '15/03/2031',
          r[10]!,
          r[11]!,
          r[12]!,
          r[13]!,
          r[14]!,
        ]);
        return Buffer.from(`\ufeff${csvText([header, ...rows], ',')}`, 'utf8');
      },
      pack: identity,
      sample: readSample('requests-utf8-bom.csv'),
      fieldStart: Buffer.from(','),
    },
    {
      flow: 'json',
      ext: 'json',
      mapping: jsonMapping,
      render: (run, from, to, spoil) =>
        Buffer.from(JSON.stringify({ exportedAt: '2031-03-01T09:30:00+03:00', data: { requests: jsonRequests(spoiledRows(run, from, to, spoil)) } }, null, 1)),
      pack: identity,
      sample: readSample('requests.json'),
      fieldStart: Buffer.from('": "'),
    },
    {
      flow: 'ndjson',
      ext: 'ndjson',
      mapping: jsonMapping.replace(/^format: json\njson: .*\n/m, 'format: ndjson\n'),
      render: (run, from, to, spoil) =>
        Buffer.from(
          `${jsonRequests(spoiledRows(run, from, to, spoil))
            .map((r) => JSON.stringify(r))
            .join('\n')}\n`,
        ),
      pack: identity,
      sample: null,
      fieldStart: Buffer.from('":"'),
    },
    {
      flow: 'xlsx',
      ext: 'xlsx',
      mapping: WORKBOOK_MAPPING,
      render: (run, from, to, spoil) => Buffer.from(sheetRows([[`Заявки на закупку ${run}`], REQUEST_HEADER, ...spoiledRows(run, from, to, spoil)])),
      pack: (content) => zipOf(workbookParts({ sheets: [{ name: 'Заявки', xml: content.toString('utf8') }] })),
      sample: null,
      fieldStart: Buffer.from('<t>'),
    },
    {
      flow: 'commerceml',
      ext: 'xml',
      mapping: fs.readFileSync(path.resolve('config/mappings/commerceml-orders.yaml'), 'utf8'),
      render: (run, from, to, spoil = {}) => {
        if (!spoil.badInn && spoil.keyPad === undefined) return requestCommerceMl(run, from, to);
        let text = iconv.decode(requestCommerceMl(run, from, to), 'win1251');
        if (spoil.badInn) text = text.replace(/<ИНН>\d+<\/ИНН>/g, `<ИНН>${BAD_INN}</ИНН>`);
        if (spoil.keyPad !== undefined) text = text.replace(/<Номер>([^<]*)<\/Номер>/g, (_, key: string) => `<Номер>${key.padEnd(spoil.keyPad!, 'Ж')}</Номер>`);
        return win1251(text);
      },
      pack: identity,
      sample: readSample('commerceml-orders.xml'),
      fieldStart: win1251('<Наименование>'),
    },
  ];
}
