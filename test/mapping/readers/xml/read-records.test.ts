/** The XML reader's records: which elements, where they stand, and what field paths read from them. */
import { describe, expect, it } from 'vitest';
import type { TreeRecord } from '../../../../src/mapping/readers/types.js';
import { chunksOf, read, readAll, readError, readSpec } from '../../../helpers/xml.js';

const lineNodes = (record: TreeRecord<unknown>) => (Array.isArray(record.lines) ? record.lines : []);

const ORDERS = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.08">',
  '  <Документ>',
  '    <Номер>ЗК-1</Номер>',
  '    <ХозОперация>Заказ товара</ХозОперация>',
  '    <Товары>',
  '      <Товар><Наименование>Бумага</Наименование></Товар>',
  '\t\t\t<Товар><Наименование>Ручки</Наименование></Товар>',
  '    </Товары>',
  '  </Документ>',
  '  <Документ><Номер>ОТ-7</Номер><ХозОперация>Отпуск товара</ХозОперация></Документ>',
  '  <Документ><Номер>ЗК-2</Номер><ХозОперация> Заказ товара </ХозОперация><Товары><Товар/></Товары></Документ>',
  '</КоммерческаяИнформация>',
].join('\n');

const ORDER_RECORDS = "КоммерческаяИнформация/Документ[ХозОперация='Заказ товара']";

describe('records and their places', () => {
  it('numbers the records it yields from 1, placing each and each line at its start tag', async () => {
    const records = await readAll(chunksOf(ORDERS), readSpec(ORDER_RECORDS, 'Товары/Товар'));
    expect(records.map((record) => [read('Номер', record.node), record.place])).toEqual([
      ['ЗК-1', { row: 1, line: 3, column: 3 }],
      ['ЗК-2', { row: 2, line: 12, column: 3 }],
    ]);
    expect(lineNodes(records[0]!).map((line) => [read('Наименование', line.node), line.place])).toEqual([
      ['Бумага', { row: 1, line: 7, column: 7 }],
      ['Ручки', { row: 1, line: 8, column: 4 }],
    ]);
    expect(lineNodes(records[1]!).map((line) => line.place)).toEqual([{ row: 2, line: 12, column: 81 }]);
  });

  it('gives the same records and places whatever the chunks (a character, a CRLF or a tag cut in two)', async () => {
    const crlf = ORDERS.replaceAll('\n', '\r\n');
    const whole = await readAll(chunksOf(crlf), readSpec(ORDER_RECORDS, 'Товары/Товар'));
    const summary = (records: TreeRecord<unknown>[]) =>
      records.map((record) => [record.place, read('Номер', record.node), lineNodes(record).map((line) => [line.place, read('Наименование', line.node)])]);
    for (const size of [1, 2, 3, 7, 61]) {
      expect(summary(await readAll(chunksOf(crlf, size), readSpec(ORDER_RECORDS, 'Товары/Товар')))).toEqual(summary(whole));
    }
    expect(whole[1]!.place).toEqual({ row: 2, line: 12, column: 3 });
  });

  it('counts columns in characters, not bytes', async () => {
    const [record] = await readAll(chunksOf('<Корень><Ёлка/><Документ/></Корень>'), readSpec('Корень/Документ'));
    expect(record!.place).toEqual({ row: 1, line: 1, column: 16 });
  });

  it('keeps a record only when its condition holds, comparing the trimmed text exactly', async () => {
    const doc = '<a><b><k> x </k></b><b><k>X</k></b><b><k>x y</k></b><b/></a>';
    expect((await readAll(chunksOf(doc), readSpec("a/b[k='x']"))).map((record) => record.place.column)).toEqual([4]);
  });

  it('reads records on any of several paths, in document order, never one inside another', async () => {
    const doc = '<r><Д><n>1</n><Д><n>inner</n></Д></Д><К><Д><n>2</n></Д></К><Д><n>3</n></Д></r>';
    const records = await readAll(chunksOf(doc), readSpec('r/К/Д | r/Д | r/Д/Д'));
    expect(records.map((record) => read('n', record.node))).toEqual(['1', '2', '3']);
    expect(records.map((record) => record.place.row)).toEqual([1, 2, 3]);
  });

  it('reads nothing from a document without records, and refuses a document whose root is another', async () => {
    expect(await readAll(chunksOf('<КоммерческаяИнформация><Каталог/></КоммерческаяИнформация>'), readSpec('КоммерческаяИнформация/Документ'))).toEqual([]);
    const error = await readError(chunksOf('<Каталог><Документ/></Каталог>'), readSpec('КоммерческаяИнформация/Документ'), 'FILE_FORMAT_UNSUPPORTED');
    expect(error.message).toBe("has the root element <Каталог>, but this flow's mapping reads records under <КоммерческаяИнформация>");
  });
});

describe('a mapping built without the loader', () => {
  it('has its record and lines paths checked for their role when the file is read', async () => {
    const record = await readError(chunksOf('<КИ/>'), readSpec('КИ/Документ/@Ид'), 'MAPPING_INVALID');
    expect(record.message).toBe(
      'cannot be read with this mapping: record: "КИ/Документ/@Ид" is a record path, which names elements: it cannot have an @attribute step',
    );
    const lines = await readError(chunksOf('<КИ/>'), readSpec('КИ/Документ', 'Товары//Товар'), 'MAPPING_INVALID');
    expect(lines.message).toMatch(/^cannot be read with this mapping: lines: "Товары\/\/Товар" has '\/\/'/);
  });
});

describe('lines', () => {
  it('are the elements at the lines path (conditions allowed); the first alternative that finds any wins', async () => {
    const doc = '<r><d><T><t><n>a</n><k>1</k></t><t><n>b</n></t></T><L><t><n>c</n></L></d></r>'.replace('</L>', '</t></L>');
    const [record] = await readAll(chunksOf(doc), readSpec('r/d', "T/t[k='1'] | L/t"));
    expect(lineNodes(record!).map((line) => read('n', line.node))).toEqual(['a']);
    const [other] = await readAll(chunksOf(doc), readSpec('r/d', "T/t[k='2'] | L/t"));
    expect(lineNodes(other!).map((line) => read('n', line.node))).toEqual(['c']);
    const [none] = await readAll(chunksOf(doc), readSpec('r/d', 'X/t'));
    expect(none!.lines).toEqual([]);
  });

  it("'.' makes the record its own single line", async () => {
    const [record] = await readAll(chunksOf('<r><d><n>a</n></d></r>'), readSpec('r/d', '.'));
    expect(lineNodes(record!).map((line) => [line.place, read('n', line.node)])).toEqual([[{ row: 1, line: 1, column: 4 }, 'a']]);
  });
});

describe('field paths on a record', () => {
  const doc = [
    '<cml:КИ xmlns:cml="urn:1C.ru:commerceml_2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '<cml:Д cml:Ид="D-1" xsi:type="Заказ">',
    '  <cml:Контрагенты>',
    '    <cml:Контрагент><cml:Роль>Продавец</cml:Роль><cml:ИНН>0274062111</cml:ИНН></cml:Контрагент>',
    '    <cml:Контрагент><cml:Роль>Покупатель</cml:Роль><cml:ИНН></cml:ИНН><cml:Наименование>  ООО "Ромашка"  </cml:Наименование></cml:Контрагент>',
    '    <cml:Контрагент><cml:Роль>Покупатель</cml:Роль><cml:ИНН>7707083893</cml:ИНН></cml:Контрагент>',
    '  </cml:Контрагенты>',
    '  <cml:Ед Код="796" НаименованиеПолное="Штука">   </cml:Ед>',
    '  <cml:Комментарий>a &amp; b <![CDATA[<c> & d]]><!-- no --> e</cml:Комментарий>',
    '  <cml:Пусто/>',
    '</cml:Д>',
    '</cml:КИ>',
  ].join('\n');
  const node = async () => (await readAll(chunksOf(doc), readSpec('КИ/Д')))[0]!.node;

  it('match local names, with or without a namespace prefix, and drop namespace declarations', async () => {
    const record = await node();
    expect(read('@Ид', record)).toBe('D-1');
    expect(read('@type', record)).toBe('Заказ');
    expect(read('@xmlns', record)).toBeUndefined();
    expect(read('@cml', record)).toBeUndefined();
    expect(read('cml:Контрагенты/cml:Контрагент/cml:ИНН', record)).toBe('0274062111');
  });

  it('take the first element in document order that has a value, under its condition', async () => {
    const record = await node();
    expect(read("Контрагенты/Контрагент[Роль='Покупатель']/ИНН", record)).toBe('7707083893');
    expect(read("Контрагенты/Контрагент[Роль='Покупатель']/Наименование", record)).toBe('  ООО "Ромашка"  ');
    expect(read("Контрагенты/Контрагент[Роль='Грузополучатель']/ИНН", record)).toBeUndefined();
  });

  it('try alternatives in order, past missing and blank values, to text or attributes', async () => {
    const record = await node();
    expect(read('Ед | Ед/@НаименованиеКраткое | Ед/@НаименованиеПолное', record)).toBe('Штука');
    expect(read('Нет | Пусто | Ед/@Код', record)).toBe('796');
    expect(read('Нет | Пусто | Ед', record)).toBeUndefined();
  });

  it('read text with its entities and CDATA, without comments, as written', async () => {
    expect(read('Комментарий', await node())).toBe('a & b <c> & d e');
  });

  it("read the element's own text with '.', nothing for an element with children only", async () => {
    const [line] = lineNodes((await readAll(chunksOf('<r><d><t> шт </t></d></r>'), readSpec('r/d', 't')))[0]!);
    expect(read('.', line!.node)).toBe(' шт ');
    expect(read('Контрагенты', await node())).toBeUndefined();
  });
});
