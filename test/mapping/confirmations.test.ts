/** Supplier confirmations: mapping and validation (prices, currency, quantities, dates, order ids). */
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { toCsv } from '../helpers/fixtures.js';
import { specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

const HEADER = ['Заказ', 'Номер у поставщика', 'Готов к отгрузке', 'Строка', 'Количество', 'Цена', 'Валюта'];
const mapping = () =>
  specOf({
    format: 'csv',
    csv: { encoding: 'utf-8', delimiter: ';', decimalComma: true },
    groupBy: 'Заказ',
    orderId: { column: 'Заказ' },
    confirmation: {
      supplierOrderId: { column: 'Номер у поставщика' },
      readyToShipDate: { column: 'Готов к отгрузке', date: 'DD.MM.YYYY' },
    },
    items: {
      lineId: { column: 'Строка' },
      confirmedQuantity: { column: 'Количество', number: true },
      price: { column: 'Цена', number: true },
      currency: { column: 'Валюта' },
    },
  });

const row = (patch: Partial<Record<(typeof HEADER)[number], string>> = {}, line = '1') => {
  const base: Record<string, string> = {
    Заказ: 'ORD-2026-000123',
    'Номер у поставщика': 'S-1',
    'Готов к отгрузке': '01.02.2027',
    Строка: line,
    Количество: '10',
    Цена: '1 234,50',
    Валюта: 'RUB',
  };
  return HEADER.map((h) => patch[h] ?? base[h]!);
};

async function problemsOf(rows: string[][]) {
  return withTempDir(async (dir) => split(writeInput(dir, 'conf.csv', toCsv([HEADER, ...rows])), mapping()));
}

describe('confirmations', () => {
  it('maps a valid confirmation keyed by its order id', async () => {
    const { submissions, problems } = await problemsOf([row(), row({ Цена: '0,5', Количество: '0' }, '2')]);
    expect(problems).toEqual([]);
    expect(submissions).toEqual([
      {
        kind: 'confirmation',
        externalId: 'ORD-2026-000123',
        orderId: 'ORD-2026-000123',
        firstRow: 2,
        payload: {
          supplierOrderId: 'S-1',
          readyToShipDate: '2027-02-01',
          items: [
            { lineId: '1', confirmedQuantity: 10, price: 1234.5, currency: 'RUB' },
            { lineId: '2', confirmedQuantity: 0, price: 0.5, currency: 'RUB' },
          ],
        },
      },
    ]);
  });

  it.each([
    [{ Цена: '10,555' }, 'items[0].price', 'FIELD_INVALID', 'Row 2 of conf.csv: items[0].price "10,555" must have at most two decimal places'],
    [{ Валюта: 'RU' }, 'items[0].currency', 'FIELD_INVALID', 'Row 2 of conf.csv: items[0].currency "RU" must be a three-letter ISO 4217 code'],
    [{ Количество: '-1' }, 'items[0].confirmedQuantity', 'FIELD_INVALID', 'Row 2 of conf.csv: items[0].confirmedQuantity "-1" must not be negative'],
    [{ Цена: '-5' }, 'items[0].price', 'FIELD_INVALID', 'Row 2 of conf.csv: items[0].price "-5" must not be negative'],
    [
      { 'Готов к отгрузке': '30.02.2027' },
      'readyToShipDate',
      'FIELD_INVALID',
      'Row 2 of conf.csv: readyToShipDate "30.02.2027" is not a real date in the form DD.MM.YYYY',
    ],
    [{ Заказ: 'ORDER-7' }, 'orderId', 'FIELD_INVALID', 'Row 2 of conf.csv: orderId "ORDER-7" must look like ORD-2026-000123'],
    [{ 'Номер у поставщика': '' }, 'supplierOrderId', 'FIELD_REQUIRED', 'Row 2 of conf.csv: supplierOrderId is empty'],
  ])('%j → %s %s', async (patch, field, code, message) => {
    const { submissions, problems } = await problemsOf([row(patch)]);
    expect(submissions).toEqual([]);
    expect(problems).toEqual([expect.objectContaining({ row: 2, field, code, message })]);
  });

  it('a duplicate line is LINE_DUPLICATE on the later row', async () => {
    const { problems } = await problemsOf([row(), row({}, '1')]);
    expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([[3, 'items[1].lineId', 'LINE_DUPLICATE']]);
  });

  it('upper-cases the currency (decision: rub means RUB)', async () => {
    const { submissions } = await problemsOf([row({ Валюта: 'rub' })]);
    expect(submissions[0]!.payload.items[0]).toMatchObject({ currency: 'RUB' });
  });
});
