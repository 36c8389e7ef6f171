/**
 * `suggestMapping` decision by decision, on the shared request fixture (`requestCsv`) broken in one
 * way per test: encodings, delimiters, the header line, grouping by name and by content, matching
 * by content, the confidence threshold and ties (a guess below the threshold stays a TODO), decimal
 * commas, and JSON/NDJSON records.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseMappingSpec } from '../../../src/config/load-mapping.js';
import { formatSuggestionSummary, type SuggestionPreview } from '../../../src/mapping/suggest/preview-suggestion.js';
import { suggestMapping } from '../../../src/mapping/suggest/suggest-mapping.js';
import { phraseEnglish } from '../../../src/mapping/suggest/summary-words.js';
import type { Detected } from '../../../src/mapping/suggest/types.js';
import type { FieldSuggestion, MappingSuggestion } from '../../../src/mapping/suggest/types.js';
import { HEADER, requestCsv, requestMapping, requestRow, toCsv } from '../../helpers/fixtures.js';
import { ROOT } from '../../helpers/mapping-fixtures.js';

/** A detection with its reason in English, as the CLI says it. */
const said = <T>(detected: Detected<T> | undefined) => detected && { value: detected.value, reason: phraseEnglish(detected.reason) };

/** Three requests of 2, 1 and 1 lines, as `requestRow` writes them. */
const ROWS = [requestRow('R-1', '1'), requestRow('R-1', '2'), requestRow('R-2', '1'), requestRow('R-3', '1')];

const suggestText = (text: string, name = 'export.csv', kind: 'requests' | 'confirmations' = 'requests') =>
  suggestMapping(Buffer.from(text, 'utf8'), name, { kind });
/** A field, its reason in English as the CLI and the YAML say it. */
const field = (suggestion: MappingSuggestion, key: string): Omit<FieldSuggestion, 'reason'> & { reason: string } => {
  const found = suggestion.fields.find((f) => f.key === key)!;
  return { ...found, reason: phraseEnglish(found.reason) };
};
const sourcesOf = (suggestion: MappingSuggestion) => Object.fromEntries(suggestion.fields.map((f) => [f.key, f.source]));

/** The fixture with column `name` renamed (header only). */
const renamed = (from: string, to: string, rows = ROWS) => toCsv([HEADER.map((name) => (name === from ? to : name)), ...rows]);

describe('suggestMapping: the fixture file', () => {
  it('suggests the fixture mapping, column for column', () => {
    const suggestion = suggestText(requestCsv(ROWS));
    const expected = requestMapping();
    const columnOf = (section: string, key: string) => ({ column: ((expected[section] as Record<string, { column: string }>)[key] ?? { column: '' }).column });
    for (const f of suggestion.fields.filter((f) => f.source !== undefined)) {
      const [section, ...rest] = f.key.split('.');
      expect([f.key, f.source]).toEqual([f.key, columnOf(section === 'items' ? 'items' : 'request', rest.join('.'))]);
    }
    expect(suggestion.fields.filter((f) => f.source === undefined).map((f) => f.key)).toEqual(['request.comment', 'items.comment']);
    expect(suggestion.groupBy?.value).toBe('Заявка');
    expect(suggestion.complete).toBe(true);
    expect(field(suggestion, 'request.customer.name').reason).toContain('values are organisation names');
  });
});

describe('suggestMapping: the file', () => {
  it('reads the encoding from the bytes: windows-1251, a BOM, valid UTF-8, or only ASCII (auto)', () => {
    const text = requestCsv(ROWS);
    expect(suggestMapping(iconv.encode(text, 'win1251'), 'a.csv').sample.encoding.value).toBe('windows-1251');
    const bom = suggestMapping(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'a.csv');
    expect(said(bom.sample.encoding)).toEqual({ value: 'utf-8', reason: expect.stringContaining('byte order mark') });
    expect(bom.sample.columns[0]).toBe('Заявка'); // the BOM is not part of the first name
    expect(suggestText(text).sample.encoding.value).toBe('utf-8');
    const ascii = suggestText('Request ID;Customer;Qty\nA-1;Acme;1\nA-1;Acme;2\n');
    expect(said(ascii.sample.encoding)).toEqual({ value: 'auto', reason: expect.stringContaining('only ASCII') });
  });

  it.each([
    [';', ';'],
    [',', ','],
    ['\t', '\t'],
    ['|', '|'],
  ])('finds the delimiter %j, even with the others inside quoted values', (delimiter) => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Адрес' ? 'ул. Ленина, д. 1; склад | ворота\t2' : cell)));
    const text = [HEADER, ...rows].map((row) => row.map((cell) => (/[;,|\t"]/.test(cell) ? `"${cell}"` : cell)).join(delimiter)).join('\r\n');
    const suggestion = suggestText(text);
    expect(suggestion.sample.delimiter?.value).toBe(delimiter);
    expect(suggestion.sample.columns).toEqual(HEADER);
  });

  it('reads values with quoted line breaks as one row', () => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Товар' ? `${cell}\nвторая строка описания` : cell)));
    const suggestion = suggestText(requestCsv(rows));
    expect(suggestion.sample.rowCount).toBe(4);
    expect(suggestion.groupCount).toBe(3);
  });

  it('finds the header below a title line, and says the daemon needs it on line 1', () => {
    const suggestion = suggestText(`Заявки покупателей за июнь 2026\r\n${requestCsv(ROWS)}`);
    expect(suggestion.sample.headerLine?.value).toBe(2);
    expect(suggestion.sample.columns).toEqual(HEADER);
    expect(suggestion.warnings.map(phraseEnglish)).toEqual([expect.stringMatching(/^the header is on line 2: the daemon reads line 1 as the header/)]);
    expect(suggestion.yaml).toContain('# WARNING: the header is on line 2');
  });

  it('a file whose first lines are values has no names to map: everything stays a TODO', () => {
    const suggestion = suggestText(ROWS.map((row) => row.join(';')).join('\n'));
    expect(suggestion.warnings.map(phraseEnglish)).toEqual([expect.stringContaining('the first lines hold values, not column names')]);
    expect(suggestion.fields.every((f) => f.source === undefined)).toBe(true);
    expect(suggestion.complete).toBe(false);
  });

  it('a header without rows: names alone decide, and the summary says so', () => {
    const suggestion = suggestText(requestCsv([]));
    expect(suggestion.warnings.map(phraseEnglish)).toEqual(['the sample has a header and no rows: columns are matched by their names alone']);
    expect(said(suggestion.groupBy)).toEqual({ value: 'Заявка', reason: 'named "Заявка"; no rows to check it on' });
    expect(field(suggestion, 'request.customer.inn').source).toEqual({ column: 'ИНН' });
  });

  it('a JSON sample cut at the size limit is refused, not half-read', () => {
    expect(() => suggestMapping(Buffer.from('[{"id": 1}'), 'big.json', { truncated: true })).toThrow(
      expect.objectContaining({ code: 'FILE_UNREADABLE', message: expect.stringContaining('JSON files that large are not read (use NDJSON)') }),
    );
  });

  it('an empty sample is FILE_UNREADABLE', () => {
    expect(() => suggestMapping(Buffer.alloc(0), 'empty.csv')).toThrow(expect.objectContaining({ code: 'FILE_UNREADABLE' }));
  });
});

describe('suggestMapping: grouping', () => {
  it('without a name it knows, groups by the column whose value repeats over adjacent rows while the lines change', () => {
    const suggestion = suggestText(renamed('Заявка', 'Ключ'));
    expect(said(suggestion.groupBy)).toEqual({
      value: 'Ключ',
      reason: expect.stringContaining('repeats over adjacent rows while the line columns change: 3 requests in 4 rows'),
    });
    expect(field(suggestion, 'request.externalId')).toMatchObject({ source: { column: 'Ключ' }, confidence: 0.65 });
  });

  it('does not group by a column whose run of equal values repeats the line column: single-line requests stay apart', () => {
    // Three single-line requests (each "Строка" 1), the key under a name it does not know, and
    // two neighbouring requests sharing a city: "Город" repeats over adjacent rows, but the line
    // column does not change within that run, so it is no grouping.
    const rows = [requestRow('R-1', '1'), requestRow('R-2', '1'), requestRow('R-3', '1', { Город: 'Казань' })];
    const suggestion = suggestText(renamed('Заявка', 'Ключ', rows));
    expect(suggestion.groupBy).toBeUndefined();
    expect(suggestion.mapping).not.toHaveProperty('groupBy');
    expect(suggestion.yaml).not.toMatch(/^groupBy:/m);
    expect(suggestion.yaml).not.toContain('while the line columns change');
    expect(field(suggestion, 'request.externalId').source).toBeUndefined();
    expect(suggestion.groupCount).toBe(3);
    expect(suggestion.complete).toBe(false);
  });

  it('without a line column to check, groups by content but does not claim the lines change', () => {
    const suggestion = suggestText(renamed('Строка', 'Счётчик', undefined).replace('Заявка', 'Ключ'));
    expect(said(suggestion.groupBy)).toEqual({
      value: 'Ключ',
      reason: 'its value repeats over adjacent rows (no line column to check it against): 3 requests in 4 rows',
    });
    expect(suggestion.yaml).not.toContain('while the line columns change');
  });

  it('two columns that group the rows the same way and neither named like the key: a TODO, not a coin toss', () => {
    const rows = ROWS.map((row) => [...row, row[0]!.toLowerCase()]);
    const suggestion = suggestText(toCsv([[...HEADER.map((name) => (name === 'Заявка' ? 'Ключ' : name)), 'Ссылка'], ...rows]));
    expect(suggestion.groupBy).toBeUndefined();
    expect(field(suggestion, 'request.externalId').source).toBeUndefined();
    expect(suggestion.yaml).toMatch(/# TODO groupBy: "Ключ" {2}# required; 0\.50: "Ключ", "Ссылка" group the rows the same way/);
    expect(suggestion.complete).toBe(false);
  });

  it('a key whose rows are not adjacent is named in a warning (the daemon maps adjacent rows only)', () => {
    const rows = [requestRow('R-1', '1'), requestRow('R-2', '1'), requestRow('R-1', '2')];
    const suggestion = suggestText(requestCsv(rows));
    expect(suggestion.warnings.map(phraseEnglish)).toContainEqual(expect.stringContaining('"R-1" comes back at row 3 after other rows'));
    // "Заявка" is a generic name (0.8); scattered rows take it under the threshold.
    expect(suggestion.groupBy).toBeUndefined();
    expect(field(suggestion, 'request.externalId')).toMatchObject({ source: undefined, confidence: 0.56 });
  });

  it('learns from the grouping which columns belong to the request: one that changes within a request is not the city', () => {
    const rows = [requestRow('R-1', '1', { Город: 'Москва' }), requestRow('R-1', '2', { Город: 'Химки' }), requestRow('R-2', '1')];
    const city = field(suggestText(requestCsv(rows)), 'request.delivery.city');
    expect(city.source).toBeUndefined();
    expect(city.guess).toEqual({ column: 'Город' });
    expect(city.reason).toContain('it changes between the rows of one request');
  });

  it('generates the line id when no column numbers the lines', () => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Строка' ? 'X' : cell)));
    const lineId = field(suggestText(renamed('Строка', 'Признак', rows)), 'items.lineId');
    expect(lineId).toMatchObject({ source: { counter: true }, reason: expect.stringContaining('generated 1, 2, 3…') });
  });

  it('finds a line counter by its values alone (1, 2, 3… restarting with each request)', () => {
    expect(field(suggestText(renamed('Строка', 'Поз.')), 'items.lineId')).toMatchObject({ source: { column: 'Поз.' } });
    expect(field(suggestText(renamed('Строка', 'Счётчик')), 'items.lineId')).toMatchObject({
      source: { column: 'Счётчик' },
      confidence: 0.7,
      reason: 'numbers the lines 1, 2, 3… in each request',
    });
  });
});

describe('suggestMapping: fields by content, and the threshold', () => {
  it('finds the INN by its check digits and e-mails by their shape, whatever the columns are called', () => {
    const suggestion = suggestText(renamed('Email', 'Адресат', ROWS).replace('ИНН', 'Код'));
    expect(field(suggestion, 'request.customer.inn')).toMatchObject({
      source: { column: 'Код' },
      confidence: 0.85,
      reason: 'values pass the INN check digit (4 of 4)',
    });
    expect(field(suggestion, 'request.contact.email')).toMatchObject({ source: { column: 'Адресат' }, confidence: 0.8 });
  });

  it('finds the phone and the desired date by their values when their names say nothing', () => {
    const suggestion = suggestText(renamed('Телефон', 'Связь', ROWS).replace(';Дата;', ';Когда;'));
    expect(suggestion.sample.columns).toEqual(expect.arrayContaining(['Связь', 'Когда']));
    expect(field(suggestion, 'request.contact.phone')).toMatchObject({
      source: { column: 'Связь' },
      options: { optional: true },
      confidence: 0.7,
      reason: 'values are phone numbers (4 of 4)',
    });
    // The only date column of the request: 0.65 on its values alone.
    expect(field(suggestion, 'request.delivery.desiredDate')).toMatchObject({
      source: { column: 'Когда' },
      options: { date: 'DD.MM.YYYY' },
      confidence: 0.65,
      reason: 'dates like "15.03.2099" (DD.MM.YYYY, 4 of 4)',
    });
    expect(suggestion.mapping).toMatchObject({
      request: { 'contact.phone': { column: 'Связь', optional: true }, 'delivery.desiredDate': { column: 'Когда', date: 'DD.MM.YYYY' } },
    });
  });

  it('a named column whose values contradict the name falls under the threshold and stays a TODO with its guess', () => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Дата' ? '30' : cell)));
    const suggestion = suggestText(renamed('Дата', 'Срок оплаты', rows));
    const date = field(suggestion, 'request.delivery.desiredDate');
    expect(date).toMatchObject({ source: undefined, guess: { column: 'Срок оплаты' } });
    expect(date.confidence).toBeLessThan(0.6);
    expect(date.reason).toContain('but its values are not dates');
    expect(suggestion.yaml).toContain('  # TODO delivery.desiredDate: { column: "Срок оплаты" }  # required; 0.36: best guess "Срок оплаты" scored 0.36');
    expect(suggestion.complete).toBe(false);
  });

  it('two columns that fit one field equally well leave it a TODO naming both', () => {
    const rows = ROWS.map((row) => [...row, row[HEADER.indexOf('Телефон')]!]);
    const suggestion = suggestText(toCsv([[...HEADER, 'Phone'], ...rows]));
    const phone = field(suggestion, 'request.contact.phone');
    expect(phone.source).toBeUndefined();
    expect(phone.reason).toBe('"Телефон" (0.99) and "Phone" (0.99) fit as well as each other: choose one');
    expect(suggestion.complete).toBe(true); // the e-mail is enough for the contract
  });

  it('reports the fields it is less sure of with their confidence, and the ambiguous day/month order', () => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Дата' ? '01/02/2027' : cell)));
    const date = field(suggestText(requestCsv(rows)), 'request.delivery.desiredDate');
    expect(date).toMatchObject({ source: { column: 'Дата' }, options: { date: 'DD/MM/YYYY' }, confidence: 0.75 });
    expect(date.reason).toContain('every day is 12 or less, so MM/DD/YYYY fits as well');
  });

  it('warns when a requests sample holds platform order ids (a confirmation?)', () => {
    const suggestion = suggestText('Заказ;Строка;Количество;Цена;Валюта\nORD-2026-000001;1;5;10,50;RUB\n');
    expect(suggestion.warnings.map(phraseEnglish)).toContainEqual('"Заказ" holds platform order ids: is this a supplier confirmation? (--kind confirmations)');
  });
});

describe('suggestMapping: decimal commas', () => {
  it('no decimal separator in a ";" file: a decimal comma, as the locales that choose ";" write', () => {
    expect(said(suggestText(requestCsv(ROWS)).decimalComma)).toEqual({ value: true, reason: expect.stringContaining('";"-separated exports') });
  });

  it('no decimal separator in a "," file: none', () => {
    expect(suggestText(toCsv([HEADER, ...ROWS], ',')).decimalComma.value).toBe(false);
  });

  it('decimal points with comma thousands in a ";" file: no decimal comma', () => {
    const rows = ROWS.map((row) => row.map((cell, i) => (HEADER[i] === 'Кол-во' ? '1,250.5' : cell)));
    expect(said(suggestText(requestCsv(rows)).decimalComma)).toEqual({ value: false, reason: 'decimal points with comma thousands: "1,250.5" in "Кол-во"' });
  });
});

describe('suggestMapping: the written YAML and the summary (samples/suggest/)', () => {
  const oneC = () => suggestMapping(fs.readFileSync(path.join(ROOT, 'samples/suggest/1c-requests-windows1251.csv')), '1c-requests-windows1251.csv');
  /** A preview that ran cleanly, for the summary alone. */
  const ran: SuggestionPreview = { ran: true, submissions: 4, problemsByCode: {}, fileProblem: false, problemFields: {}, examples: [] };

  it('writes each matched field with its confidence and reason as a comment, and lists the columns no field reads', () => {
    const suggestion = oneC();
    const lines = suggestion.yaml.split('\n');
    expect(lines).toContain(
      '  delivery.desiredDate: { column: "Срок", date: "DD.MM.YYYY" } # 0.99: named "Срок"; dates like "15.03.2027" (DD.MM.YYYY, 9 of 9)',
    );
    expect(lines).toContain('  contact.phone: { column: "Тел.", optional: true } # 0.99: named "Тел."; values are phone numbers (9 of 9)');
    // Every written field carries its own confidence and reason.
    for (const f of suggestion.fields.filter((f) => f.source !== undefined)) {
      const { key } = f;
      const name = key.slice(key.indexOf('.') + 1);
      expect(
        lines.filter((line) => line.startsWith(`  ${name}: {`) && line.endsWith(` # ${f.confidence.toFixed(2)}: ${phraseEnglish(f.reason)}`)),
      ).toHaveLength(1);
    }
    expect(suggestion.unusedColumns).toEqual(['Дата', 'Сумма', 'Ответственный']);
    expect(lines).toContain('# Columns no field reads: "Дата", "Сумма", "Ответственный"');
  });

  it('reports the thousands separators of the 1C sample, in the data, the YAML and the summary', () => {
    const suggestion = oneC();
    // "1 200" (a non-breaking space) in "Кол-во", "12 500,00" (a space) in "Сумма".
    expect(suggestion.thousands).toEqual(['non-breaking space', 'space']);
    expect(suggestion.yaml).toContain('decimalComma: true # decimal commas: "2,5" in "Кол-во"; thousands separated as in "1\u00a0200" in "Кол-во"');
    expect(formatSuggestionSummary(suggestion, ran, 'YAML on stdout')).toContain(
      '  Numbers: decimalComma true (decimal commas: "2,5" in "Кол-во"); thousands separator: non-breaking space, space\n',
    );
  });
});

describe('suggestMapping: JSON', () => {
  it('finds the records at a path inside an object, and their lines', () => {
    const file = path.join(ROOT, 'samples/requests.json');
    const suggestion = suggestMapping(fs.readFileSync(file), 'requests.json');
    expect(suggestion.sample.jsonPath?.value).toBe('data.requests');
    expect(suggestion.sample.itemsPath?.value).toBe('lines');
    expect(sourcesOf(suggestion)).toMatchObject({
      'request.externalId': { path: 'number' },
      'request.customer.inn': { path: 'buyer.inn' },
      'request.contact.name': { path: 'contact.fullName' },
      'request.delivery.desiredDate': { path: 'delivery.date' },
      'items.lineId': { path: 'line' },
      'items.quantity': { path: 'qty' },
    });
    expect(() => parseMappingSpec(YAML.parse(suggestion.yaml), 'suggested.yaml')).not.toThrow();
  });

  it('reads NDJSON, one record per line', () => {
    const record = (id: string) =>
      JSON.stringify({
        id,
        inn: '7707083893',
        customer: 'ООО Ромашка',
        contact: 'Иванов',
        email: 'i@example.ru',
        city: 'Москва',
        address: 'ул. Ленина, 1',
        deliveryDate: '2027-03-15',
        items: [{ line: 1, name: 'Бумага', qty: '2,5', unit: 'пачка' }],
      });
    const suggestion = suggestText(`${record('N-1')}\n${record('N-2')}\n`, 'requests.ndjson');
    expect(suggestion.sample.format).toBe('ndjson');
    expect(suggestion.decimalComma.value).toBe(true);
    expect(suggestion.complete).toBe(true);
    expect(suggestion.mapping).toMatchObject({ format: 'ndjson', json: { decimalComma: true }, items: { path: 'items' } });
  });

  it('records without an array of lines cannot be a JSON request mapping: said, and left incomplete', () => {
    const suggestion = suggestText(JSON.stringify([{ id: 'A', inn: '7707083893', qty: 1 }]), 'flat.json');
    expect(suggestion.warnings.map(phraseEnglish)).toContainEqual('the records hold no array of lines: a JSON request must hold its lines in an array');
    expect(suggestion.complete).toBe(false);
  });
});

describe('suggestMapping: hostile names', () => {
  it('column names with line breaks, terminal escapes, bidi overrides and YAML syntax stay exact in the mapping and escaped in every comment', () => {
    const hostile: Record<string, string> = {
      Покупатель: 'Покупатель\nkind: confirmations',
      Адрес: 'Адрес \u001b[2J\u001b[31m',
      Город: 'Город\u202e',
      Контакт: '*Контакт #1: {x}',
    };
    const suggestion = suggestText(toCsv([HEADER.map((name) => hostile[name] ?? name), ...ROWS]));
    expect(sourcesOf(suggestion)).toMatchObject({
      'request.customer.name': { column: 'Покупатель\nkind: confirmations' },
      'request.delivery.address': { column: 'Адрес \u001b[2J\u001b[31m' },
      'request.delivery.city': { column: 'Город\u202e' },
      'request.contact.name': { column: '*Контакт #1: {x}' },
    });
    // The YAML holds the names exactly (it loads to the same mapping) and no raw control character.
    expect(YAML.parse(suggestion.yaml)).toEqual(suggestion.mapping);
    expect(parseMappingSpec(YAML.parse(suggestion.yaml), 'suggested.yaml').kind).toBe('requests');
    // eslint-disable-next-line no-control-regex
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    expect(suggestion.yaml).not.toMatch(raw);
    for (const f of suggestion.fields) {
      expect(phraseEnglish(f.reason)).not.toMatch(raw);
      expect(phraseEnglish(f.reason)).not.toContain('\n');
    }
    expect(field(suggestion, 'request.delivery.address').reason).toBe('"Адрес \\u001b[2J\\u001b[31m" contains "Адрес"');
  });
});
