/**
 * Golden bytes of the CSV export writer (status files and acknowledgements alike): hostile cells in
 * each delimiter, line end, encoding and escapeFormulas setting, pinned as the writer produced them
 * before it moved to csv-stringify, so the move changed no byte an ERP reads.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { exportFormatSchema, type ExportFormat } from '../../src/config/export-format-schema.js';
import { renderExportFile } from '../../src/export/render-file.js';

const format = (csv: Record<string, unknown>, columns?: Record<string, unknown>): ExportFormat =>
  exportFormatSchema.parse({ fileName: 'x.csv', csv, ...(columns ? { columns } : {}) });

/** One value and a plain `z` after it, no header: the line shows exactly how the value's cell is written. */
const columns = { value: { field: 'v' }, next: { field: 'n' } };
const semicolon = format({ header: false }, columns); // utf-8, ';', CRLF, formulas left alone: the defaults
const escaping = format({ header: false, lineEnding: 'lf', escapeFormulas: true }, columns);
const comma = format({ header: false, delimiter: ',', lineEnding: 'lf' }, columns);
const tab1251 = format({ header: false, delimiter: '\t', encoding: 'windows-1251', escapeFormulas: true }, columns);

const line = (f: ExportFormat, v: unknown): string => {
  const bytes = renderExportFile([{ v, n: 'z' }], f, 'perEvent');
  return f.csv.encoding === 'windows-1251' ? iconv.decode(bytes, 'win1251') : bytes.toString('utf8');
};

describe('CSV export cells (golden)', () => {
  // value → its cell with `;` (CRLF) | with `;` and escapeFormulas (LF) | with `,` (LF) | with tab, escapeFormulas, windows-1251 (CRLF)
  it.each<[string, unknown, string, string, string, string]>([
    ['plain text', 'plain', 'plain', 'plain', 'plain', 'plain'],
    ['the delimiter ;', 'a;b', '"a;b"', '"a;b"', 'a;b', 'a;b'],
    ['a comma', 'a,b', 'a,b', 'a,b', '"a,b"', 'a,b'],
    ['a quote', 'say "hi"', '"say ""hi"""', '"say ""hi"""', '"say ""hi"""', '"say ""hi"""'],
    ['a CR', 'a\rb', '"a\rb"', '"a\rb"', '"a\rb"', '"a\rb"'],
    ['an LF', 'a\nb', '"a\nb"', '"a\nb"', '"a\nb"', '"a\nb"'],
    ['a CRLF', 'a\r\nb', '"a\r\nb"', '"a\r\nb"', '"a\r\nb"', '"a\r\nb"'],
    ['a leading =', '=1+1', '=1+1', "'=1+1", '=1+1', "'=1+1"],
    ['a leading +', '+7 495', '+7 495', "'+7 495", '+7 495', "'+7 495"],
    ['a leading - (text)', '-5', '-5', "'-5", '-5', "'-5"],
    ['a leading @', '@SUM(A1)', '@SUM(A1)', "'@SUM(A1)", '@SUM(A1)', "'@SUM(A1)"],
    ['a leading tab', '\tx', '"\tx"', "'\tx", '"\tx"', `"'\tx"`],
    ['a leading CR', '\r=1', '"\r=1"', `"'\r=1"`, '"\r=1"', `"'\r=1"`],
    ['a leading LF (not a formula start)', '\n=1', '"\n=1"', '"\n=1"', '"\n=1"', '"\n=1"'],
    ['a leading space', ' x', '" x"', '" x"', '" x"', '" x"'],
    ['a trailing space', 'x ', '"x "', '"x "', '"x "', '"x "'],
    ['a leading no-break space', '\u00a0x', '"\u00a0x"', '"\u00a0x"', '"\u00a0x"', '"\u00a0x"'],
    ['an empty string', '', '', '', '', ''],
    ['null', null, '', '', '', ''],
    ['undefined', undefined, '', '', '', ''],
    ['a negative number', -12.5, '-12.5', "'-12.5", '-12.5', "'-12.5"],
    ['zero', 0, '0', '0', '0', '0'],
    ['false', false, 'false', 'false', 'false', 'false'],
    ['a list (joined with "; ")', ['a', 'b'], '"a; b"', '"a; b"', 'a; b', 'a; b'],
    ['an object (JSON)', { k: 1 }, '"{""k"":1}"', '"{""k"":1}"', '"{""k"":1}"', '"{""k"":1}"'],
    ['Cyrillic', 'Болт М8 «ГОСТ» №5', 'Болт М8 «ГОСТ» №5', 'Болт М8 «ГОСТ» №5', 'Болт М8 «ГОСТ» №5', 'Болт М8 «ГОСТ» №5'],
    ['characters windows-1251 lacks', '€ ✓ 日本', '€ ✓ 日本', '€ ✓ 日本', '€ ✓ 日本', '€ ? ??'],
    ['an already quoted formula', "'=x", "'=x", "'=x", "'=x", "'=x"],
  ])('%s', (_what, value, inSemicolon, inEscaping, inComma, inTab1251) => {
    expect(line(semicolon, value)).toBe(`${inSemicolon};z\r\n`);
    expect(line(escaping, value)).toBe(`${inEscaping};z\n`);
    expect(line(comma, value)).toBe(`${inComma},z\n`);
    expect(line(tab1251, value)).toBe(`${inTab1251}\tz\r\n`);
  });
});

describe('CSV export files (golden)', () => {
  it('quotes header names by the same rules and never neutralises them', () => {
    const f = format(
      { lineEnding: 'lf', escapeFormulas: true },
      { 'a;b': { field: 'v' }, '=total': { field: 'v' }, ' pad': { field: 'v' }, 'say "x"': { field: 'v' }, '': { field: 'v' } },
    );
    expect(renderExportFile([{ v: '-1' }], f, 'perEvent').toString('utf8')).toBe(`"a;b";=total;" pad";"say ""x""";\n'-1;'-1;'-1;'-1;'-1\n`);
  });

  it('writes the header alone for no records, and nothing without a header', () => {
    expect(renderExportFile([], format({}, columns), 'batch').toString('utf8')).toBe('value;next\r\n');
    expect(renderExportFile([], format({ header: false }, columns), 'batch')).toEqual(Buffer.alloc(0));
  });

  it('takes every field in order of first appearance when no columns are given, leaving missing cells empty', () => {
    const bytes = renderExportFile(
      [
        { a: '1', '=b': 'x;y' },
        { c: ' 3', a: null },
      ],
      format({}),
      'batch',
    );
    expect(bytes.toString('utf8')).toBe('a;=b;c\r\n1;"x;y";\r\n;;" 3"\r\n');
  });

  it('writes windows-1251 bytes, ? for what it lacks, CRLF', () => {
    const f = format({ encoding: 'windows-1251' }, { Заказ: { field: 'v' }, 'Примечание; "да"': { field: 'n' } });
    const bytes = renderExportFile([{ v: 'Болт М8 «ГОСТ» №5', n: '€ ✓ 日本' }], f, 'perEvent');
    expect(bytes.toString('hex')).toBe(
      [
        'c7e0eae0e7', // Заказ
        '3b',
        '22cff0e8ece5f7e0ede8e53b202222e4e0222222', // "Примечание; ""да"""
        '0d0a',
        'c1eeebf220cc3820abc3ced1d2bb20b935', // Болт М8 «ГОСТ» №5
        '3b',
        '88203f203f3f', // € ? ??
        '0d0a',
      ].join(''),
    );
  });

  it('writes UTF-8 with a BOM before the first byte, once', () => {
    const bytes = renderExportFile(
      [
        { v: 'Болт', n: '=1' },
        { v: 'a,b', n: '' },
      ],
      format({ encoding: 'utf-8-bom', delimiter: ',', lineEnding: 'lf' }, columns),
      'batch',
    );
    expect(bytes.subarray(0, 3).toString('hex')).toBe('efbbbf');
    expect(bytes.subarray(3).toString('utf8')).toBe('value,next\nБолт,=1\n"a,b",\n');
  });

  it('writes plain UTF-8 without a BOM', () => {
    const bytes = renderExportFile([{ v: 'Болт', n: '✓' }], format({}, columns), 'perEvent');
    expect(bytes.toString('hex')).toBe(Buffer.from('value;next\r\nБолт;✓\r\n', 'utf8').toString('hex'));
  });
});
