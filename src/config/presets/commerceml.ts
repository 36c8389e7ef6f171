/**
 * `preset: commerceml`: a buyer's requests from a CommerceML 2 document export (`КоммерческаяИнформация`
 * → `Документ`, versions 2.04–2.10, with or without the `urn:1C.ru:commerceml_2` namespace), the
 * order documents 1C (and the sites it exchanges with) write. Every field the standard carries is
 * read from where it stands; `docs/mapping-commerceml.md` lists them one by one, with the versions
 * each alternative is for. A mapping that names the preset adds what CommerceML does not carry (a
 * contact name, a city) and may override any field.
 *
 * Shapes covered, as the exporters write them:
 * - the buyer is the `Контрагент` whose `Роль` is `Покупатель` (the seller, `Продавец`, may come first);
 * - legal entities carry `ОфициальноеНаименование` (sometimes empty) and `ЮридическийАдрес`,
 *   people and sole traders `ПолноеНаименование` and `АдресРегистрации`; the actual (delivery)
 *   address is `Адрес`; each address has `Представление` and `АдресноеПоле` items (`Тип`/`Значение`);
 * - contact details are `Контакты/Контакт` items: `Телефон рабочий` and `Почта` up to 2.05,
 *   `ТелефонРабочий` and `Электронная почта` in the 2.08+ exports of 1C-Bitrix;
 * - the contact person is a `Представитель` with `Отношение` `Контактное лицо`: wrapping a
 *   `Контрагент` up to 2.08, with its own `Наименование` in 2.10;
 * - order-level extras are `ЗначенияРеквизитов/ЗначениеРеквизита` (`Наименование`/`Значение`):
 *   `Адрес доставки`, and `Дата отгрузки` where the exporter writes one;
 * - a line's unit is the text of `БазоваяЕдиница` (`шт`, with `Код`/`НаименованиеПолное`
 *   attributes), or an `Единица` element with `НаименованиеКраткое`/`НаименованиеПолное` children;
 * - 2.10 exports put payment and shipment documents beside each order, and CommerceML 3 wraps
 *   each order with them in a `Контейнер`: only `ХозОперация` `Заказ товара` is read.
 */

const BUYER = "Контрагенты/Контрагент[Роль='Покупатель']";
/** The contact person: a `Представитель` of the buyer (2.10), or the `Контрагент` it wraps (up to 2.08). */
const CONTACT_PERSONS = [
  `${BUYER}/Представители/Представитель[Отношение='Контактное лицо']`,
  `${BUYER}/Представители/Представитель/Контрагент[Отношение='Контактное лицо']`,
];
/** Whose contact details are read, in order: the contact person's, then the buyer's. */
const CONTACT_OWNERS = [...CONTACT_PERSONS, BUYER];
const PHONE_TYPES = ['Телефон рабочий', 'ТелефонРабочий', 'Телефон мобильный', 'Телефон'];
const EMAIL_TYPES = ['Почта', 'Электронная почта'];
/** The buyer's addresses, the actual (delivery) one first. */
const ADDRESSES = ['Адрес', 'АдресРегистрации', 'ЮридическийАдрес'].map((address) => `${BUYER}/${address}`);

const anyOf = (paths: readonly string[]): string => paths.join(' | ');
const requisite = (name: string): string => `ЗначенияРеквизитов/ЗначениеРеквизита[Наименование='${name}']/Значение`;
const contacts = (types: readonly string[]): string[] =>
  CONTACT_OWNERS.flatMap((owner) => types.map((type) => `${owner}/Контакты/Контакт[Тип='${type}']/Значение`));
const addressField = (type: string): string[] => ADDRESSES.map((address) => `${address}/АдресноеПоле[Тип='${type}']/Значение`);

export const COMMERCEML_PRESET = {
  kind: 'requests',
  format: 'xml',
  record: "КоммерческаяИнформация/Документ[ХозОперация='Заказ товара'] | КоммерческаяИнформация/Контейнер/Документ[ХозОперация='Заказ товара']",
  lines: 'Товары/Товар',
  request: {
    externalId: { path: 'Номер' },
    'customer.inn': { path: `${BUYER}/ИНН` },
    'customer.name': { path: anyOf(['ОфициальноеНаименование', 'ПолноеНаименование', 'Наименование'].map((name) => `${BUYER}/${name}`)) },
    'contact.name': { path: anyOf(CONTACT_PERSONS.map((person) => `${person}/Наименование`)) },
    'contact.phone': { path: anyOf(contacts(PHONE_TYPES)), optional: true },
    'contact.email': { path: anyOf(contacts(EMAIL_TYPES)), optional: true },
    'delivery.city': { path: anyOf([...addressField('Город'), ...addressField('Населенный пункт')]) },
    'delivery.address': { path: anyOf([requisite('Адрес доставки'), ...ADDRESSES.map((address) => `${address}/Представление`)]) },
    // CommerceML has no delivery date of its own: the requisite where the exporter writes one, else
    // the document's date. Dates are YYYY-MM-DD; a time after them (`T00:00:00`) is ignored.
    'delivery.desiredDate': { path: anyOf([requisite('Дата отгрузки'), 'Дата']), date: 'YYYY-MM-DD' },
    comment: { path: 'Комментарий', optional: true },
  },
  items: {
    lineId: { counter: true },
    name: { path: 'Наименование' },
    quantity: { path: 'Количество' },
    unit: {
      path: anyOf([
        'БазоваяЕдиница',
        'БазоваяЕдиница/@НаименованиеКраткое',
        'Единица/НаименованиеКраткое',
        'Единица',
        'БазоваяЕдиница/@НаименованиеПолное',
        'Единица/НаименованиеПолное',
      ]),
    },
  },
} as const;
