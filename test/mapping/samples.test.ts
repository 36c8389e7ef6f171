/** Every sample in samples/ maps to the expected payloads with its mapping; every broken one fails as documented. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import type { CreateRequest } from '../../src/platform/contract.js';
import type { MappedSubmission } from '../../src/mapping/types.js';
import { ROOT, split } from '../helpers/mapping-fixtures.js';

function requestOf(submission: MappedSubmission | undefined): CreateRequest {
  if (submission?.kind !== 'request') throw new Error('expected a request');
  return submission.payload;
}

const sample = (name: string) => path.join(ROOT, 'samples', name);
const mapping = (name: string) => loadMappingSpec(path.join(ROOT, 'config/mappings', name));

describe('samples', () => {
  it('requests-1c-windows1251.csv: three requests from windows-1251 rows', async () => {
    const { submissions, problems } = await split(sample('requests-1c-windows1251.csv'), mapping('1c-requests.yaml'));
    expect(problems).toEqual([]);
    expect(submissions.map((s) => [s.externalId, s.firstRow, s.payload.items.length])).toEqual([
      ['ЗК-000101', 2, 3],
      ['ЗК-000102', 5, 2],
      ['ЗК-000103', 7, 4],
    ]);
    expect(submissions[0]).toEqual({
      kind: 'request',
      externalId: 'ЗК-000101',
      firstRow: 2,
      payload: {
        externalId: 'ЗК-000101',
        customer: { inn: '7707083893', name: 'ООО "Ромашка"' },
        contact: { name: 'Иванов Иван Петрович', phone: '+7 495 123-45-67', email: 'ivanov@romashka.ru' },
        delivery: { city: 'Москва', address: 'ул. Ленина, д. 1, склад 3', desiredDate: '2027-03-15' },
        comment: 'Срочно',
        items: [
          { lineId: '1', name: 'Бумага офисная А4', quantity: 50, unit: 'пачка' },
          { lineId: '2', name: 'Картридж HP 85A', quantity: 4, unit: 'шт', comment: 'оригинал, не совместимый' },
          { lineId: '3', name: 'Ручка шариковая синяя', quantity: 100, unit: 'шт' },
        ],
      },
    });
    // leading zero of the INN kept, NBSP thousands separator cleaned out
    expect(submissions[1]!.payload).toMatchObject({ customer: { inn: '0274062111' }, items: [{ quantity: 1200 }, { quantity: 300 }] });
    expect(submissions[1]!.payload).not.toHaveProperty('comment');
    // a quoted delimiter inside a field
    expect(submissions[2]!.payload).toMatchObject({ delivery: { address: 'наб. Обводного канала, 1; вход со двора' }, comment: 'Доставка; только в будни' });
  });

  it('requests-utf8-bom.csv: BOM stripped, template key, thin-space thousands, decimal comma, map and default', async () => {
    const spec = mapping('requests-utf8-bom.yaml');
    const { submissions, problems } = await split(sample('requests-utf8-bom.csv'), spec);
    expect(problems).toEqual([]);
    expect(submissions).toHaveLength(2);
    expect(submissions[0]!.payload).toEqual({
      externalId: 'ЗКП-000201',
      customer: { inn: '500100732259', name: 'ИП Смирнов Алексей Викторович' },
      contact: { name: 'Смирнов А.В.', phone: '+7 916 000-11-22', email: 'smirnov@example.ru' },
      delivery: { city: 'Подольск', address: 'ул. Кирова, 10', desiredDate: '2027-05-20' },
      comment: 'Загружено из Excel',
      items: [
        { lineId: '01', name: 'Краска фасадная белая', quantity: 12.5, unit: 'л' },
        { lineId: '02', name: 'Валик малярный', quantity: 1000, unit: 'шт', comment: 'поролоновый' },
      ],
    });
    expect(requestOf(submissions[1]).contact).toEqual({ name: 'Кузнецова Мария', email: 'kuznetsova@baltika.example' });
    expect(requestOf(submissions[1]).items.map((i) => i.unit)).toEqual(['упак', 'шт']);
    expect(spec.acknowledgements.csv.encoding).toBe('utf-8-bom');
  });

  it('requests.json: requests at data.requests, lines at "lines"', async () => {
    const { submissions, problems } = await split(sample('requests.json'), mapping('requests-json.yaml'));
    expect(problems).toEqual([]);
    expect(submissions.map((s) => s.externalId)).toEqual(['ЗК-000301', 'ЗК-000302']);
    expect(submissions[0]!.payload).toEqual({
      externalId: 'ЗК-000301',
      customer: { inn: '7702070139', name: 'ООО «Техснаб»' },
      contact: { name: 'Орлов Дмитрий', phone: '+7 495 765-43-21', email: 'orlov@tehsnab.example' },
      delivery: { city: 'Москва', address: 'Варшавское ш., 118, корп. 1', desiredDate: '2027-02-10' },
      comment: 'Поставка одной партией',
      items: [
        { lineId: '1', name: 'Ноутбук Lenovo ThinkPad E14', quantity: 5, unit: 'шт' },
        { lineId: '2', name: 'Монитор Dell P2422H', quantity: 5, unit: 'шт', comment: 'с кабелем HDMI' },
        { lineId: '3', name: 'Сумка для ноутбука', quantity: 5, unit: 'шт' },
      ],
    });
    expect(requestOf(submissions[1]).items[1]!.quantity).toBe(20);
  });

  it('supplier-confirmation.csv: two confirmations keyed by order id', async () => {
    const { submissions, problems } = await split(sample('supplier-confirmation.csv'), mapping('supplier-confirmations.yaml'));
    expect(problems).toEqual([]);
    expect(submissions[0]).toEqual({
      kind: 'confirmation',
      externalId: 'ORD-2026-000001',
      orderId: 'ORD-2026-000001',
      firstRow: 2,
      payload: {
        supplierOrderId: 'П-7781',
        readyToShipDate: '2027-02-20',
        comment: 'Отгрузка со склада в Химках',
        items: [
          { lineId: '1', confirmedQuantity: 50, price: 345, currency: 'RUB' },
          { lineId: '2', confirmedQuantity: 4, price: 7890.5, currency: 'RUB' },
          { lineId: '3', confirmedQuantity: 90, price: 12.35, currency: 'RUB' },
        ],
      },
    });
    expect(submissions[1]!.payload).toEqual({
      supplierOrderId: 'П-7782',
      readyToShipDate: '2027-03-10',
      items: [
        { lineId: '1', confirmedQuantity: 1200, price: 48.9, currency: 'RUB' },
        { lineId: '2', confirmedQuantity: 300, price: 215, currency: 'RUB' },
      ],
    });
  });
});

describe('broken samples', () => {
  it('bad-inn.csv: the request with the bad INN yields only a problem; the others go through', async () => {
    const { submissions, problems } = await split(sample('broken/bad-inn.csv'), mapping('1c-requests.yaml'));
    expect(submissions.map((s) => s.externalId)).toEqual(['ЗК-000101', 'ЗК-000103']);
    expect(problems).toEqual([
      {
        row: 5,
        field: 'customer.inn',
        code: 'INN_INVALID',
        value: '0274062112',
        externalId: 'ЗК-000102',
        message: 'Row 5 of bad-inn.csv: customer.inn "0274062112" fails the INN check digit',
        text: { key: 'innCheck' },
      },
    ]);
  });

  it('missing-column.csv: COLUMN_MISSING names the column and the mapping key, and ends the file', async () => {
    const { items } = await split(sample('broken/missing-column.csv'), mapping('1c-requests.yaml'));
    expect(items).toEqual([
      {
        kind: 'problem',
        problem: {
          row: null,
          field: 'Количество',
          code: 'COLUMN_MISSING',
          message: 'missing-column.csv: column "Количество" (named by items.quantity) is not in the header',
          text: { key: 'columnMissing', params: { column: 'Количество', key: 'items.quantity' } },
        },
      },
    ]);
  });

  it('wrong-encoding.csv: windows-1251 bytes under a UTF-8 mapping are FILE_UNREADABLE', async () => {
    const { items } = await split(sample('broken/wrong-encoding.csv'), mapping('supplier-confirmations.yaml'));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'problem', problem: { row: null, field: null, code: 'FILE_UNREADABLE' } });
    expect((items[0] as { problem: { message: string } }).problem.message).toMatch(
      /^wrong-encoding\.csv: is not valid UTF-8: invalid byte sequence at byte \d+$/,
    );
  });

  it('truncated.csv: a file cut inside a quoted field is FILE_UNREADABLE, after the complete requests', async () => {
    const { items, submissions, problems } = await split(sample('broken/truncated.csv'), mapping('1c-requests.yaml'));
    // ЗК-000101 ended before the cut; ЗК-000102 was still open when the parser failed, so it is not
    // emitted (its rows may be incomplete). The file-level problem comes last and ends the stream.
    expect(submissions.map((s) => s.externalId)).toEqual(['ЗК-000101']);
    expect(problems).toHaveLength(1);
    expect(items.at(-1)).toMatchObject({ kind: 'problem', problem: { row: null, code: 'FILE_UNREADABLE' } });
    expect(problems[0]!.message).toMatch(/^truncated\.csv: is not readable CSV: the file ends inside a quoted field/);
  });
});
