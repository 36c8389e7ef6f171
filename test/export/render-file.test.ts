import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { exportFormatSchema, type ExportFormat } from '../../src/config/export-format-schema.js';
import { formatCell, formatCellValue, formatDate } from '../../src/export/format-value.js';
import { renderExportFile } from '../../src/export/render-file.js';

const format = (raw: Record<string, unknown>): ExportFormat => exportFormatSchema.parse({ fileName: 'x.csv', ...raw });
const record = { eventId: 'EVT-000007', orderId: 'ORD-2026-000042', status: 'shipped', eventDate: '2026-06-12T10:15:00+03:00' };

describe('formatDate', () => {
  it.each([
    ['2026-06-12T10:15:00+03:00', 'DD.MM.YYYY HH:mm', 'UTC', '12.06.2026 07:15'],
    ['2026-06-12T10:15:00+03:00', 'DD.MM.YYYY HH:mm', 'Z', '12.06.2026 07:15'],
    ['2026-06-12T10:15:00+03:00', 'DD.MM.YYYY HH:mm', '+03:00', '12.06.2026 10:15'],
    ['2026-06-12T01:15:30Z', 'YYYY-MM-DD HH:mm:ss', '-05:30', '2026-06-11 19:45:30'],
    ['2026-06-12', 'DD.MM.YYYY', '-05:00', '12.06.2026'],
    [Date.UTC(2026, 0, 2, 3, 4, 5), 'DD.MM.YYYY HH:mm:ss', 'UTC', '02.01.2026 03:04:05'],
    ['not a date', 'DD.MM.YYYY', 'UTC', 'not a date'],
  ])('%s as %s in %s → %s', (value, pattern, zone, expected) => {
    expect(formatDate(value, pattern, zone)).toBe(expected);
  });

  it('uses the process time zone for local', () => {
    const d = new Date('2026-06-12T07:15:00Z');
    const expected = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    expect(formatDate('2026-06-12T07:15:00Z', 'HH:mm', 'local')).toBe(expected);
  });
});

describe('formatCell', () => {
  it('maps values, leaves unknown ones, and fills defaults', () => {
    const column = { field: 'status', timeZone: 'local', map: { shipped: 'Отгружен' } };
    expect(formatCell(record, column)).toBe('Отгружен');
    expect(formatCell({ status: 'lost' }, column)).toBe('lost');
    expect(formatCell({}, { field: 'comment', timeZone: 'local', default: '-' })).toBe('-');
    expect(formatCell({ reasons: ['a', 'b'] }, { field: 'reasons', timeZone: 'local' })).toBe('a; b');
  });
});

describe('formatCellValue', () => {
  const column = (spec: Record<string, unknown>) => ({ field: 'v', timeZone: 'UTC', ...spec });
  it.each([
    ['a number', { v: -5.25 }, {}, { kind: 'number', text: '-5.25', value: -5.25 }],
    ['a numeric string (an INN keeps its zeros)', { v: '0012' }, {}, { kind: 'text', text: '0012' }],
    ['a number the map names', { v: 409 }, { map: { '409': 'Конфликт' } }, { kind: 'text', text: 'Конфликт' }],
    ['a number the map does not name', { v: 201 }, { map: { '409': 'Конфликт' } }, { kind: 'number', text: '201', value: 201 }],
    ['a missing value with a default', {}, { default: '0' }, { kind: 'text', text: '0' }],
    ['a date in a date column', { v: '2026-06-12' }, { date: 'DD.MM.YYYY' }, { kind: 'date', text: '12.06.2026', pattern: 'DD.MM.YYYY' }],
    ['an epoch-ms number in a date column', { v: Date.UTC(2026, 5, 12) }, { date: 'YYYY-MM-DD' }, { kind: 'date', text: '2026-06-12' }],
    ['a non-date in a date column', { v: 'soon' }, { date: 'DD.MM.YYYY' }, { kind: 'text', text: 'soon' }],
    ['a date the map names', { v: '2026-06-12' }, { date: 'DD.MM.YYYY', map: { '12.06.2026': 'сегодня' } }, { kind: 'text', text: 'сегодня' }],
    ['a boolean', { v: true }, {}, { kind: 'text', text: 'true' }],
  ])('%s', (_what, record, spec, expected) => {
    const cell = formatCellValue(record, column(spec));
    expect(cell).toMatchObject(expected);
    expect(cell.text).toBe(formatCell(record, column(spec))); // the CSV shows the same text
  });
});

describe('CSV cell quoting', () => {
  /** One cell alone in a header-less file, without its line end. */
  const quoteCsvCell = (text: string, delimiter: string): string =>
    renderExportFile([{ text }], format({ csv: { delimiter, header: false, lineEnding: 'lf' } }), 'perEvent')
      .toString('utf8')
      .slice(0, -1);
  it.each([
    ['plain', 'plain'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    ['a,b', 'a,b'],
  ])('%j → %j', (input, expected) => {
    expect(quoteCsvCell(input, ';')).toBe(expected);
  });
});

describe('renderExportFile', () => {
  it('writes windows-1251 CSV with the columns in order, CRLF, and ? for characters 1251 lacks', () => {
    const f = format({
      csv: { encoding: 'windows-1251', delimiter: ';' },
      columns: {
        Заказ: { field: 'orderId' },
        Статус: { field: 'status', map: { shipped: 'Отгружен' } },
        Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' },
        Примечание: { field: 'note' },
      },
    });
    const bytes = renderExportFile([{ ...record, note: 'ок ✓; 日本' }], f, 'perEvent');
    expect(bytes.includes(Buffer.from('Заказ', 'utf8'))).toBe(false);
    expect(bytes.includes(iconv.encode('Заказ', 'win1251'))).toBe(true);
    expect(iconv.decode(bytes, 'win1251')).toBe('Заказ;Статус;Дата;Примечание\r\nORD-2026-000042;Отгружен;12.06.2026 10:15;"ок ?; ??"\r\n');
  });

  it('writes UTF-8 with a BOM, LF line endings, no header, and every field when no columns are given', () => {
    const f = format({ csv: { encoding: 'utf-8-bom', delimiter: ',', header: false, lineEnding: 'lf' } });
    const bytes = renderExportFile([record, { ...record, eventId: 'EVT-000008', extra: 'x' }], f, 'batch');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(
      'EVT-000007,ORD-2026-000042,shipped,2026-06-12T10:15:00+03:00,\nEVT-000008,ORD-2026-000042,shipped,2026-06-12T10:15:00+03:00,x\n',
    );
  });

  it('writes one JSON object per file in perEvent mode and an array in batch mode', () => {
    const f = format({
      format: 'json',
      columns: {
        order: { field: 'orderId' },
        status: { field: 'status' },
        at: { field: 'eventDate', date: 'YYYY-MM-DD', timeZone: 'UTC' },
        missing: { field: 'nope' },
      },
    });
    expect(JSON.parse(renderExportFile([record], f, 'perEvent').toString('utf8'))).toEqual({
      order: 'ORD-2026-000042',
      status: 'shipped',
      at: '2026-06-12',
      missing: null,
    });
    expect(JSON.parse(renderExportFile([record], f, 'batch').toString('utf8'))).toEqual([
      { order: 'ORD-2026-000042', status: 'shipped', at: '2026-06-12', missing: null },
    ]);
  });

  it('writes JSON in windows-1251 when asked', () => {
    const f = format({ format: 'json', json: { encoding: 'windows-1251' } });
    const bytes = renderExportFile([{ status: 'Отгружен' }], f, 'perEvent');
    expect(JSON.parse(iconv.decode(bytes, 'win1251'))).toEqual({ status: 'Отгружен' });
    expect(bytes.includes(Buffer.from('Отгружен', 'utf8'))).toBe(false);
  });
});

describe('csv.escapeFormulas', () => {
  const records = [{ orderId: '=HYPERLINK("http://x","y")', amount: '-5', note: '@SUM(A1)' }];
  const columns = { order: { field: 'orderId' }, amount: { field: 'amount' }, note: { field: 'note' } };

  it('is off by default: the ERP reads -5 as the number it is', () => {
    const f = format({ csv: { lineEnding: 'lf' }, columns });
    expect(f.csv.escapeFormulas).toBe(false);
    expect(renderExportFile(records, f, 'perEvent').toString('utf8')).toBe('order;amount;note\n"=HYPERLINK(""http://x"",""y"")";-5;@SUM(A1)\n');
  });

  it('when on, puts a quote before every value cell a spreadsheet would run, and leaves the header alone', () => {
    const f = format({ csv: { lineEnding: 'lf', escapeFormulas: true }, columns: { ...columns, '=total': { field: 'amount' } } });
    expect(renderExportFile(records, f, 'perEvent').toString('utf8')).toBe(`order;amount;note;=total\n"'=HYPERLINK(""http://x"",""y"")";'-5;'@SUM(A1);'-5\n`);
  });

  it('does not touch JSON files', () => {
    const f = format({ format: 'json', csv: { escapeFormulas: true }, columns: { order: { field: 'orderId' } } });
    expect(JSON.parse(renderExportFile(records, f, 'perEvent').toString('utf8'))).toEqual({ order: '=HYPERLINK("http://x","y")' });
  });
});

describe('exportFormatSchema', () => {
  it('refuses unknown placeholders and bad time zones', () => {
    expect(exportFormatSchema.safeParse({ fileName: 'a-{nope}.csv' }).success).toBe(false);
    expect(exportFormatSchema.safeParse({ fileName: 'a.csv', columns: { A: { field: 'x', timeZone: 'Moscow' } } }).success).toBe(false);
    expect(exportFormatSchema.safeParse({ fileName: 'a-{seq}.csv', columns: { A: { field: 'x', timeZone: '+03:00' } } }).success).toBe(true);
  });
});
