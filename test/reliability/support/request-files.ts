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
