/**
 * `preset: enterprisedata` with config/mappings/enterprisedata-orders.yaml: the same purchase order
 * written in the shapes of EnterpriseData 1.6 to 1.22 as УТ 11.5 writes them
 * (`test/helpers/enterprisedata.ts`) maps to the same request wherever a version carries the
 * field, and to the documented stand-in where it does not; services, variants, dates and the
 * contact as УТ gives them; withdrawals of orders come out, other objects are read past; a missing
 * value is a problem naming its document.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { mapFile } from '../../src/mapping/map-file.js';
import type { MappedSubmission, MappedWithdrawal } from '../../src/mapping/types.js';
import type { MappingProblem } from '../../src/shared/types.js';
import { PEER_MESSAGE, edCatalogItem, edMessage, edOrder, edWithdrawal, edZip, refOf, type EdOrderInput } from '../helpers/enterprisedata.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ROOT, writeInput } from '../helpers/mapping-fixtures.js';

const spec = () => loadMappingSpec(path.join(ROOT, 'config/mappings/enterprisedata-orders.yaml'));
const OPTIONS = { now: new Date('2026-11-26'), rejectPastDates: false };

/** What `mapFile` makes of `content` written to a temp file under 1C's name for it. */
async function mapMessage(content: string | Buffer, name = PEER_MESSAGE, archivePassword?: string, options: Partial<typeof OPTIONS> = {}) {
  return withTempDir(async (dir) => {
    const file = writeInput(dir, name, content);
    const submissions: MappedRequest[] = [];
    const withdrawals: MappedWithdrawal[] = [];
    const problems: MappingProblem[] = [];
    for await (const item of mapFile(file, spec(), { ...OPTIONS, ...options, archivePassword })) {
      if (item.kind === 'problem') problems.push(item.problem);
      else if (item.kind === 'withdrawal') withdrawals.push(item.withdrawal);
      else if (item.submission.kind === 'request') submissions.push(item.submission);
      else throw new Error(`expected requests only, got a ${item.submission.kind}`);
    }
    return { submissions, withdrawals, problems };
  });
}

type MappedRequest = Extract<MappedSubmission, { kind: 'request' }>;

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
  contact: 'Сидорова А.В.',
  lines: [
    { name: 'Бумага А4', quantity: '20', unit: 'пачка', unitCode: '778' },
    { name: 'Картридж', quantity: '2.5', unit: '', unitCode: '796' },
  ],
};

/** The request every version gives for ORDER; each version's differences are spelled out below. */
const COMMON = {
  // The number the buyer sees, then the document's identity (Ссылка): unique within 1C for ever.
  externalId: `ЗП-000125 ${refOf('ЗП-000125')}`,
  customer: { inn: '7707083893', name: 'Общество с ограниченной ответственностью "Ромашка"' },
  contact: { name: 'Сидорова А.В.', phone: '+7 000 000-00-00' },
  delivery: { city: 'Химки', address: '141400, Московская обл, г Химки, ул Заводская, д 5' },
  items: [
    // The unit's name as written; a unit written by its OKEI code only is the code's short name.
    { lineId: '1', name: 'Бумага А4', quantity: 20, unit: 'пачка' },
    { lineId: '2', name: 'Картридж', quantity: 2.5, unit: 'шт' },
  ],
};

describe('the same order in each version', () => {
  it.each<[string, object]>([
    // 1.6 carries no date wanted (the request names none) and no comment; its unit is flat.
    ['1.6', COMMON],
    // 1.8: the date wanted (ОжидаемаяДатаПоступления); the unit under ДанныеКлассификатора.
    ['1.8', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' } }],
    ['1.10', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' } }],
    // 1.11: the responsible user and the comment under ОбщиеСвойстваОбъектовФормата.
    ['1.11', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' }, comment: 'Разгрузка с 9 до 18' }],
    ['1.17', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' }, comment: 'Разгрузка с 9 до 18' }],
    // 1.21 and 1.22: ДатаДоставкиОтПоставщика.
    ['1.21', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' }, comment: 'Разгрузка с 9 до 18' }],
    ['1.22', { ...COMMON, delivery: { ...COMMON.delivery, desiredDate: '2030-03-20' }, comment: 'Разгрузка с 9 до 18' }],
  ])('%s', async (version, expected) => {
    expect(await payloads(version, ORDER)).toEqual([expected]);
  });

  it('the shapes really differ where the test says they do', () => {
    expect(edOrder('1.6', ORDER)).toContain('<ЕдиницаИзмерения><Код>778</Код><Наименование>пачка</Наименование></ЕдиницаИзмерения>');
    expect(edOrder('1.8', ORDER)).toContain('<ЕдиницаИзмерения><ДанныеКлассификатора><Код>778</Код><Наименование>пачка</Наименование>');
    expect(edOrder('1.6', ORDER)).not.toMatch(/ОжидаемаяДата|КонтактноеЛицо|Комментарий/);
    expect(edOrder('1.10', ORDER)).toMatch(/<\/КлючевыеСвойства><Ответственный>/);
    expect(edOrder('1.11', ORDER)).toMatch(/<ОбщиеСвойстваОбъектовФормата><Ответственный>.*<Комментарий>/);
    expect(edOrder('1.17', ORDER)).toMatch(/<ОбщиеСвойстваОбъектовФормата><Комментарий>.*<Ответственный>/);
    expect(edOrder('1.8', ORDER)).toContain('<ОжидаемаяДатаПоступления>2030-03-20</ОжидаемаяДатаПоступления>');
    expect(edOrder('1.18', ORDER)).not.toMatch(/ОжидаемаяДатаПоступления|ДатаДоставкиОтПоставщика/);
    expect(edOrder('1.21', ORDER)).toContain('<ДатаДоставкиОтПоставщика>2030-03-20</ДатаДоставкиОтПоставщика>');
    expect(edOrder('1.21', ORDER)).not.toContain('ОжидаемаяДатаПоступления');
    expect(edOrder('1.8', ORDER)).not.toContain('КонтактноеЛицоОрганизации');
  });

  it('the identity, the number and the date the buyer sees come with each request', async () => {
    const { submissions } = await mapMessage(edMessage({ version: '1.11', body: [edOrder('1.11', ORDER)] }));
    expect(submissions[0]!.document).toEqual({ id: refOf('ЗП-000125'), number: 'ЗП-000125', date: '2030-03-01' });
  });
});

describe('the date wanted', () => {
  it('1.8–1.17: the buyer’s wish wins over the header’s and the lines’ dates', async () => {
    const [payload] = await payloads('1.11', { ...ORDER, expected: '2030-03-10', headerExpected: '2030-04-30', lines: [{ expected: '2030-04-30' }] });
    expect(payload!.delivery.desiredDate).toBe('2030-03-10');
  });

  it('1.8–1.17 without a wish: the header’s ОжидаемаяДатаПоставки (1C’s latest line date)', async () => {
    const [payload] = await payloads('1.11', { ...ORDER, expected: null, headerExpected: '2030-04-30', lines: [{ expected: '2030-04-01' }] });
    expect(payload!.delivery.desiredDate).toBe('2030-04-30');
  });

  it.each(['1.8', '1.18', '1.21'])('%s with no header date: the latest of the lines’ dates, services’ too when goods have none', async (version) => {
    const [payload] = await payloads(version, {
      ...ORDER,
      expected: null,
      lines: [{ expected: '2030-04-02' }, { expected: '2030-05-11' }, { expected: '2030-04-20' }],
    });
    expect(payload!.delivery.desiredDate).toBe('2030-05-11');
    const [services] = await payloads(version, { ...ORDER, expected: null, lines: [{}], services: [{ expected: '2030-06-01' }, { expected: '2030-05-01' }] });
    expect(services!.delivery.desiredDate).toBe('2030-06-01');
  });

  it('an order with no date at all is sent without one, not refused as past (rejectPastDates on)', async () => {
    const xml = edMessage({ version: '1.18', body: [edOrder('1.18', { ...ORDER, date: '2020-01-15T10:00:00', lines: [{}] })] });
    const { submissions, problems } = await mapMessage(xml, PEER_MESSAGE, undefined, { rejectPastDates: true, now: new Date('2030-02-01') });
    expect(problems).toEqual([]);
    expect(submissions[0]!.payload.delivery).not.toHaveProperty('desiredDate');
  });

  it('a wish in the past is still DATE_IN_PAST with rejectPastDates on', async () => {
    const xml = edMessage({ version: '1.11', body: [edOrder('1.11', { ...ORDER, expected: '2030-01-10' })] });
    const { problems } = await mapMessage(xml, PEER_MESSAGE, undefined, { rejectPastDates: true, now: new Date('2030-02-01') });
    expect(problems).toEqual([expect.objectContaining({ field: 'delivery.desiredDate', code: 'DATE_IN_PAST', documentNumber: 'ЗП-000125' })]);
  });
});

describe('the contact', () => {
  it.each(['1.8', '1.10', '1.11', '1.15', '1.21'])('%s: the responsible user’s person when 1C gives one, else the user’s name', async (version) => {
    const [person] = await payloads(version, { ...ORDER, contact: 'Сидорова А.В.', person: 'Сидорова Анна Викторовна' });
    expect(person!.contact.name).toBe('Сидорова Анна Викторовна');
    const [user] = await payloads(version, { ...ORDER, contact: 'Сидорова А.В.' });
    expect(user!.contact.name).toBe('Сидорова А.В.');
  });

  it.each(['1.8', '1.21'])('%s: with no responsible user, the site’s default, never the supplier’s contact', async (version) => {
    const [payload] = await payloads(version, { ...ORDER, contact: undefined, supplierContact: 'Петров Петр Петрович' });
    expect(edOrder(version, { ...ORDER, contact: undefined })).toContain('Петров Петр Петрович');
    expect(payload!.contact.name).toBe('Отдел закупок');
  });
});

describe('lines: goods, services, variants', () => {
  it.each(['1.8', '1.11', '1.21'])('%s: services numbered from 1 become lines beside the goods, with line ids unique within the request', async (version) => {
    const [payload] = await payloads(version, {
      ...ORDER,
      lines: [
        { no: 1, name: 'Бумага А4', quantity: '20' },
        { no: 2, name: 'Картридж', quantity: '2' },
      ],
      services: [
        { no: 1, name: 'Доставка', quantity: '1', content: 'Доставка до склада' },
        { no: 2, name: 'Монтаж', quantity: '3' },
      ],
    });
    expect(payload!.items).toEqual([
      { lineId: '1', name: 'Бумага А4', quantity: 20, unit: 'шт' },
      { lineId: '2', name: 'Картридж', quantity: 2, unit: 'шт' },
      { lineId: '3', name: 'Доставка', quantity: 1, unit: 'усл. ед.', comment: 'Доставка до склада' },
      { lineId: '4', name: 'Монтаж', quantity: 3, unit: 'усл. ед.' },
    ]);
  });

  it('an order of services only is a request', async () => {
    const [payload] = await payloads('1.11', { ...ORDER, lines: [], services: [{ name: 'Уборка' }] });
    expect(payload!.items).toEqual([{ lineId: '1', name: 'Уборка', quantity: 1, unit: 'усл. ед.' }]);
  });

  it('a characteristic is named in the item, and a packaging where it is not the unit', async () => {
    const [payload] = await payloads('1.11', {
      ...ORDER,
      lines: [
        { name: 'Футболка', characteristic: 'Красный, XL', quantity: '20' },
        { name: 'Футболка', characteristic: 'Синий, M', packaging: 'Коробка (10 шт)', quantity: '30' },
        { name: 'Футболка', characteristic: 'Белый, S', packaging: 'шт', quantity: '5' },
      ],
    });
    expect(payload!.items.map((item) => item.name)).toEqual([
      'Футболка (Красный, XL)',
      'Футболка (Синий, M), упаковка: Коробка (10 шт)',
      'Футболка (Белый, S)',
    ]);
  });
});

describe('fields read where each version puts them', () => {
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
  it('another document, a catalogue item and the deletion of a catalogue item are read past; an order’s withdrawal comes out', async () => {
    const other = '<Документ.ЗаказКлиента><КлючевыеСвойства><Номер>ЗК-9</Номер><Дата>2030-03-01T10:00:00</Дата></КлючевыеСвойства></Документ.ЗаказКлиента>';
    const xml = edMessage({
      body: [
        edCatalogItem(),
        other,
        edOrder('1.8', { ...ORDER, number: 'ЗП-1' }),
        edWithdrawal('6f1c2a4e-8b3d-11ee-b962-0242ac120001'),
        edWithdrawal('11111111-1c2d-11ea-80e1-0050569f0001', 'НоменклатураСсылка'),
        edOrder('1.8', { ...ORDER, number: 'ЗП-2' }),
      ],
    });
    const { submissions, withdrawals, problems } = await mapMessage(xml);
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => [submission.document?.number, submission.firstRow])).toEqual([
      ['ЗП-1', 1],
      ['ЗП-2', 4],
    ]);
    expect(withdrawals).toEqual([{ documentId: '6f1c2a4e-8b3d-11ee-b962-0242ac120001', row: 2 }]);
  });

  it('the settings message holds no order: nothing, and no problem', async () => {
    expect(await mapMessage(edMessage({ version: null }))).toEqual({ submissions: [], withdrawals: [], problems: [] });
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
    expect(submissions.map((submission) => submission.document?.number)).toEqual(['ЗП-1', 'ЗП-3']);
    expect(problems).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'items[1].quantity',
        code: 'FIELD_REQUIRED',
        externalId: `ЗП-2 ${refOf('ЗП-2')}`,
        documentId: refOf('ЗП-2'),
        documentNumber: 'ЗП-2',
        message: expect.stringContaining('items[1].quantity is empty'),
      }),
    ]);
  });

  it('an order without the buyer’s INN is FIELD_REQUIRED on customer.inn', async () => {
    const xml = edMessage({ body: [edOrder('1.8', ORDER).replace('<ИНН>7707083893</ИНН>', '')] });
    const { submissions, problems } = await mapMessage(xml);
    expect(submissions).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({ row: 1, field: 'customer.inn', code: 'FIELD_REQUIRED', documentId: refOf('ЗП-000125'), documentNumber: 'ЗП-000125' }),
    ]);
  });

  it('an order without its identity (Ссылка) is FIELD_REQUIRED on document.id, and names its number', async () => {
    const xml = edMessage({ body: [edOrder('1.8', ORDER).replace(`<Ссылка>${refOf('ЗП-000125')}</Ссылка>`, '')] });
    const { submissions, problems } = await mapMessage(xml);
    expect(submissions).toEqual([]);
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ row: 1, field: 'document.id', code: 'FIELD_REQUIRED' })]));
  });
});
