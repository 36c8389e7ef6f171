/**
 * `preset: enterprisedata`: a buyer's purchase orders (`Документ.ЗаказПоставщику`) from the
 * messages of 1C's data synchronization in the universal format (EnterpriseData 1.6 to 1.21:
 * `Message/Body`, one element per changed object). Every field the format carries is read from
 * where each version puts it; `docs/enterprisedata.md` lists them with the versions each path is
 * for. Other objects of a message (catalogue items, other documents, deletions) are read past.
 *
 * Shapes covered, from 1C's published schemas of each version:
 * - `КлючевыеСвойства` holds the number, the date, the buyer's own company (`Организация`, with its
 *   `ИНН`) and, from 1.6 on, the supplier (`Контрагент`);
 * - the contact person is `КонтактноеЛицоОрганизации/ФИО` from 1.8; the user responsible for the
 *   order (`Ответственный`, top level up to 1.10, inside `ОбщиеСвойстваОбъектовФормата` from 1.11)
 *   stands in for it;
 * - the delivery address is `АдресДоставки`, one line of text in every version: the city is read
 *   out of it (`fromAddress: city`);
 * - the date wanted is `ОжидаемаяДатаПоступления` (1.7–1.17), the header's or a line's
 *   `ОжидаемаяДатаПоставки` (1.8–1.17), or `ДатаДоставкиОтПоставщика` (1.18 on); 1.6 has none,
 *   and the order's own date stands in;
 * - a line's unit name is `ЕдиницаИзмерения/Наименование` up to 1.6 and
 *   `ЕдиницаИзмерения/ДанныеКлассификатора/Наименование` from 1.7; with no name, its OKEI code is
 *   turned into the usual short name;
 * - the comment is `ОбщиеСвойстваОбъектовФормата/Комментарий` (1.11 on).
 * EnterpriseData carries no phone or e-mail of the contact: the shipped mapping
 * (`config/mappings/enterprisedata-orders.yaml`) gives them.
 */

const ORGANIZATION = 'КлючевыеСвойства/Организация';

/** The short names of the OKEI units 1C's catalogue holds by default, for a unit written by its code only. */
const OKEI_UNITS: Readonly<Record<string, string>> = {
  '796': 'шт',
  '166': 'кг',
  '163': 'г',
  '168': 'т',
  '112': 'л',
  '111': 'мл',
  '006': 'м',
  '055': 'м2',
  '113': 'м3',
  '018': 'пог. м',
  '778': 'упак',
  '704': 'набор',
  '715': 'пар',
  '839': 'компл',
  '625': 'лист',
  '736': 'рул',
  '356': 'ч',
  '384': 'тыс. руб',
};

const anyOf = (paths: readonly string[]): string => paths.join(' | ');

export const ENTERPRISEDATA_PRESET = {
  kind: 'requests',
  format: 'xml',
  record: 'Message/Body/Документ.ЗаказПоставщику',
  lines: 'Товары/Строка',
  request: {
    externalId: { path: 'КлючевыеСвойства/Номер' },
    'customer.inn': { path: `${ORGANIZATION}/ИНН` },
    'customer.name': { path: anyOf(['НаименованиеПолное', 'НаименованиеСокращенное', 'Наименование'].map((name) => `${ORGANIZATION}/${name}`)) },
    'contact.name': {
      path: anyOf(['КонтактноеЛицоОрганизации/ФИО', 'ОбщиеСвойстваОбъектовФормата/Ответственный/Наименование', 'Ответственный/Наименование']),
    },
    'delivery.city': { path: 'АдресДоставки', fromAddress: 'city' },
    'delivery.address': { path: 'АдресДоставки' },
    // xs:date (`2026-12-20`); a zone after it, where a writer adds one, is ignored. Version 1.6
    // carries no date wanted at all: the order's own date stands in (the request is due the day
    // it was written), as the CommerceML preset does.
    'delivery.desiredDate': {
      path: anyOf([
        'ОжидаемаяДатаПоступления',
        'ОжидаемаяДатаПоставки',
        'ДатаДоставкиОтПоставщика',
        'Товары/Строка/ОжидаемаяДатаПоставки',
        'КлючевыеСвойства/Дата',
      ]),
      date: 'YYYY-MM-DD',
    },
    comment: { path: 'ОбщиеСвойстваОбъектовФормата/Комментарий', optional: true },
  },
  items: {
    lineId: { path: 'НомерСтрокиДокумента' },
    name: { path: anyOf(['ДанныеНоменклатуры/Номенклатура/Наименование', 'ДанныеНоменклатуры/Номенклатура/НаименованиеПолное']) },
    quantity: { path: 'Количество' },
    unit: {
      path: anyOf([
        'ЕдиницаИзмерения/ДанныеКлассификатора/Наименование',
        'ЕдиницаИзмерения/Наименование',
        'ЕдиницаИзмерения/ДанныеКлассификатора/Код',
        'ЕдиницаИзмерения/Код',
      ]),
      map: OKEI_UNITS,
    },
  },
} as const;
