/**
 * Request files as 1C writes them (`config/mappings/1c-requests.yaml`: windows-1251, `;`, one row
 * per line, grouped by "Номер заявки"), and dropping them into an inbox the way an ERP should:
 * written under an excluded `.tmp` name, then renamed.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';

export const REQUEST_HEADER = [
  'Номер заявки',
  'ИНН',
  'Покупатель',
  'Контакт',
  'Телефон',
  'Email',
  'Город',
  'Адрес',
  'Дата поставки',
  'Комментарий',
  'Строка',
  'Номенклатура',
  'Количество',
  'Ед. изм.',
  'Комментарий строки',
] as const;

/** INNs with valid check digits (10-digit legal entities). */
const INNS = ['7707083893', '0274062111', '7736050003'];

/** The externalId of request number `n` of a run. */
export function externalIdOf(run: string, n: number): string {
  return `${run}-${String(n).padStart(5, '0')}`;
}

/** The externalIds of a run's first `count` requests, in order. */
export function externalIdsOf(run: string, count: number): string[] {
  return Array.from({ length: count }, (_, n) => externalIdOf(run, n));
}

/** One request as CSV rows (1 to 3 lines, by `n`), with a delivery date years ahead. */
export function requestRows(run: string, n: number): string[][] {
  const lines = (n % 3) + 1;
  const rows: string[][] = [];
  for (let line = 1; line <= lines; line += 1) {
    rows.push([
      externalIdOf(run, n),
      INNS[n % INNS.length]!,
      `ООО "Надёжность ${n}"`,
      'Иванов Иван',
      '+7 495 123-45-67',
      `buyer${n}@example.ru`,
      'Москва',
      `ул. Ленина, д. ${n}`,
      '15.03.2031',
      n % 2 === 0 ? 'Срочно' : '',
      String(line),
      `Товар ${n}/${line}`,
      String(line * 10),
      'шт',
      '',
    ]);
  }
  return rows;
}

function csvCell(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A whole request file (windows-1251 bytes) for requests `from` … `to - 1`. */
export function requestFile(run: string, from: number, to: number): Buffer {
  const rows = [REQUEST_HEADER as readonly string[]];
  for (let n = from; n < to; n += 1) rows.push(...requestRows(run, n));
  return iconv.encode(`${rows.map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`, 'win1251');
}

/** Write under `<name>.tmp` (excluded by the intake's defaults), then rename: the ERP's atomic drop. */
export function dropFile(inbox: string, name: string, bytes: Buffer | string): void {
  const temp = path.join(inbox, `${name}.tmp`);
  fs.writeFileSync(temp, bytes);
  fs.renameSync(temp, path.join(inbox, name));
}

/**
 * The same requests as a workbook saved from 1C (`requestFile`'s columns on a sheet "Заявки", a
 * title row above the header, quantities and the delivery date as typed cells), written by exceljs.
 */
export async function requestWorkbook(run: string, from: number, to: number): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Заявки');
  sheet.addRow([`Заявки на закупку ${run}`]);
  sheet.addRow([...REQUEST_HEADER]);
  for (let n = from; n < to; n += 1) {
    for (const row of requestRows(run, n)) {
      const cells: (string | number | Date)[] = [...row];
      cells[8] = new Date(Date.UTC(2031, 2, 15)); // Дата поставки, a date cell
      cells[12] = Number(row[12]); // Количество, a number cell
      sheet.addRow(cells);
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A mapping for `requestWorkbook`: `config/mappings/1c-requests.yaml`'s fields, from a workbook. */
export const WORKBOOK_MAPPING = `format: xlsx
groupBy: "Номер заявки"
request:
  externalId: { column: "Номер заявки" }
  customer.inn: { column: "ИНН" }
  customer.name: { column: "Покупатель" }
  contact.name: { column: "Контакт" }
  contact.phone: { column: "Телефон" }
  contact.email: { column: "Email" }
  delivery.city: { column: "Город" }
  delivery.address: { column: "Адрес" }
  delivery.desiredDate: { column: "Дата поставки", date: "DD.MM.YYYY" }
  comment: { column: "Комментарий", optional: true }
items:
  lineId: { column: "Строка" }
  name: { column: "Номенклатура" }
  quantity: { column: "Количество", integer: true }
  unit: { column: "Ед. изм." }
  comment: { column: "Комментарий строки", optional: true }
`;

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The same requests as a CommerceML 2.08 document export, as 1C writes it (windows-1251, the
 * `urn:1C.ru:commerceml_2` namespace), for `config/mappings/commerceml-orders.yaml`.
 */
export function requestCommerceMl(run: string, from: number, to: number): Buffer {
  const documents: string[] = [];
  for (let n = from; n < to; n += 1) {
    const rows = requestRows(run, n);
    const [externalId, inn, name, contact, phone, email, city, address] = rows[0]!.map(xmlText);
    const goods = rows
      .map(
        (row) => `      <Товар>
        <Ид>item-${n}-${row[10]}</Ид>
        <Наименование>${xmlText(row[11]!)}</Наименование>
        <БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>
        <ЦенаЗаЕдиницу>100.00</ЦенаЗаЕдиницу>
        <Количество>${row[12]}</Количество>
        <Сумма>${Number(row[12]) * 100}.00</Сумма>
      </Товар>`,
      )
      .join('\n');
    documents.push(`  <Документ>
    <Ид>doc-${externalId}</Ид>
    <Номер>${externalId}</Номер>
    <Дата>2031-03-01</Дата>
    <ХозОперация>Заказ товара</ХозОперация>
    <Роль>Покупатель</Роль>
    <Валюта>руб</Валюта>
    <Курс>1</Курс>
    <Сумма>100.00</Сумма>
    <Контрагенты>
      <Контрагент>
        <Ид>buyer-${n}</Ид>
        <Наименование>${name}</Наименование>
        <ОфициальноеНаименование>${name}</ОфициальноеНаименование>
        <ИНН>${inn}</ИНН>
        <Роль>Покупатель</Роль>
        <Адрес>
          <Представление>${city}, ${address}</Представление>
          <АдресноеПоле><Тип>Город</Тип><Значение>${city}</Значение></АдресноеПоле>
        </Адрес>
        <Контакты>
          <Контакт><Тип>Телефон рабочий</Тип><Значение>${phone}</Значение></Контакт>
          <Контакт><Тип>Почта</Тип><Значение>${email}</Значение></Контакт>
        </Контакты>
        <Представители>
          <Представитель><Контрагент><Отношение>Контактное лицо</Отношение><Ид>c-${n}</Ид><Наименование>${contact}</Наименование></Контрагент></Представитель>
        </Представители>
      </Контрагент>
    </Контрагенты>
    <Время>10:00:00</Время>
    <Товары>
${goods}
    </Товары>
    <ЗначенияРеквизитов>
      <ЗначениеРеквизита><Наименование>Адрес доставки</Наименование><Значение>${address}</Значение></ЗначениеРеквизита>
      <ЗначениеРеквизита><Наименование>Дата отгрузки</Наименование><Значение>2031-03-15</Значение></ЗначениеРеквизита>
    </ЗначенияРеквизитов>
  </Документ>`);
  }
  const xml = `<?xml version="1.0" encoding="windows-1251"?>
<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.08" ДатаФормирования="2031-03-01T10:00:00">
${documents.join('\n')}
</КоммерческаяИнформация>
`;
  return iconv.encode(xml, 'win1251');
}
