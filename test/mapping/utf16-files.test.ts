/**
 * A text file saved as UTF-16 (Excel's "Unicode Text", Notepad's "Unicode") is refused before any
 * decoding, saying what it is and what to save it as: one file-level FILE_UNREADABLE, never the
 * symptom csv-parse or JSON.parse would give (`Invalid Opening Quote … "\u0000"`, `Unexpected token`).
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { utf16Evidence } from '../../src/mapping/readers/utf16.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { HEADER, requestMapping, requestRow, toCsv } from '../helpers/fixtures.js';
import { specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

const SAID_BOM = 'is UTF-16 (it starts with a UTF-16 byte order mark): save it as windows-1251 or UTF-8';
const SAID_ZEROS = 'is UTF-16 (no byte order mark, but a zero byte beside each digit and Latin letter): save it as windows-1251 or UTF-8';

const LE_BOM = Buffer.from([0xff, 0xfe]);
const BE_BOM = Buffer.from([0xfe, 0xff]);
const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

/** The shared request file, as Excel's "Unicode Text" writes it: tab-separated. */
const unicodeText = () => toCsv([HEADER, requestRow('R-1', '1'), requestRow('R-2', '1')], '\t');

describe('a UTF-16 CSV', () => {
  const spec = (encoding = 'auto', delimiter = '\t') => specOf(requestMapping({ csv: { encoding, delimiter } }));

  it.each([
    ['little-endian with a byte order mark (Excel\'s "Unicode Text")', () => Buffer.concat([LE_BOM, utf16le(unicodeText())])],
    ['big-endian with a byte order mark', () => Buffer.concat([BE_BOM, utf16be(unicodeText())])],
  ])('%s: one file-level FILE_UNREADABLE saying what to save it as', async (_name, bytes) => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'requests.txt', bytes());
      const { submissions, problems } = await split(file, spec());
      expect(submissions).toEqual([]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ row: null, field: null, code: 'FILE_UNREADABLE' });
      expect(problems[0]!.message).toContain(`requests.txt: ${SAID_BOM}`);
      expect(problems[0]!.message).toContain('"CSV UTF-8"');
      expect(problems[0]!.message).not.toContain('\u0000');
    });
  });

  it('whatever csv.encoding says: no setting reads UTF-16', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'requests.csv', Buffer.concat([LE_BOM, utf16le(toCsv([HEADER, requestRow()]))]));
      for (const encoding of ['utf-8', 'windows-1251', 'auto']) {
        const { problems } = await split(file, spec(encoding, ';'));
        expect(problems.map((p) => [p.code, p.message.includes(SAID_BOM)])).toEqual([['FILE_UNREADABLE', true]]);
      }
    });
  });

  it.each([
    ['little-endian', utf16le],
    ['big-endian', utf16be],
  ])('%s without a byte order mark, Russian headers and all: FILE_UNREADABLE too', async (_name, encode) => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'requests.csv', encode(toCsv([HEADER, requestRow('R-1', '1'), requestRow('R-1', '2')])));
      const { submissions, problems } = await split(file, spec('auto', ';'));
      expect(submissions).toEqual([]);
      expect(problems.map((p) => [p.code, p.message])).toEqual([
        ['FILE_UNREADABLE', `requests.csv: ${SAID_ZEROS} (from Excel: "CSV UTF-8", not "Unicode Text")`],
      ]);
    });
  });

  it('an ordinary windows-1251 or UTF-8 file is still read', async () => {
    await withTempDir(async (dir) => {
      const text = toCsv([HEADER, requestRow('R-1', '1')]);
      for (const bytes of [iconv.encode(text, 'win1251'), Buffer.from(text, 'utf8')]) {
        const { submissions, problems } = await split(writeInput(dir, 'requests.csv', bytes), spec('auto', ';'));
        expect(problems).toEqual([]);
        expect(submissions).toHaveLength(1);
      }
    });
  });
});

describe('a UTF-16 JSON or NDJSON file', () => {
  const jsonSpec = () =>
    specOf({
      kind: 'requests',
      request: {
        externalId: { path: 'id' },
        'customer.inn': { path: 'inn' },
        'customer.name': { path: 'name' },
        'contact.name': { path: 'contact' },
        'delivery.city': { path: 'city' },
        'delivery.address': { path: 'address' },
        'delivery.desiredDate': { path: 'date' },
      },
      items: { lineId: { path: 'line' }, name: { path: 'item' }, quantity: { path: 'qty' }, unit: { path: 'unit' } },
    });
  const record = { id: 'J-1', inn: '7707083893', name: 'ООО Ромашка', contact: 'Иванов', city: 'Москва', address: 'ул. Ленина, 1', date: '2099-03-15' };

  it.each([
    ['requests.json', JSON.stringify([record])],
    ['requests.ndjson', `${JSON.stringify(record)}\n`],
  ])('%s with a byte order mark: one file-level FILE_UNREADABLE, not a JSON parse error', async (name, text) => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, name, Buffer.concat([LE_BOM, utf16le(text)]));
      const { problems } = await split(file, jsonSpec());
      expect(problems.map((p) => [p.row, p.code, p.message])).toEqual([[null, 'FILE_UNREADABLE', `${name}: ${SAID_BOM}`]]);
    });
  });

  it('without a byte order mark', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'requests.json', utf16be(JSON.stringify(record)));
      const { problems } = await split(file, jsonSpec());
      expect(problems.map((p) => [p.code, p.message])).toEqual([['FILE_UNREADABLE', `requests.json: ${SAID_ZEROS}`]]);
    });
  });
});

describe('utf16Evidence', () => {
  it.each([
    { name: 'a little-endian byte order mark', head: Buffer.concat([LE_BOM, utf16le('a')]), expected: 'bom' },
    { name: 'a big-endian byte order mark', head: BE_BOM, expected: 'bom' },
    { name: 'Latin text, little-endian', head: utf16le('Order;Date\r\n1;2026-06-12\r\n'), expected: 'zeros' },
    { name: 'Russian text with digits, big-endian', head: utf16be('Заявка;Дата\r\nЗК-1;12.06.2026\r\n'), expected: 'zeros' },
    { name: 'UTF-8 text', head: Buffer.from('Заявка;Дата\r\nЗК-1;12.06.2026\r\n', 'utf8'), expected: undefined },
    { name: 'windows-1251 text', head: iconv.encode('Заявка;Дата\r\nЗК-1;12.06.2026\r\n', 'win1251'), expected: undefined },
    { name: 'a UTF-8 byte order mark', head: Buffer.from([0xef, 0xbb, 0xbf, 0x61]), expected: undefined },
    { name: 'zero bytes on both sides (not text at all)', head: Buffer.alloc(64), expected: undefined },
    { name: 'one stray zero byte', head: Buffer.from('ab\u0000cdefgh', 'latin1'), expected: undefined },
    { name: 'nothing', head: Buffer.alloc(0), expected: undefined },
  ])('$name → $expected', ({ head, expected }) => {
    expect(utf16Evidence(head)).toBe(expected);
  });
});
