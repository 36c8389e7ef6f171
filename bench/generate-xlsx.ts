/**
 * A 1C-like workbook of request rows for the XLSX bench, written by exceljs's streaming writer with
 * shared strings (as Excel saves: every repeated text, a customer's name or a unit, stored once):
 * one header row, `linesPerRequest` adjacent rows per request, the request columns on every line,
 * a typed desired date (2030), a typed quantity. exceljs is a devDependency: the bench and the test
 * fixtures use it, `src/` never does.
 */
import ExcelJS from 'exceljs';

export interface XlsxSpec {
  requests: number;
  linesPerRequest: number;
  /** Makes externalIds unique per file: `ЗК-<prefix><number>`. */
  prefix: string;
}

export const XLSX_HEADER = [
  'Номер заявки',
  'ИНН',
  'Покупатель',
  'Контакт',
  'Телефон',
  'Email',
  'Город',
  'Адрес',
  'Дата поставки',
  'Строка',
  'Номенклатура',
  'Количество',
  'Ед. изм.',
] as const;

const CUSTOMERS = [
  ['7707083893', 'ООО «Ромашка»', 'Иванов Иван Петрович', '+7 495 123-45-67', 'ivanov@romashka.ru', 'Москва', 'ул. Ленина, д. 1, склад 3'],
  ['0274062111', 'АО «Уралхим»', 'Петрова Анна', '+7 347 200-00-00', 'petrova@uralchem.example', 'Уфа', 'пр. Октября, 4'],
  ['500100732259', 'ИП Смирнов Алексей Викторович', 'Смирнов А.В.', '+7 916 000-11-22', 'smirnov@example.ru', 'Подольск', 'ул. Кирова, 10'],
] as const;

const ITEMS = [
  ['Бумага офисная А4', 'пачка'],
  ['Картридж HP 85A', 'шт'],
  ['Ручка шариковая синяя', 'шт'],
  ['Перчатки нитриловые', 'пара'],
  ['Краска фасадная белая', 'л'],
] as const;

const DESIRED = new Date(Date.UTC(2030, 2, 15));

/** Write the workbook; returns the number of data rows. */
export async function writeRequestsXlsx(file: string, spec: XlsxSpec): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Заявки');
  sheet.addRow([...XLSX_HEADER]).commit();
  let rows = 0;
  for (let request = 1; request <= spec.requests; request++) {
    const customer = CUSTOMERS[request % CUSTOMERS.length]!;
    const id = `ЗК-${spec.prefix}${String(request).padStart(7, '0')}`;
    for (let line = 1; line <= spec.linesPerRequest; line++) {
      const [name, unit] = ITEMS[(request + line) % ITEMS.length]!;
      const row = sheet.addRow([id, ...customer, DESIRED, line, `${name} (арт. ${(request * 7 + line) % 997})`, line * 3, unit]);
      row.getCell(9).numFmt = 'dd.mm.yyyy';
      row.commit();
      rows++;
    }
  }
  sheet.commit();
  await workbook.commit();
  return rows;
}
