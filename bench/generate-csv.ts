/**
 * A 1C-style request export, as `config/mappings/1c-requests.yaml` reads it: windows-1251, `;`,
 * CRLF, decimal comma, DD.MM.YYYY, quoted fields with `;` and `""`, a non-breaking space as the
 * thousands separator, `linesPerRequest` rows per request (adjacent, as 1C writes them).
 */
import fs from 'node:fs';
import iconv from 'iconv-lite';

export interface CsvSpec {
  /** Number of requests; the file has requests × linesPerRequest data rows. */
  requests: number;
  linesPerRequest: number;
  /** Makes externalIds unique per file: `ЗК-<prefix><number>`. */
  prefix: string;
  /** desiredDate of every request (DD.MM.YYYY); default: a date about a year ahead. */
  desiredDate?: string;
}

const HEADER = [
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
].join(';');

/** Request-level columns after the number, from three real-looking customers (valid INNs). */
const CUSTOMERS = [
  '7707083893;"ООО ""Ромашка""";Иванов Иван Петрович;+7 495 123-45-67;ivanov@romashka.ru;Москва;ул. Ленина, д. 1, склад 3',
  '0274062111;АО «Уралхим»;Петрова Анна;+7 347 200-00-00;petrova@uralchem.example;Уфа;пр. Октября, 4',
  '7728168971;ООО «Север»;Сидоров С.С.;8 (812) 555-01-02;sidorov@sever.example;Санкт-Петербург;"наб. Обводного канала, 1; вход со двора"',
];
const COMMENTS = ['Срочно', '', '"Доставка; только в будни"'];
const ITEMS = [
  'Бумага офисная А4;50;пачка;',
  'Картридж HP 85A;4;шт;оригинал, не совместимый',
  'Ручка шариковая синяя;100;шт;',
  'Перчатки нитриловые;1\u00a0200;пара;',
  'Респиратор 3M 8112;300;шт;',
  'Кабель ВВГнг 3х2,5;500;м;',
  'Автомат ABB S201 C16;24;шт;',
  'Розетка Legrand Valena;60;шт;белая',
  'Коробка монтажная;60;шт;',
  '"Скотч упаковочный ""прозрачный""";12;рул;',
];

export function defaultDesiredDate(): string {
  const d = new Date(Date.now() + 365 * 86_400_000);
  return `${String(d.getDate()).padStart(2, '0')}.${String(d.getMonth() + 1).padStart(2, '0')}.${d.getFullYear()}`;
}

export function externalIdOf(prefix: string, n: number): string {
  return `ЗК-${prefix}${String(n).padStart(6, '0')}`;
}

/** The CSV text of requests `from`..`to` (exclusive), without the header. */
function renderRows(spec: CsvSpec, date: string, from: number, to: number): string {
  const lines: string[] = [];
  for (let r = from; r < to; r++) {
    const head = `${externalIdOf(spec.prefix, r + 1)};${CUSTOMERS[r % CUSTOMERS.length]!};${date};${COMMENTS[r % COMMENTS.length]!}`;
    for (let l = 0; l < spec.linesPerRequest; l++) lines.push(`${head};${l + 1};${ITEMS[l % ITEMS.length]!}`);
  }
  return lines.length > 0 ? `${lines.join('\r\n')}\r\n` : '';
}

/** Write the file (windows-1251); returns the number of data rows. */
export function writeRequestsCsv(file: string, spec: CsvSpec): number {
  const date = spec.desiredDate ?? defaultDesiredDate();
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, iconv.encode(`${HEADER}\r\n`, 'win1251'));
    const chunk = 500;
    for (let from = 0; from < spec.requests; from += chunk) {
      fs.writeSync(fd, iconv.encode(renderRows(spec, date, from, Math.min(spec.requests, from + chunk)), 'win1251'));
    }
  } finally {
    fs.closeSync(fd);
  }
  return spec.requests * spec.linesPerRequest;
}
