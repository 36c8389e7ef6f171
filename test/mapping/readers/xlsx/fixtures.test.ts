/**
 * Workbooks written by other programs (LibreOffice, exceljs; test/fixtures/xlsx/README.md says how
 * each was made), read by the reader directly and mapped through `mapFile`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MappingSpec } from '../../../../src/config/mapping-schema.js';
import type { TableRow } from '../../../../src/mapping/readers/types.js';
import { openWorkbook } from '../../../../src/mapping/readers/xlsx-reader.js';
import { ROOT, specOf, split } from '../../../helpers/mapping-fixtures.js';
import { flat, XLSX_OPTIONS } from '../../../helpers/xlsx/workbook-builder.js';

const fixture = (name: string) => path.join(ROOT, 'test/fixtures/xlsx', name);

async function rowsOf(name: string, options = {}): Promise<{ rows: TableRow[]; label: string | undefined }> {
  const handle = await fs.open(fixture(name));
  try {
    const input = openWorkbook(handle, { ...XLSX_OPTIONS, ...options });
    const rows: TableRow[] = [];
    for await (const row of input.rows) rows.push(row);
    return { rows, label: input.label };
  } finally {
    await handle.close();
  }
}

/** A requests mapping over the fixtures' columns; what they lack is a constant. */
function mappingFor(columns: { document: string; inn: string; date: string; item: string; quantity: string }, xlsx: Record<string, unknown> = {}): MappingSpec {
  return specOf({
    format: 'xlsx',
    xlsx,
    groupBy: columns.document,
    request: {
      externalId: { column: columns.document },
      'customer.inn': { column: columns.inn },
      'customer.name': { const: 'ООО «Ромашка»' },
      'contact.name': { const: 'Иванов Иван' },
      'contact.phone': { const: '+7 495 123-45-67' },
      'delivery.city': { const: 'Москва' },
      'delivery.address': { const: 'ул. Ленина, 1' },
      'delivery.desiredDate': { column: columns.date, date: 'YYYY-MM-DD' },
    },
    items: { lineId: { counter: true }, name: { column: columns.item }, quantity: { column: columns.quantity }, unit: { const: 'шт' } },
  });
}

describe('LibreOffice workbooks', () => {
  it('lo-1c-report.xlsx: a 1C-like report, merges spread, dates typed, formulas cached, the INN a number', async () => {
    const { rows, label } = await rowsOf('lo-1c-report.xlsx');
    const title = 'Заявки на закупку';
    expect(label).toBe('sheet "Заявки"');
    expect(flat(rows)).toEqual([
      [1, title, title, title, title, title, title, title, title, title],
      [2, 'Период: 01.01.2026 - 31.03.2026'],
      [4, 'Документ', 'Дата', 'Организация', 'ИНН', 'Дата поставки', 'Товар', 'Товар', 'Количество', 'Сумма'],
      [5, 'Документ', 'Дата', 'Организация', 'ИНН', 'Дата поставки', 'Наименование', 'Ед.', 'Количество', 'Сумма'],
      [6, 'ЗК-1', '2026-03-02', 'ООО «Ромашка»', 7707083893, '2030-03-15', 'Бумага офисная А4', 'пачка', 50, 12500],
      [7, 'ЗК-1', '2026-03-02', 'ООО «Ромашка»', 7707083893, '2030-03-15', 'Ручка шариковая', 'шт', 12.5, 500],
      [8, 'ЗК-2', '2026-03-03', 'АО «Уралхим»', 274062111, '2030-04-01', 'Перчатки нитриловые', 'пара', 1200, 10800],
      [9, '', '', '', '', '', 'Маска защитная', 'шт', 300, 4500],
      [10, 'Итого', '', '', '', '', '', '', 1562.5, 28300],
    ]);
  });

  it('lo-two-sheets-1904.xlsx: the second sheet by name or position, 1904 dates with and without a time', async () => {
    const byName = await rowsOf('lo-two-sheets-1904.xlsx', { sheet: 'заявки' });
    expect(flat(byName.rows)).toEqual([
      [1, 'Номер', 'Дата поставки', 'Создана', 'Количество'],
      [2, 'ЗК-7', '2030-03-15', '2026-03-02 14:30:00', 3],
    ]);
    expect(flat((await rowsOf('lo-two-sheets-1904.xlsx', { sheet: 2 })).rows)).toEqual(flat(byName.rows));
    expect(flat((await rowsOf('lo-two-sheets-1904.xlsx')).rows)).toEqual([
      [1, 'Единица'],
      [2, 'шт'],
    ]);
  });

  it('lo-1c-report.xls: the same report saved as Excel 97-2003 is named for what it is', async () => {
    const spec = mappingFor({ document: 'Документ', inn: 'ИНН', date: 'Дата поставки', item: 'Наименование', quantity: 'Количество' });
    const { problems } = await split(fixture('lo-1c-report.xls'), spec);
    expect(problems).toEqual([
      {
        row: null,
        field: null,
        code: 'FILE_FORMAT_UNSUPPORTED',
        message: 'lo-1c-report.xls: is an Excel 97-2003 workbook (.xls): save it as .xlsx (Excel 2007 or later)',
        text: { key: 'fileIsXls' },
      },
    ]);
  });

  it('lo-1c-report.xlsx through mapFile: the two-row header found, ЗК-1 merged down over its lines maps', async () => {
    const spec = mappingFor({ document: 'Документ', inn: 'ИНН', date: 'Дата поставки', item: 'Наименование', quantity: 'Количество' });
    const { submissions } = await split(fixture('lo-1c-report.xlsx'), spec);
    expect(submissions[0]).toMatchObject({
      externalId: 'ЗК-1',
      firstRow: 6,
      payload: {
        customer: { inn: '7707083893' },
        delivery: { desiredDate: '2030-03-15' },
        items: [
          { lineId: '1', name: 'Бумага офисная А4', quantity: 50 },
          { lineId: '2', name: 'Ручка шариковая', quantity: 12.5 },
        ],
      },
    });
  });

  // ЗК-2 writes its document columns once, above its lines (row 9 is blank there), and the report
  // ends with a totals row: fill-down gives row 9 to ЗК-2, the Итого row is skipped, and ЗК-2's INN,
  // stored as the number 274062111, gets its leading zero back.
  it('lo-1c-report.xlsx with fillDown: true: ЗК-2 gets its second line, Итого is skipped', async () => {
    const raw = mappingFor({ document: 'Документ', inn: 'ИНН', date: 'Дата поставки', item: 'Наименование', quantity: 'Количество' });
    const { submissions, problems } = await split(fixture('lo-1c-report.xlsx'), { ...raw, fillDown: true });
    expect(problems).toEqual([]);
    expect(submissions.map((s) => [s.externalId, s.payload.items.length])).toEqual([
      ['ЗК-1', 2],
      ['ЗК-2', 2],
    ]);
    expect(submissions[1]!.payload).toMatchObject({ customer: { inn: '0274062111' } });
  });
});

describe('exceljs workbooks', () => {
  it('exceljs-hidden-first.xlsx: the hidden first sheet is the default; the requests sheet by name, 1904 dates, rich text, merges', async () => {
    expect((await rowsOf('exceljs-hidden-first.xlsx')).label).toBe('sheet "Справочник" (hidden)');
    const { rows, label } = await rowsOf('exceljs-hidden-first.xlsx', { sheet: 'Заявки 2026' });
    expect(label).toBe('sheet "Заявки 2026"');
    expect(flat(rows)).toEqual([
      [1, 'Документ', 'ИНН', 'Дата поставки', 'Товар', 'Товар', 'Сумма'],
      [2, 'Документ', 'ИНН', 'Дата поставки', 'Наименование', 'Количество', 'Сумма'],
      [3, 'ЗК-11', 7707083893, '2030-03-15', 'Бумага офисная А4', 50, 500],
      [4, 'ЗК-11', 7707083893, '2030-03-15', 'Ручка шариковая', 12.5, 125],
      [5, 'ЗК-12', 274062111, '2030-04-01 09:30:00', 'Перчатки нитриловые', 1200, 12000],
    ]);
  });

  it('exceljs-hidden-first.xlsx through mapFile: the INN stored as a number gets back the leading zero it lost', async () => {
    const spec = mappingFor(
      { document: 'Документ', inn: 'ИНН', date: 'Дата поставки', item: 'Наименование', quantity: 'Количество' },
      { sheet: 'Заявки 2026' },
    );
    const { submissions, problems } = await split(fixture('exceljs-hidden-first.xlsx'), spec);
    expect(problems).toEqual([]);
    expect(submissions.map((s) => [s.externalId, s.firstRow, s.payload.items.length])).toEqual([
      ['ЗК-11', 3, 2],
      ['ЗК-12', 5, 1],
    ]);
    expect(submissions[1]!.payload).toMatchObject({ customer: { inn: '0274062111' } });
  });

  it('exceljs-inline.xlsx: text written as formula strings (t="str"), the document merged down, through mapFile', async () => {
    const { rows } = await rowsOf('exceljs-inline.xlsx');
    expect(flat(rows)[2]).toEqual([3, 'ЗК-11', 7707083893, '2030-03-15', 'Ручка шариковая', 12.5, 125]);
    const spec = mappingFor({ document: 'Документ', inn: 'ИНН', date: 'Дата поставки', item: 'Товар', quantity: 'Количество' });
    const { submissions } = await split(fixture('exceljs-inline.xlsx'), spec);
    expect(submissions.map((s) => [s.externalId, s.payload.items.map((i) => ('name' in i ? i.name : ''))])).toEqual([
      ['ЗК-11', ['Бумага офисная А4', 'Ручка шариковая']],
      ['ЗК-12', ['Перчатки нитриловые']],
    ]);
  });
});
