/** Fixture builders for mapping tests: one valid input that each test breaks in exactly one way. */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseMappingSpec } from '../../src/config/load-mapping.js';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import { mapFile, type MapOptions } from '../../src/mapping/map-file.js';
import type { MappedItem, MappedSubmission } from '../../src/mapping/types.js';
import { type MappingProblem } from '../../src/shared/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NOW = new Date(2026, 5, 12, 12, 0, 0); // 12 June 2026, local noon
export const OPTIONS: MapOptions = { now: NOW, rejectPastDates: true };

export const HEADER = ['Заявка', 'ИНН', 'Покупатель', 'Контакт', 'Телефон', 'Email', 'Город', 'Адрес', 'Дата', 'Строка', 'Товар', 'Кол-во', 'Ед'];

/** One valid CSV row of request `id` (line `line`); `patch` replaces cells by header name. */
export function requestRow(id: string, line: string, patch: Record<string, string> = {}): string[] {
  const base: Record<string, string> = {
    Заявка: id,
    ИНН: '7707083893',
    Покупатель: 'ООО Ромашка',
    Контакт: 'Иванов',
    Телефон: '+7 495 000-00-00',
    Email: 'ivanov@example.ru',
    Город: 'Москва',
    Адрес: 'ул. Ленина, 1',
    Дата: '15.03.2027',
    Строка: line,
    Товар: `Товар ${line}`,
    'Кол-во': '10',
    Ед: 'шт',
  };
  return HEADER.map((name) => patch[name] ?? base[name]!);
}

export function toCsv(rows: string[][], delimiter = ';'): string {
  const cell = (v: string) => (/[";\n,]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((row) => row.map(cell).join(delimiter)).join('\r\n') + '\r\n';
}

/** The mapping for `HEADER` (YAML-shaped data), optionally patched. */
export function requestMapping(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'csv',
    csv: { encoding: 'utf-8', delimiter: ';', decimalComma: true },
    groupBy: 'Заявка',
    request: {
      externalId: { column: 'Заявка' },
      'customer.inn': { column: 'ИНН' },
      'customer.name': { column: 'Покупатель' },
      'contact.name': { column: 'Контакт' },
      'contact.phone': { column: 'Телефон', optional: true },
      'contact.email': { column: 'Email', optional: true },
      'delivery.city': { column: 'Город' },
      'delivery.address': { column: 'Адрес' },
      'delivery.desiredDate': { column: 'Дата', date: 'DD.MM.YYYY' },
    },
    items: {
      lineId: { column: 'Строка' },
      name: { column: 'Товар' },
      quantity: { column: 'Кол-во', integer: true },
      unit: { column: 'Ед' },
    },
    ...patch,
  };
}

export function specOf(raw: Record<string, unknown>, file = 'test-mapping.yaml'): MappingSpec {
  return parseMappingSpec(raw, file);
}

/** Write `content` (a string in `encoding`, or bytes) to `dir/name`; returns the path. */
export function writeInput(dir: string, name: string, content: string | Buffer, encoding: 'utf-8' | 'windows-1251' = 'utf-8'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? (encoding === 'utf-8' ? Buffer.from(content, 'utf8') : iconv.encode(content, 'win1251')) : content);
  return file;
}

export async function collect(file: string, spec: MappingSpec, options: Partial<MapOptions> = {}): Promise<MappedItem[]> {
  const out: MappedItem[] = [];
  for await (const item of mapFile(file, spec, { ...OPTIONS, ...options })) out.push(item);
  return out;
}

export async function split(file: string, spec: MappingSpec, options: Partial<MapOptions> = {}) {
  const items = await collect(file, spec, options);
  const submissions: MappedSubmission[] = [];
  const problems: MappingProblem[] = [];
  for (const item of items) {
    if (item.type === 'submission') submissions.push(item.submission);
    else problems.push(item.problem);
  }
  return { items, submissions, problems };
}
