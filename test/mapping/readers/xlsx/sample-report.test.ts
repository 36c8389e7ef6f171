/** samples/requests-1c-report.xlsx (the demo's 1C report, written by LibreOffice) with config/mappings/1c-report-xlsx.yaml. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../../../src/config/load-mapping.js';
import type { TableRow } from '../../../../src/mapping/readers/types.js';
import { xlsxReader } from '../../../../src/mapping/readers/xlsx-reader.js';
import { ROOT, split } from '../../../helpers/mapping-fixtures.js';
import { flat } from '../../../helpers/xlsx/workbook-builder.js';

const SAMPLE = path.join(ROOT, 'samples/requests-1c-report.xlsx');
const spec = () => loadMappingSpec(path.join(ROOT, 'config/mappings/1c-report-xlsx.yaml'));

const ROMASHKA = {
  externalId: 'ЗК-000401',
  customer: { inn: '7707083893', name: 'ООО «Ромашка»' },
  contact: { name: 'Иванов Иван Петрович', phone: '+7 495 123-45-67', email: 'ivanov@romashka.ru' },
  delivery: { city: 'Москва', address: 'ул. Ленина, д. 1, склад 3', desiredDate: '2030-03-15' },
  items: [
    { lineId: '1', name: 'Бумага офисная А4', quantity: 50, unit: 'пачка' },
    { lineId: '2', name: 'Картридж HP 85A', quantity: 4, unit: 'шт' },
    { lineId: '3', name: 'Ручка шариковая синяя', quantity: 100, unit: 'шт' },
  ],
};

describe('samples/requests-1c-report.xlsx', () => {
  it('reads as 1C laid it out: merged request columns on every line, ЗК-000402 once, the totals row last', async () => {
    const handle = await fs.open(SAMPLE);
    const rows: TableRow[] = [];
    try {
      for await (const row of xlsxReader.open(handle, spec()).rows) rows.push(row);
    } finally {
      await handle.close();
    }
    const table = flat(rows);
    expect(table.map((row) => row[0])).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(table[2]!.slice(11)).toEqual(['Товары', 'Товары', 'Товары']);
    expect(table[3]!.slice(1)).toEqual([
      'Номер заявки',
      'Дата',
      'Организация',
      'ИНН',
      'Контакт',
      'Телефон',
      'E-mail',
      'Город',
      'Адрес',
      'Желаемая дата',
      'Номенклатура',
      'Количество',
      'Ед. изм.',
    ]);
    expect(table[6]).toEqual([
      8,
      'ЗК-000401',
      '2026-03-02',
      'ООО «Ромашка»',
      '7707083893',
      'Иванов Иван Петрович',
      '+7 495 123-45-67',
      'ivanov@romashka.ru',
      'Москва',
      'ул. Ленина, д. 1, склад 3',
      '2030-03-15',
      'Ручка шариковая синяя',
      100,
      'шт',
    ]);
    expect(table[8]).toEqual([10, '', '', '', '', '', '', '', '', '', '', 'Маска защитная', 300, 'шт']);
    expect(table[11]).toEqual([13, 'Итого', '', '', '', '', '', '', '', '', '', '', 1676]);
  });

  it('maps the requests merged down over their lines without fillDown; the one 1C wrote once above its lines needs it', async () => {
    const { submissions, problems } = await split(SAMPLE, { ...spec(), fillDown: false });
    expect(submissions.find((s) => s.externalId === 'ЗК-000401')).toMatchObject({ firstRow: 6, payload: ROMASHKA });
    expect(submissions.find((s) => s.externalId === 'ЗК-000403')?.payload.items).toHaveLength(2);
    // ЗК-000402's second line (row 10) leaves the request columns blank.
    // The problem names its cell, as the report, the console and the log show it.
    expect(problems.map((p) => [p.code, p.row, p.cell, p.field])).toEqual([['FIELD_REQUIRED', 10, 'Заявки!A10', 'externalId']]);
    expect(problems[0]!.message).toMatch(/^Row 10 \(Заявки!A10\) of requests-1c-report\.xlsx: externalId is empty/);
  });

  // fillDown: ЗК-000402's columns stand once, above its second line; skipRows: the Итого row.
  it('maps every request with fillDown and skipRows: three requests, no problem', async () => {
    const { submissions, problems } = await split(SAMPLE, spec());
    expect(problems).toEqual([]);
    expect(submissions.map((s) => [s.externalId, s.firstRow, s.payload.items.length])).toEqual([
      ['ЗК-000401', 6, 3],
      ['ЗК-000402', 9, 2],
      ['ЗК-000403', 11, 2],
    ]);
    expect(submissions[0]!.payload).toEqual(ROMASHKA);
    expect(submissions[1]!.payload).toMatchObject({ customer: { inn: '0274062111' }, delivery: { desiredDate: '2030-04-01' } });
  });
});
