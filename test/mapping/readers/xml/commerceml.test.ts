/**
 * `preset: commerceml` with config/mappings/commerceml-orders.yaml: the windows-1251 sample and
 * its namespace and encoding variants map to the same requests; the 2.04, 2.10 and 3.1 shapes map
 * too; a field the document lacks is a problem placed at the document's (or line's) start tag.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec, parseMappingSpec } from '../../../../src/config/load-mapping.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { ROOT, split, writeInput } from '../../../helpers/mapping-fixtures.js';

const mapping = () => loadMappingSpec(path.join(ROOT, 'config/mappings/commerceml-orders.yaml'));
const SAMPLE = path.join(ROOT, 'samples/commerceml-orders.xml');
const fixture = (name: string) => path.join(ROOT, 'test/fixtures/xml', name);

const SAMPLE_REQUESTS = [
  {
    kind: 'request',
    externalId: 'ЗК-000301',
    firstRow: 1,
    payload: {
      externalId: 'ЗК-000301',
      customer: { inn: '7707083893', name: 'ООО "Ромашка"' },
      contact: { name: 'Иванов Иван Петрович', phone: '+7 495 123-45-67', email: 'zakupki@romashka.ru' },
      delivery: { city: 'Химки', address: '141400, Московская обл, Химки г, Ленинградская ул, дом 1, склад 3, ворота 2', desiredDate: '2030-03-15' },
      comment: 'Срочно: к началу квартала',
      items: [
        { lineId: '1', name: 'Бумага офисная SvetoCopy A4, 500 л.', quantity: 100, unit: 'шт' },
        { lineId: '2', name: 'Картридж HP 85A (CF285A)', quantity: 4, unit: 'шт' },
        { lineId: '3', name: 'Ручка шариковая синяя, упаковка 50 шт.', quantity: 3, unit: 'упак' },
      ],
    },
  },
  {
    kind: 'request',
    externalId: 'ЗК-000302',
    firstRow: 2,
    payload: {
      externalId: 'ЗК-000302',
      customer: { inn: '0274062111', name: 'ООО "Башнефть-Розница"' },
      contact: { name: 'Отдел закупок', phone: '+7 347 200-00-00' },
      delivery: { city: 'Уфа', address: '450077, Башкортостан Респ, Уфа г, Ленина ул, дом 30', desiredDate: '2030-03-01' },
      items: [
        { lineId: '1', name: 'Песок строительный', quantity: 12.5, unit: 'т' },
        { lineId: '2', name: 'Мешки полипропиленовые 55х105', quantity: 300, unit: 'шт' },
      ],
    },
  },
  {
    kind: 'request',
    externalId: 'ЗК-000303',
    firstRow: 3,
    payload: {
      externalId: 'ЗК-000303',
      customer: { inn: '500100732259', name: 'ИП Смирнов Алексей Викторович' },
      contact: { name: 'Смирнова Ольга Николаевна', email: 'smirnov@example.ru' },
      delivery: { city: 'Москва', address: '142100, Московская обл, Подольск г, Кирова ул, дом 10', desiredDate: '2030-02-25' },
      comment: 'Доставка в будни с 9 до 18; въезд со двора, ориентир "синие ворота"',
      items: [{ lineId: '1', name: 'Перчатки нитриловые M, 100 шт.', quantity: 12, unit: 'Упаковка' }],
    },
  },
];

/** The sample's text, to break one way in a temp copy. */
const sampleText = () => iconv.decode(fs.readFileSync(SAMPLE), 'win1251');

describe('the CommerceML sample', () => {
  it('is windows-1251 CommerceML 2.08 in the commerceml_2 namespace, as 1C writes it', () => {
    const text = sampleText();
    expect(text.startsWith('<?xml version="1.0" encoding="windows-1251"?>\r\n<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2"')).toBe(true);
    expect(text).toContain('ВерсияСхемы="2.08"');
    expect(fs.readFileSync(SAMPLE).includes(Buffer.from('Документ', 'utf8'))).toBe(false);
  });

  it('maps to exactly three requests: the seller and the shipment document are skipped', async () => {
    const { submissions, problems } = await split(SAMPLE, mapping());
    expect(problems).toEqual([]);
    expect(submissions).toEqual(SAMPLE_REQUESTS);
  });

  it.each(['commerceml-2.08-utf8-bom.xml', 'commerceml-2.08-prefixed.xml'])('maps the same from %s', async (name) => {
    const { submissions, problems } = await split(fixture(name), mapping());
    expect(problems).toEqual([]);
    expect(submissions).toEqual(SAMPLE_REQUESTS);
  });
});

describe('other CommerceML shapes', () => {
  it('2.04 (windows-1251, no namespace): name, address and contact person as the early exports wrote them', async () => {
    const { submissions, problems } = await split(fixture('commerceml-2.04.xml'), mapping());
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => submission.payload)).toEqual([
      {
        externalId: '45',
        customer: { inn: '7707083893', name: 'ООО "Ромашка"' },
        contact: { name: 'Иванов Иван', phone: '+7 495 123-45-67', email: 'ivanov@romashka.ru' },
        delivery: { city: 'Москва', address: '101000, Москва, Мясницкая ул, 26, офис 5', desiredDate: '2030-02-20' },
        comment: 'Позвонить перед доставкой',
        items: [
          { lineId: '1', name: 'Стул офисный', quantity: 1, unit: 'шт' },
          // A delivery the site charged for comes as a line of its own: the preset keeps every line.
          { lineId: '2', name: 'Доставка заказа', quantity: 1, unit: 'шт' },
        ],
      },
    ]);
  });

  it('2.10 (UTF-8): payment and shipment documents skipped, new contact types, units as an element or attributes', async () => {
    const { submissions, problems } = await split(fixture('commerceml-2.10.xml'), mapping());
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => [submission.firstRow, submission.payload])).toEqual([
      [
        1,
        {
          externalId: '118',
          customer: { inn: '7707083893', name: 'ООО "Ромашка"' },
          contact: { name: 'Петрова Анна Сергеевна', phone: '+7 812 000-11-22', email: 'spb@romashka.ru' },
          delivery: { city: 'Санкт-Петербург', address: '199106, Санкт-Петербург, Кожевенная линия, 34, склад 2', desiredDate: '2030-04-10' },
          items: [
            { lineId: '1', name: 'Папка-регистратор 75 мм', quantity: 10, unit: 'Штука' },
            { lineId: '2', name: 'Бумага для заметок, блок 9х9', quantity: 5, unit: 'шт' },
          ],
        },
      ],
    ]);
  });

  it('3.1: an order in a Контейнер', async () => {
    const { submissions, problems } = await split(fixture('commerceml-3.1-container.xml'), mapping());
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => submission.payload)).toEqual([
      {
        externalId: '205',
        customer: { inn: '7707083893', name: 'ООО "Ромашка"' },
        contact: { name: 'Отдел закупок', email: 'zakupki@romashka.ru' },
        delivery: { city: 'Казань', address: 'Казань, Баумана ул, 1', desiredDate: '2030-05-12' },
        items: [{ lineId: '1', name: 'Тонер-картридж Kyocera TK-1170', quantity: 2, unit: 'шт' }],
      },
    ]);
  });
});

describe('problems in a CommerceML export', () => {
  it("a path that reaches nothing is FIELD_REQUIRED at the document's start tag; the other documents map", async () => {
    await withTempDir(async (dir) => {
      const text = sampleText().replace('\t\t\t\t<ИНН>0274062111</ИНН>\r\n', '');
      const file = writeInput(dir, 'orders.xml', text, 'windows-1251');
      const { submissions, problems } = await split(file, mapping());
      expect(submissions.map((submission) => submission.externalId)).toEqual(['ЗК-000301', 'ЗК-000303']);
      expect(problems).toEqual([
        {
          row: 2,
          line: 141,
          column: 2,
          field: 'customer.inn',
          code: 'FIELD_REQUIRED',
          externalId: 'ЗК-000302',
          message: 'Row 2 (line 141, column 2) of orders.xml: customer.inn is empty',
          text: { key: 'empty' },
        },
      ]);
    });
  });

  it("a bad line value is placed at the line's start tag", async () => {
    await withTempDir(async (dir) => {
      const text = sampleText().replace('<Количество>300</Количество>', '<Количество>триста</Количество>');
      const { problems } = await split(writeInput(dir, 'orders.xml', text, 'windows-1251'), mapping());
      expect(problems).toEqual([
        {
          row: 2,
          line: 188,
          column: 4,
          field: 'items[1].quantity',
          code: 'FIELD_INVALID',
          value: 'триста',
          externalId: 'ЗК-000302',
          message: 'Row 2 (line 188, column 4) of orders.xml: items[1].quantity "триста" is not a number',
          text: { key: 'notANumber' },
        },
      ]);
    });
  });

  it('a date 1C wrote in its own presentation needs the date format in the mapping', async () => {
    await withTempDir(async (dir) => {
      const text = sampleText().replace('<Значение>2030-03-15</Значение>', '<Значение>15.03.2030 0:00:00</Значение>');
      const file = writeInput(dir, 'orders.xml', text, 'windows-1251');
      const { problems } = await split(file, mapping());
      expect(problems.map((problem) => [problem.row, problem.field, problem.code, problem.message])).toEqual([
        [
          1,
          'delivery.desiredDate',
          'FIELD_INVALID',
          'Row 1 (line 3, column 2) of orders.xml: delivery.desiredDate "15.03.2030 0:00:00" is not a real date in the form YYYY-MM-DD',
        ],
      ]);
      const spec = parseMappingSpec({ preset: 'commerceml', request: { 'delivery.desiredDate': { date: 'DD.MM.YYYY' } } }, 'dates.yaml');
      const { submissions } = await split(file, spec);
      expect(submissions[0]!.payload).toMatchObject({ delivery: { desiredDate: '2030-03-15' } });
    });
  });
});

describe('the preset in a mapping', () => {
  it('is an XML requests mapping whose own keys add to the preset or replace its fields', () => {
    const spec = parseMappingSpec(
      { preset: 'commerceml', xml: { maxDepth: 20 }, request: { externalId: { path: 'Ид' }, 'contact.name': { default: 'Снабжение' } } },
      'mine.yaml',
    );
    expect(spec).toMatchObject({ kind: 'requests', format: 'xml', lines: ['Товары/Товар'], xml: { maxDepth: 20, encoding: 'auto' } });
    expect(spec.record).toContain("КоммерческаяИнформация/Документ[ХозОперация='Заказ товара']");
    expect(spec.header.externalId).toMatchObject({ path: 'Ид' });
    expect(spec.header['contact.name']).toMatchObject({ path: expect.stringContaining('Представители') as string, default: 'Снабжение' });
  });

  it('takes a template over the preset’s path, reading XML paths in it', async () => {
    const spec = parseMappingSpec(
      { preset: 'commerceml', request: { externalId: { template: '{Номер}/{Дата}' }, 'contact.name': { default: 'x' }, 'delivery.city': { default: 'x' } } },
      'mine.yaml',
    );
    const { submissions } = await split(SAMPLE, spec);
    expect(submissions.map((submission) => submission.externalId)).toEqual(['ЗК-000301/2030-02-20', 'ЗК-000302/2030-03-01', 'ЗК-000303/2030-02-25']);
  });
});
