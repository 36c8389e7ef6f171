/**
 * The column names ERPs really write for each target field, in Russian and English: 1C documents
 * and their dotted attribute paths (`Контрагент.ИНН`, `НомерСтроки`), Excel sheets typed by hand,
 * CSV exports of international ERPs. Names are compared by their words (`names.ts`), so one
 * spelling of a phrase covers its variants of case, spacing and punctuation.
 *
 * A strong phrase names the field on its own (`ИНН`, `Кол-во`) and also counts, for less, inside a
 * longer name (`ИНН покупателя (получателя)`); a weak one is a generic word that names the field
 * only when the whole name is that word (`Номер`, `Дата`) and needs the content to agree.
 */

/** A phrase and how strongly it names the field (0..1). */
export interface NamePhrase {
  text: string;
  weight: number;
}

export interface FieldNames {
  phrases: NamePhrase[];
  /** Words that rule the field out (`ИНН поставщика` is not the customer's INN). */
  avoid?: string[];
}

/** The weight of a phrase that names the field on its own. */
export const STRONG = 0.95;
/** The weight of a generic word (`Номер`, `Дата`): it needs the content to agree. */
export const WEAK = 0.8;

const strong = (...texts: string[]): NamePhrase[] => texts.map((text) => ({ text, weight: STRONG }));
const weak = (...texts: string[]): NamePhrase[] => texts.map((text) => ({ text, weight: WEAK }));

const SUPPLIER_WORDS = ['поставщик', 'поставщика', 'поставщику', 'продавец', 'продавца', 'supplier', 'vendor', 'seller', 'перевозчик', 'carrier'];

const LINE_ID: FieldNames = {
  phrases: [
    ...strong('Строка', 'Номер строки', 'НомерСтроки', '№ строки', '№ п/п', 'п/п', 'Номер позиции', '№ позиции', 'Позиция №', 'Строка заявки'),
    ...strong('Line', 'Line No', 'Line number', 'Line ID', 'Item No', 'Item number', 'Position', 'Pos', 'Line item'),
    ...weak('№', 'N', 'Поз', 'Позиция', 'Row', 'Seq'),
  ],
};

const HEADER_COMMENT: FieldNames = {
  phrases: [
    ...strong('Комментарий', 'Примечание', 'Комментарий к заявке', 'Комментарий заявки', 'Примечание к заявке', 'Комментарий к документу'),
    ...strong('Comment', 'Comments', 'Note', 'Notes', 'Remark', 'Remarks'),
  ],
};

/** Target field key (`request.customer.inn`, `items.quantity`, `orderId`) → its names. */
export const FIELD_NAMES: Record<string, FieldNames> = {
  // --- requests --------------------------------------------------------------------------------
  'request.externalId': {
    phrases: [
      ...strong('Номер заявки', '№ заявки', 'Заявка №', 'Номер документа', 'Док№', 'Документ №', 'Номер заказа', 'Заявка покупателя', 'Заявка.Номер'),
      ...strong('Документ.Номер', 'Номер запроса', 'Номер потребности', 'Номер заявки на закупку'),
      ...strong('Request No', 'Request number', 'Request ID', 'Requisition', 'Requisition No', 'Requisition number', 'PR number', 'PO number'),
      ...strong('Purchase order', 'Order number', 'Order No', 'Document No', 'Document number', 'Doc No', 'External ID'),
      ...weak('Номер', 'Заявка', 'Документ', 'Заказ', 'Number', 'ID', 'Request', 'Order', 'Ref', 'Reference'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.customer.inn': {
    phrases: [
      ...strong('ИНН', 'ИНН покупателя', 'ИНН заказчика', 'ИНН клиента', 'ИНН организации', 'ИНН контрагента', 'ИНН грузополучателя'),
      ...strong('Контрагент.ИНН', 'Покупатель.ИНН', 'Заказчик.ИНН', 'Организация.ИНН', 'Клиент.ИНН'),
      ...strong('INN', 'Customer INN', 'Buyer INN', 'Customer tax ID', 'Buyer tax ID', 'Tax ID', 'TIN', 'Taxpayer ID'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.customer.name': {
    phrases: [
      ...strong('Покупатель', 'Заказчик', 'Организация', 'Контрагент', 'Клиент', 'Грузополучатель', 'Юрлицо', 'Юр. лицо'),
      ...strong('Наименование покупателя', 'Наименование организации', 'Наименование заказчика', 'Наименование контрагента', 'Наименование клиента'),
      ...strong('Контрагент.Наименование', 'Покупатель.Наименование', 'Организация.Наименование', 'Заказчик.Наименование'),
      ...strong('Customer', 'Customer name', 'Buyer', 'Buyer name', 'Client', 'Client name', 'Company', 'Company name', 'Organization', 'Organisation'),
      ...strong('Legal entity', 'Consignee'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.contact.name': {
    phrases: [
      ...strong('Контакт', 'Контактное лицо', 'ФИО', 'ФИО контакта', 'ФИО контактного лица', 'Контактное лицо.ФИО', 'Представитель', 'Заявитель'),
      ...strong('Инициатор', 'Contact', 'Contact name', 'Contact person', 'Contact full name', 'Full name', 'Requester', 'Requested by'),
      ...weak('Ответственный', 'Автор', 'Получатель', 'Имя', 'Name', 'Recipient'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.contact.phone': {
    phrases: [
      ...strong('Телефон', 'Тел.', 'Контактный телефон', 'Телефон контакта', 'Телефон контактного лица', 'Мобильный телефон', 'Моб. тел.'),
      ...strong('Мобильный', 'Phone', 'Phone number', 'Telephone', 'Tel', 'Mobile', 'Contact phone', 'Cell phone'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.contact.email': {
    phrases: [
      ...strong('E-mail', 'Email', 'Е-mail', 'Эл. почта', 'Электронная почта', 'Адрес электронной почты', 'Почта', 'Емейл', 'Эл. адрес'),
      ...strong('Contact email', 'E-mail address', 'Email address'),
      ...weak('Mail'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'request.delivery.city': {
    phrases: [
      ...strong('Город', 'Город доставки', 'Город поставки', 'Населенный пункт', 'Город получателя', 'Город грузополучателя'),
      ...strong('City', 'Delivery city', 'Ship to city', 'Ship-to city', 'Town'),
    ],
  },
  'request.delivery.address': {
    phrases: [
      ...strong('Адрес', 'Адрес доставки', 'Адрес поставки', 'Адрес склада', 'Адрес получателя', 'Адрес грузополучателя', 'Место доставки'),
      ...strong('Место поставки', 'Грузополучатель.Адрес', 'Address', 'Delivery address', 'Shipping address', 'Ship to', 'Ship-to address'),
      ...strong('Deliver to'),
      ...weak('Склад', 'Адрес отгрузки', 'Warehouse', 'Location'),
    ],
  },
  'request.delivery.desiredDate': {
    phrases: [
      ...strong('Дата поставки', 'Срок', 'Срок поставки', 'Желаемая дата', 'Желаемая дата поставки', 'Дата доставки', 'Требуемая дата'),
      ...strong('Требуемая дата поставки', 'Дата потребности', 'Срок исполнения', 'Срок доставки', 'Плановая дата поставки', 'Нужно к'),
      ...strong('Delivery date', 'Desired date', 'Desired delivery date', 'Due date', 'Need by', 'Need-by date', 'Required date'),
      ...strong('Required by', 'Date required', 'Requested delivery date'),
      ...weak('Дата', 'Date'),
    ],
  },
  'request.comment': HEADER_COMMENT,
  'items.lineId': LINE_ID,
  'items.name': {
    phrases: [
      ...strong('Номенклатура', 'Товар', 'Наименование', 'Наименование товара', 'Наименование номенклатуры', 'Номенклатура.Наименование'),
      ...strong('Товар/услуга', 'Товары', 'Материал', 'Продукция', 'Наименование позиции', 'Описание товара', 'Наименование ТМЦ', 'ТМЦ'),
      ...strong('Item', 'Item name', 'Product', 'Product name', 'Goods', 'Material', 'Material description', 'Item description'),
      ...weak('Описание', 'Название', 'Description', 'Name'),
    ],
  },
  'items.quantity': {
    phrases: [
      ...strong('Количество', 'Кол-во', 'Кол.', 'Кол-во заказано', 'Количество заказано', 'Требуемое количество', 'Количество к закупке'),
      ...strong('Qty', 'Quantity', 'Qty ordered', 'Ordered qty', 'Requested quantity', 'Requested qty'),
      ...weak('Объем', 'Count'),
    ],
  },
  'items.unit': {
    phrases: [
      ...strong('Ед. изм.', 'Единица измерения', 'Единица', 'ЕИ', 'Ед.', 'Единица измерения.Наименование', 'Ед. измерения', 'Единицы'),
      ...strong('Unit', 'UoM', 'Unit of measure', 'Unit of measurement', 'Units', 'Measure'),
    ],
  },
  'items.comment': {
    phrases: [
      ...strong('Комментарий строки', 'Примечание строки', 'Комментарий к строке', 'Комментарий к позиции', 'Примечание к позиции'),
      ...strong('Line comment', 'Item comment', 'Line note', 'Item note'),
      ...weak('Комментарий', 'Примечание', 'Comment', 'Comments', 'Note', 'Notes', 'Remark'),
    ],
  },

  // --- confirmations ---------------------------------------------------------------------------
  orderId: {
    phrases: [
      ...strong('Заказ', 'Номер заказа', 'Заказ площадки', 'Номер заказа на площадке', 'Заказ на площадке', 'ID заказа', 'Заказ покупателя'),
      ...strong('Order', 'Order ID', 'Order No', 'Order number', 'Platform order', 'Customer order', 'Buyer order'),
    ],
    avoid: SUPPLIER_WORDS,
  },
  'confirmation.supplierOrderId': {
    phrases: [
      ...strong('Номер у поставщика', 'Номер поставщика', 'Номер заказа поставщика', 'Заказ поставщика', 'Наш номер', 'Номер документа'),
      ...strong('Док№', 'Документ №', 'Номер счета', 'Счет №', 'Номер счета на оплату', 'Заказ клиента'),
      ...strong('Supplier order', 'Supplier order ID', 'Supplier order No', 'Supplier order number', 'Supplier reference'),
      ...strong('Our reference', 'Sales order', 'Sales order No', 'Invoice No', 'Document No'),
      ...weak('Номер', 'Документ', 'Счет', 'Number', 'Ref', 'Reference'),
    ],
  },
  'confirmation.readyToShipDate': {
    phrases: [
      ...strong('Готов к отгрузке', 'Дата готовности', 'Дата отгрузки', 'Срок отгрузки', 'Готовность', 'Дата готовности к отгрузке'),
      ...strong('Плановая дата отгрузки', 'Ready to ship', 'Ready date', 'Ready to ship date', 'Ship date', 'Shipping date', 'Dispatch date'),
      ...weak('Срок', 'Дата', 'Дата поставки', 'Date'),
    ],
  },
  'confirmation.comment': HEADER_COMMENT,
  'items.confirmedQuantity': {
    phrases: [
      ...strong('Подтверждено', 'Подтвержденное количество', 'Кол-во подтверждено', 'Количество подтверждено', 'Количество', 'Кол-во'),
      ...strong('Кол.', 'Confirmed', 'Confirmed qty', 'Confirmed quantity', 'Qty', 'Quantity'),
    ],
  },
  'items.price': {
    phrases: [
      ...strong('Цена', 'Цена за единицу', 'Цена за ед.', 'Цена с НДС', 'Цена единицы', 'Price', 'Unit price', 'Price per unit'),
      ...weak('Цена без НДС', 'Стоимость', 'Net price'),
    ],
  },
  'items.currency': {
    phrases: [...strong('Валюта', 'Код валюты', 'Валюта цены', 'Валюта документа', 'Currency', 'Currency code', 'Curr'), ...weak('Вал.', 'Cur')],
  },
};

/** How many phrases the dictionary holds (shared lists counted once per field). */
export function dictionarySize(): number {
  return Object.values(FIELD_NAMES).reduce((sum, entry) => sum + entry.phrases.length, 0);
}
