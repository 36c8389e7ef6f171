/**
 * `preset: enterprisedata` with config/mappings/enterprisedata-orders.yaml: the same purchase order
 * written in the shapes of EnterpriseData 1.6, 1.8 and 1.21 (`test/helpers/enterprisedata.ts`)
 * maps to the same request wherever a version carries the field, and to the documented stand-in
 * where it does not; other objects of a message are read past; a missing value is a problem.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { mapFile } from '../../src/mapping/map-file.js';
import type { CreateRequest } from '../../src/platform/contract.js';
import type { MappingProblem } from '../../src/shared/types.js';
import { PEER_MESSAGE, edCatalogItem, edMessage, edOrder, edZip, type EdOrderInput } from '../helpers/enterprisedata.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ROOT, writeInput } from '../helpers/mapping-fixtures.js';

const spec = () => loadMappingSpec(path.join(ROOT, 'config/mappings/enterprisedata-orders.yaml'));
const OPTIONS = { now: new Date('2026-11-26'), rejectPastDates: false };

/** What `mapFile` makes of `content` written to a temp file under 1C's name for it. */
async function mapMessage(content: string | Buffer, name = PEER_MESSAGE, archivePassword?: string) {
  return withTempDir(async (dir) => {
    const file = writeInput(dir, name, content);
    const submissions: { externalId: string; firstRow: number; payload: CreateRequest }[] = [];
    const problems: MappingProblem[] = [];
    for await (const item of mapFile(file, spec(), { ...OPTIONS, archivePassword })) {
      if (item.kind === 'problem') problems.push(item.problem);
      else if (item.submission.kind === 'request') submissions.push(item.submission);
      else throw new Error(`expected requests only, got a ${item.submission.kind}`);
    }
    return { submissions, problems };
  });
}

/** The payloads of a data message in `version` holding `orders`, none of them a problem. */
async function payloads(version: string, ...orders: EdOrderInput[]) {
  const { submissions, problems } = await mapMessage(edMessage({ version, no: 1, body: orders.map((order) => edOrder(version, order)) }));
  expect(problems).toEqual([]);
  return submissions.map((submission) => submission.payload);
}

const ORDER: EdOrderInput = {
  number: 'ЗП-000125',
  date: '2030-03-01T10:00:00',
  expected: '2030-03-20',
  address: '141400, Московская обл, г Химки, ул Заводская, д 5',
  comment: 'Разгрузка с 9 до 18',
  lines: [
    { name: 'Бумага А4', quantity: '20', unit: 'пачка', unitCode: '778' },
    { name: 'Картридж', quantity: '2.5', unit: '', unitCode: '796' },
  ],
};

/** The request every version gives for ORDER; each version's differences are spelled out below. */
const COMMON = {
  externalId: 'ЗП-000125',
  customer: { inn: '7707083893', name: 'Общество с ограниченной ответственностью "Ромашка"' },
  delivery: { city: 'Химки', address: '141400, Московская обл, г Химки, ул Заводская, д 5' },
  items: [
    // The unit's name as written; a unit written by its OKEI code only is the code's short name.
    { lineId: '1', name: 'Бумага А4', quantity: 20, unit: 'пачка' },
    { lineId: '2', name: 'Картридж', quantity: 2.5, unit: 'шт' },
  ],
};

describe('the same order in each version', () => {
  it.each<[string, object]>([
    // 1.6 carries no date wanted (the order's own date stands in), no contact person (the
    // mapping's default stands in) and no comment; its unit is flat.
    ['1.6', { ...COMMON, contact: { name: 'Отдел закупок', phone: '+7 000 000-00-00' }, delivery: { ...COMMON.delivery, desiredDate: '2030-03-01' } }],
    // 1.8: the contact person and the date wanted (ОжидаемаяДатаПоступления); the unit under ДанныеКлассификатора.
    ['1.8', { ...COMMON, contact: { name: 'Иванов Иван Иванович', phone: '+7 000 000-00-00' }, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' } }],
    // 1.21: ДатаДоставкиОтПоставщика, and the comment from ОбщиеСвойстваОбъектовФормата.
    [
      '1.21',
      {
        ...COMMON,
        contact: { name: 'Иванов Иван Иванович', phone: '+7 000 000-00-00' },
        delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' },
        comment: 'Разгрузка с 9 до 18',
      },
    ],
  ])('%s', async (version, expected) => {
    expect(await payloads(version, ORDER)).toEqual([expected]);
  });

  it('the shapes really differ where the test says they do', () => {
    expect(edOrder('1.6', ORDER)).toContain('<ЕдиницаИзмерения><Код>778</Код><Наименование>пачка</Наименование></ЕдиницаИзмерения>');
    expect(edOrder('1.8', ORDER)).toContain('<ЕдиницаИзмерения><ДанныеКлассификатора><Код>778</Код><Наименование>пачка</Наименование>');
    expect(edOrder('1.6', ORDER)).not.toMatch(/ОжидаемаяДата|КонтактноеЛицо|Комментарий/);
    expect(edOrder('1.8', ORDER)).toContain('<ОжидаемаяДатаПоступления>2030-03-20</ОжидаемаяДатаПоступления>');
    expect(edOrder('1.21', ORDER)).toContain('<ДатаДоставкиОтПоставщика>2030-03-20</ДатаДоставкиОтПоставщика>');
    expect(edOrder('1.21', ORDER)).not.toContain('ОжидаемаяДатаПоступления');
  });
});

describe('fields read where each version puts them', () => {
  it.each(['1.6', '1.8', '1.21'])('%s: the contact falls back to the user responsible (Ответственный) with no contact person', async (version) => {
    const [payload] = await payloads(version, { ...ORDER, contact: 'Петрова А.А.' });
    expect(payload).toMatchObject({ contact: { name: 'Петрова А.А.' } });
  });

  it.each(['1.6', '1.8', '1.21'])('%s: a unit named and coded reads its name; coded only (796) reads "шт"', async (version) => {
    const [payload] = await payloads(version, {
      ...ORDER,
      lines: [
        { unit: 'Штука', unitCode: '796' },
        { unit: '', unitCode: '796' },
        { unit: '', unitCode: '166' },
        // A code outside the short list is kept as the code.
        { unit: '', unitCode: '999' },
      ],
    });
    expect(payload!.items.map((item) => item.unit)).toEqual(['Штука', 'шт', 'кг', '999']);
  });

  it.each(['1.8', '1.21'])('%s: a line’s ОжидаемаяДатаПоставки stands in when the header names no date', async (version) => {
    const xml = edMessage({
      version,
      body: [
        edOrder(version, { ...ORDER, lines: [{ expected: '2030-04-02' }] })
          .replace(/<ОжидаемаяДатаПоступления>[^<]*<\/ОжидаемаяДатаПоступления>/, '')
          .replace(/<ДатаДоставкиОтПоставщика>[^<]*<\/ДатаДоставкиОтПоставщика>/, ''),
      ],
    });
    const { submissions, problems } = await mapMessage(xml);
    expect(problems).toEqual([]);
    expect(submissions[0]!.payload.delivery.desiredDate).toBe('2030-04-02');
  });

  it.each<[string, string, string]>([
    ['KLADR form', '123456, Москва г, Ленина ул, дом № 1', 'Москва'],
    ['typed with a glued dot', 'г.Казань, ул. Баумана, д. 1', 'Казань'],
    ['a village', 'Тверская обл, Калининский р-н, д Ивановка, д 3', 'Ивановка'],
    ['an address that names no city: the mapping’s default', 'ул Ленина, д 1', 'Москва'],
  ])('the city is read from the address (%s)', async (_what, address, city) => {
    const [payload] = await payloads('1.8', { ...ORDER, address });
    expect(payload!.delivery).toMatchObject({ city, address });
  });

  it('an order without an address gets the default city and address', async () => {
    const xml = edMessage({ body: [edOrder('1.8', ORDER).replace(/<АдресДоставки>[^<]*<\/АдресДоставки>/, '')] });
    const { submissions, problems } = await mapMessage(xml);
    expect(problems).toEqual([]);
    expect(submissions[0]!.payload.delivery).toMatchObject({ city: 'Москва', address: 'Адрес склада не указан в заказе' });
  });

  it('1.21: no comment, no comment field', async () => {
    const [payload] = await payloads('1.21', { ...ORDER, comment: undefined });
    expect(payload).not.toHaveProperty('comment');
  });
});

describe('a message’s other objects', () => {
  it('another document, a catalogue item and a deletion are read past without a problem', async () => {
    const deletion =
      '<УдалениеОбъекта><СсылкаНаОбъект><СсылкаНаОбъект><ЗаказПоставщикуСсылка>6f1c2a4e-8b3d-11ee-b962-0242ac120001</ЗаказПоставщикуСсылка></СсылкаНаОбъект></СсылкаНаОбъект></УдалениеОбъекта>';
    const other = '<Документ.ЗаказКлиента><КлючевыеСвойства><Номер>ЗК-9</Номер><Дата>2030-03-01T10:00:00</Дата></КлючевыеСвойства></Документ.ЗаказКлиента>';
    const xml = edMessage({
      body: [edCatalogItem(), other, edOrder('1.8', { ...ORDER, number: 'ЗП-1' }), deletion, edOrder('1.8', { ...ORDER, number: 'ЗП-2' })],
    });
    const { submissions, problems } = await mapMessage(xml);
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => [submission.externalId, submission.firstRow])).toEqual([
      ['ЗП-1', 1],
      ['ЗП-2', 2],
    ]);
  });

  it('the settings message holds no order: nothing, and no problem', async () => {
    expect(await mapMessage(edMessage({ version: null }))).toEqual({ submissions: [], problems: [] });
  });

  it('a zipped, encrypted message maps as the plain one does', async () => {
    const xml = edMessage({ body: [edOrder('1.8', ORDER)] });
    const plain = await mapMessage(xml);
    const zipped = await mapMessage(edZip(PEER_MESSAGE, xml, 'секрет-123'), PEER_MESSAGE.replace(/\.xml$/, '.zip'), 'секрет-123');
    expect(zipped).toEqual(plain);
    expect(plain.submissions).toHaveLength(1);
  });
});

describe('problems', () => {
  it('a quantity given as xsi:nil is FIELD_REQUIRED on that line; the other orders map', async () => {
    const broken = edOrder('1.8', { ...ORDER, number: 'ЗП-2', lines: [{ quantity: '10' }, { quantity: '7' }] }).replace(
      '<Количество>7</Количество>',
      '<Количество xsi:nil="true"/>',
    );
    const xml = edMessage({ body: [edOrder('1.8', { ...ORDER, number: 'ЗП-1' }), broken, edOrder('1.8', { ...ORDER, number: 'ЗП-3' })] });
    const { submissions, problems } = await mapMessage(xml);
    expect(submissions.map((submission) => submission.externalId)).toEqual(['ЗП-1', 'ЗП-3']);
    expect(problems).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'items[1].quantity',
        code: 'FIELD_REQUIRED',
        externalId: 'ЗП-2',
        message: expect.stringContaining('items[1].quantity is empty'),
      }),
    ]);
  });

  it('an order without the buyer’s INN is FIELD_REQUIRED on customer.inn', async () => {
    const xml = edMessage({ body: [edOrder('1.8', ORDER).replace('<ИНН>7707083893</ИНН>', '')] });
    const { submissions, problems } = await mapMessage(xml);
    expect(submissions).toEqual([]);
    expect(problems).toEqual([expect.objectContaining({ row: 1, field: 'customer.inn', code: 'FIELD_REQUIRED', externalId: 'ЗП-000125' })]);
  });
});
