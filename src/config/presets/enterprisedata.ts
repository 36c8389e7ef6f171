/**
 * `preset: enterprisedata`: a buyer's purchase orders (`Документ.ЗаказПоставщику`) from the
 * messages of 1C's data synchronization in the universal format (EnterpriseData 1.6 to 1.22:
 * `Message/Body`, one element per changed object), as УТ 11.5 and its kin write them. Every field
 * the format carries is read from where each version puts it; `docs/enterprisedata.md` lists them
 * with the versions each path is for, and why each choice was made.
 *
 * - **Identity.** A document is `КлючевыеСвойства/Ссылка`, a UUID 1C never changes and adds to every
 *   reference it sends. Its number (`ТДУТ-000012`: the organization's and the infobase's prefixes,
 *   then a counter that starts again every year) is what the buyer sees, and 1C renumbers a
 *   document moved to another year or organization: the number is shown, never a key. The
 *   `externalId` sent is the number and the identity (`ТДУТ-000012 6f1c2a4e-…`): the number first,
 *   for people, and unique within 1C for ever.
 * - **Withdrawals.** An order unposted or deleted after it was sent comes as
 *   `УдалениеОбъекта/СсылкаНаОбъект/СсылкаНаОбъект/ЗаказПоставщикуСсылка`; deletions of other
 *   objects name another element there and are read past.
 * - **Lines.** Goods (`Товары/Строка`, the item under `ДанныеНоменклатуры`) and services
 *   (`Услуги/Строка`, the item directly; no unit), each table numbered by 1C in its own way (УТ
 *   numbers both from its one table, УНФ writes no number at all): the lines are numbered by their
 *   position in the request, goods first. An item's characteristic and its packaging (where it is
 *   not just the unit) are named after it: variants of one item are told apart.
 * - **The date wanted.** The buyer's wish (`ОжидаемаяДатаПоступления`, 1.7–1.17), else the date
 *   1C puts in the header as the latest of the lines' (`ОжидаемаяДатаПоставки` up to 1.17,
 *   `ДатаДоставкиОтПоставщика` from 1.18), else the latest of the lines' own dates; with none, the
 *   request names no date (never the order's own date, which `rejectPastDates` would refuse the
 *   next day).
 * - **The contact.** The user responsible for the order (`Ответственный`, top level up to 1.10,
 *   under `ОбщиеСвойстваОбъектовФормата` from 1.11): its person's full name where 1C gives one,
 *   else the user's name; never the supplier's contact (`КонтактноеЛицоКонтрагента`). EnterpriseData
 *   carries no phone or e-mail: the shipped mapping (`config/mappings/enterprisedata-orders.yaml`)
 *   gives them, and a contact name for orders with no responsible user.
 * - the delivery address is `АдресДоставки`, one line of text in every version: the city is read
 *   out of it (`fromAddress: city`);
 * - a goods line's unit name is `ЕдиницаИзмерения/Наименование` up to 1.6 and
 *   `ЕдиницаИзмерения/ДанныеКлассификатора/Наименование` from 1.7; with no name, its OKEI code is
 *   turned into the usual short name; a service line has none (`усл. ед.`);
 * - the comment is `ОбщиеСвойстваОбъектовФормата/Комментарий` (1.11 on); a service line's own text
 *   (`Содержание`) is its comment.
 */

const KEYS = 'КлючевыеСвойства';
const ORGANIZATION = `${KEYS}/Организация`;

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

/** A service line carries no unit: it is counted in conventional units (OKEI 876, `усл. ед.`). */
export const SERVICE_UNIT = 'усл. ед.';

const anyOf = (paths: readonly string[]): string => paths.join(' | ');
/** Under a goods line the item is in `ДанныеНоменклатуры`; under a service line, directly. */
const itemPaths = (tail: string): string => anyOf([`ДанныеНоменклатуры/${tail}`, tail]);

const UNIT_NAME = anyOf(['ЕдиницаИзмерения/ДанныеКлассификатора/Наименование', 'ЕдиницаИзмерения/Наименование']);

export const ENTERPRISEDATA_PRESET = {
  kind: 'requests',
  format: 'xml',
  record: 'Message/Body/Документ.ЗаказПоставщику',
  lines: ['Товары/Строка', 'Услуги/Строка'],
  document: {
    id: { path: `${KEYS}/Ссылка` },
    number: { path: `${KEYS}/Номер` },
    date: { path: `${KEYS}/Дата`, date: 'YYYY-MM-DD', optional: true },
  },
  withdrawals: {
    record: 'Message/Body/УдалениеОбъекта',
    id: { path: 'СсылкаНаОбъект/СсылкаНаОбъект/ЗаказПоставщикуСсылка' },
  },
  request: {
    externalId: { template: `{${KEYS}/Номер} {${KEYS}/Ссылка}` },
    'customer.inn': { path: `${ORGANIZATION}/ИНН` },
    'customer.name': { path: anyOf(['НаименованиеПолное', 'НаименованиеСокращенное', 'Наименование'].map((name) => `${ORGANIZATION}/${name}`)) },
    'contact.name': {
      path: anyOf([
        'ОбщиеСвойстваОбъектовФормата/Ответственный/ФизическоеЛицо/ФИО',
        'ОбщиеСвойстваОбъектовФормата/Ответственный/Наименование',
        'Ответственный/ФизическоеЛицо/ФИО',
        'Ответственный/Наименование',
      ]),
    },
    'delivery.city': { path: 'АдресДоставки', fromAddress: 'city' },
    'delivery.address': { path: 'АдресДоставки' },
    // xs:date (`2026-12-20`); a zone after it, where a writer adds one, is ignored.
    'delivery.desiredDate': {
      path: anyOf([
        'ОжидаемаяДатаПоступления',
        'ОжидаемаяДатаПоставки',
        'ДатаДоставкиОтПоставщика',
        'Товары/Строка/ОжидаемаяДатаПоставки',
        'Услуги/Строка/ОжидаемаяДатаПоставки',
      ]),
      date: 'YYYY-MM-DD',
      latest: true,
      optional: true,
    },
    comment: { path: 'ОбщиеСвойстваОбъектовФормата/Комментарий', optional: true },
  },
  items: {
    lineId: { counter: true },
    name: {
      parts: [
        { path: anyOf([itemPaths('Номенклатура/Наименование'), itemPaths('Номенклатура/НаименованиеПолное')]) },
        // A characteristic's name is its full name (the format has no short one), else its name.
        { path: anyOf([itemPaths('Характеристика/НаименованиеПолное'), itemPaths('Характеристика/Наименование')]), prefix: ' (', suffix: ')' },
        { path: 'ДанныеНоменклатуры/Упаковка/Наименование', prefix: ', упаковка: ', unlessSameAs: UNIT_NAME },
      ],
    },
    quantity: { path: 'Количество' },
    unit: {
      path: anyOf([UNIT_NAME, 'ЕдиницаИзмерения/ДанныеКлассификатора/Код', 'ЕдиницаИзмерения/Код']),
      map: OKEI_UNITS,
      default: SERVICE_UNIT,
    },
    comment: { path: 'Содержание', optional: true },
  },
} as const;
