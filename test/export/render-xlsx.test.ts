/**
 * The xlsx renderer, read back by exceljs and yauzl (readers that are not ours): the cells a
 * spreadsheet sees, the same columns and text as the CSV file, the hostile values, and the bytes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportFormatSchema, type ExportFormat } from '../../src/config/export-format-schema.js';
import { renderExportBytes, renderExportFile } from '../../src/export/render-file.js';
import { MAX_CELL_CHARS, TRUNCATION_MARKER } from '../../src/export/xlsx-cell.js';
import { readWorkbook, values, zipEntries } from '../helpers/read-workbook.js';

const xlsx = (raw: Record<string, unknown> = {}): ExportFormat => exportFormatSchema.parse({ format: 'xlsx', fileName: 'x.xlsx', ...raw });
const record = { eventId: 'EVT-000007', orderId: 'ORD-2026-000042', status: 'shipped', eventDate: '2026-06-12T07:15:00Z' };
const statusColumns = {
  Заказ: { field: 'orderId' },
  Статус: { field: 'status', map: { shipped: 'Отгружен' } },
  Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' },
  День: { field: 'eventDate', date: 'YYYY-MM-DD', timeZone: '+03:00' },
  Событие: { field: 'eventId' },
};

describe('renderExportBytes (xlsx)', () => {
  it('writes one sheet with a header row and typed cells: text, numbers as numbers, dates as dates in the pattern', async () => {
    const format = xlsx({
      xlsx: { sheet: 'Статусы' },
      columns: { ...statusColumns, Сумма: { field: 'amount' }, ИНН: { field: 'inn' }, Код: { field: 'httpStatus', map: { '409': 'Конфликт' } } },
    });
    const book = await readWorkbook(await renderExportBytes([{ ...record, amount: -1234.5, inn: '0012345678', httpStatus: 201 }], format, 'perEvent'));

    expect(book).toMatchObject({ sheets: 1, name: 'Статусы' });
    expect(book.rows).toHaveLength(2);
    expect(book.rows[0]!.every((cell) => cell.type === 'string')).toBe(true);
    expect(values(book.rows)[0]).toEqual(['Заказ', 'Статус', 'Дата', 'День', 'Событие', 'Сумма', 'ИНН', 'Код']);
    const [order, status, at, day, event, amount, inn, code] = book.rows[1]!;
    expect(order).toMatchObject({ type: 'string', value: 'ORD-2026-000042' });
    expect(status).toMatchObject({ type: 'string', value: 'Отгружен' });
    // exceljs reads a date as the UTC instant of its wall-clock time: 07:15Z shown at +03:00 is 10:15.
    expect(at).toEqual({ type: 'date', value: new Date(Date.UTC(2026, 5, 12, 10, 15)), numFmt: 'dd.mm.yyyy hh:mm' });
    expect(day).toEqual({ type: 'date', value: new Date(Date.UTC(2026, 5, 12)), numFmt: 'yyyy-mm-dd' });
    expect(event).toMatchObject({ type: 'string', value: 'EVT-000007' });
    expect(amount).toMatchObject({ type: 'number', value: -1234.5 });
    expect(inn).toMatchObject({ type: 'string', value: '0012345678' }); // text stays text: leading zeros kept
    expect(code).toMatchObject({ type: 'number', value: 201 }); // a number the map does not name stays a number
  });

  it('has the columns, header and cell text of the CSV file for the same records and format', async () => {
    const records = [record, { ...record, eventId: 'EVT-000008', status: 'lost', note: 'x' }, { orderId: 'ORD-2' }];
    for (const columns of [statusColumns, undefined]) {
      const csv = renderExportFile(records, exportFormatSchema.parse({ fileName: 'x.csv', csv: { delimiter: '\t', lineEnding: 'lf' }, columns }), 'batch')
        .toString('utf8')
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => line.split('\t'));
      const book = await readWorkbook(await renderExportBytes(records, xlsx({ columns }), 'batch'));
      const shown = book.rows.map((row) => row.map((cell) => (cell.type === 'date' ? 'date' : cell.value === null ? '' : String(cell.value))));
      const expected = csv.map((row, r) => row.map((text, c) => (book.rows[r]![c]!.type === 'date' ? 'date' : text)));
      expect(shown).toEqual(expected);
      expect(shown[0]).toEqual(csv[0]); // the header row, whichever columns
    }
  });

  it('writes no header row with xlsx.header: false', async () => {
    const book = await readWorkbook(await renderExportBytes([record], xlsx({ xlsx: { header: false }, columns: { Заказ: { field: 'orderId' } } }), 'perEvent'));
    expect(values(book.rows)).toEqual([['ORD-2026-000042']]);
  });

  it('shows a value starting with = as that text, never as a formula', async () => {
    const formulas = ['=1+1', '=HYPERLINK("http://x","y")', '+1', '-5x', '@SUM(A1)', "=cmd|'/C calc'!A0"];
    const book = await readWorkbook(
      await renderExportBytes(
        formulas.map((text) => ({ text })),
        xlsx({ columns: { '=total': { field: 'text' } } }),
        'batch',
      ),
    );
    expect(book.rows.map((row) => row[0])).toEqual(['=total', ...formulas].map((value) => ({ type: 'string', value, numFmt: undefined })));
  });

  it('replaces characters XML cannot carry, so the workbook still opens', async () => {
    const hostile = 'a\u0000b\u0008c\u000bd\u001fe\uD800f\uDFFFg\uFFFEh\uFFFF';
    const book = await readWorkbook(await renderExportBytes([{ text: hostile, ok: 'tab\tlf\nend' }], xlsx(), 'perEvent'));
    expect(values(book.rows)[1]).toEqual(['a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uFFFD', 'tab\tlf\nend']);
  });

  it("cuts a value longer than Excel's 32,767 characters, with the marker, and leaves one of exactly 32,767 whole", async () => {
    const long = 'Ж'.repeat(MAX_CELL_CHARS + 10);
    const exact = 'Я'.repeat(MAX_CELL_CHARS);
    const [, [cut, whole]] = values((await readWorkbook(await renderExportBytes([{ long, exact }], xlsx(), 'perEvent'))).rows) as [unknown, string[]];
    expect(cut).toHaveLength(MAX_CELL_CHARS);
    expect(cut).toBe('Ж'.repeat(MAX_CELL_CHARS - TRUNCATION_MARKER.length) + TRUNCATION_MARKER);
    expect(whole).toBe(exact);
  });

  it('streams a large batch whole: every row, in order', async () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({ n: i, text: `строка ${i} `.repeat(5) }));
    const book = await readWorkbook(await renderExportBytes(records, xlsx(), 'batch'));
    expect(book.rows).toHaveLength(3001);
    expect(book.rows.slice(1).map((row) => row[0]!.value)).toEqual(records.map((r) => r.n));
    expect(book.rows[3000]![1]!.value).toBe(records[2999]!.text);
  });

  it('refuses to render a workbook synchronously', () => {
    expect(() => renderExportFile([record], xlsx(), 'perEvent')).toThrow(/renderExportBytes/);
  });
});

describe('the xlsx package', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the six parts in a fixed order, each dated 2000-01-01 00:00 with no extra fields', async () => {
    const entries = await zipEntries(await renderExportBytes([record], xlsx({ columns: statusColumns }), 'perEvent'));
    expect(entries.map((e) => e.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const dos2000 = (20 << 9) | (1 << 5) | 1; // year 1980 + 20, January, day 1
    expect(entries.map((e) => [e.dosDate, e.dosTime, e.extraFieldIds])).toEqual(entries.map(() => [dos2000, 0, []]));
    const sheet = entries[5]!.bytes.toString('utf8');
    expect(sheet).not.toContain('<f>'); // no formula anywhere
    expect(sheet).toContain('t="inlineStr"');
    expect(entries[4]!.bytes.toString('utf8')).toContain('formatCode="dd.mm.yyyy hh:mm"');
  });

  it('gives the same records the same bytes at another time and in another time zone, and other records other bytes', async () => {
    const format = xlsx({ xlsx: { sheet: 'Статусы' }, columns: statusColumns });
    const records = [record, { ...record, eventId: 'EVT-000008', note: '=1+1' }];
    const zone = process.env.TZ;
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      process.env.TZ = 'UTC';
      vi.setSystemTime(new Date('2026-06-12T07:15:00Z'));
      const first = await renderExportBytes(records, format, 'batch');
      process.env.TZ = 'Asia/Kathmandu'; // +05:45: every local field of a time differs from UTC's
      vi.setSystemTime(new Date('2031-01-02T03:04:05Z'));
      const again = await renderExportBytes(records, format, 'batch');
      expect(again.equals(first)).toBe(true);
      const other = await renderExportBytes([record, { ...record, eventId: 'EVT-000009' }], format, 'batch');
      expect(other.equals(first)).toBe(false);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
