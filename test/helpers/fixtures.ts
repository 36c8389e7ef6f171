/**
 * The fixture builders every test folder shares: one valid input of each kind, which each test
 * breaks in exactly one way, and the fast intake settings.
 * - `validRequest`, `validConfirmation`: payloads as the platform takes them;
 * - `requestRow` / `requestCsv` / `requestMapping`: a request file as an ERP writes it (Russian
 *   headers, `;`, a `DD.MM.YYYY` date, one row per line) and the mapping that reads it;
 * - `FAST_INTAKE`, `NO_WAIT`: stability settings for tests.
 */
import { randomUUID } from 'node:crypto';
import YAML from 'yaml';
import type { ConfirmOrder, CreateRequest } from '../../src/platform/contract.js';

/**
 * A request the contract accepts (a valid INN, a date far ahead, every optional field filled), with
 * a fresh externalId unless one is given; `overrides` replace whole fields. Called with an object
 * alone, the object is the overrides.
 */
export function validRequest(externalId?: string, overrides?: Partial<CreateRequest>): CreateRequest;
export function validRequest(overrides: Partial<CreateRequest>): CreateRequest;
export function validRequest(first?: string | Partial<CreateRequest>, second: Partial<CreateRequest> = {}): CreateRequest {
  const overrides = typeof first === 'object' ? first : second;
  return {
    externalId: typeof first === 'string' ? first : `ERP-${randomUUID()}`,
    customer: { inn: '7707083893', name: 'ООО Ромашка' },
    contact: { name: 'Иван Петров', phone: '+7 495 000-00-00', email: 'ivan@example.ru' },
    delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2030-03-01' },
    items: [
      { lineId: '1', name: 'Болт М8', quantity: 100, unit: 'шт' },
      { lineId: '2', name: 'Гайка М8', quantity: 100, unit: 'шт', comment: 'оцинкованная' },
    ],
    comment: 'срочно',
    ...overrides,
  };
}

/**
 * A supplier confirmation the contract accepts, of lines 1 and 2; given line ids, of those lines;
 * given an object, those fields replaced.
 */
export function validConfirmation(change: readonly string[] | Partial<ConfirmOrder> = {}): ConfirmOrder {
  const lineIds = Array.isArray(change) ? change : ['1', '2'];
  return {
    supplierOrderId: 'SUP-1',
    readyToShipDate: '2030-02-01',
    items: lineIds.map((lineId: string) => ({ lineId, confirmedQuantity: 100, price: 12.5, currency: 'RUB' })),
    ...(Array.isArray(change) ? {} : change),
  };
}

/** The header of `requestRow`'s file. */
export const HEADER = ['Заявка', 'ИНН', 'Покупатель', 'Контакт', 'Телефон', 'Email', 'Город', 'Адрес', 'Дата', 'Строка', 'Товар', 'Кол-во', 'Ед'];

/** One valid CSV row of request `id`, line `line`; `patch` replaces cells by header name. */
export function requestRow(id = 'R-1', line = '1', patch: Record<string, string> = {}): string[] {
  const base: Record<string, string> = {
    Заявка: id,
    ИНН: '7707083893',
    Покупатель: 'ООО Ромашка',
    Контакт: 'Иванов',
    Телефон: '+7 495 000-00-00',
    Email: 'ivanov@example.ru',
    Город: 'Москва',
    Адрес: 'ул. Ленина, 1',
    Дата: '15.03.2099',
    Строка: line,
    Товар: `Товар ${line}`,
    'Кол-во': '10',
    Ед: 'шт',
  };
  return HEADER.map((name) => patch[name] ?? base[name]!);
}

/** Rows as CSV text (CRLF), quoting what needs it. */
export function toCsv(rows: readonly (readonly string[])[], delimiter = ';'): string {
  const cell = (v: string) => (/[";\n,]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((row) => row.map(cell).join(delimiter)).join('\r\n') + '\r\n';
}

/** A whole request file: `HEADER`, then `rows`. */
export function requestCsv(rows: readonly (readonly string[])[]): string {
  return toCsv([HEADER, ...rows]);
}

/** The mapping for `HEADER` (YAML-shaped data), optionally patched. */
export function requestMapping(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'requests',
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

/** `requestMapping()` as the YAML file a flow points to. */
export const REQUESTS_MAPPING_YAML = YAML.stringify(requestMapping());

/** Fast stability settings: a file is taken as soon as a scan sees it settled. Each test overrides what it is about. */
export const FAST_INTAKE = { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 100 } as const;

/** No stability wait, and no rescan unless the test asks for one (`scanNow()`). */
export const NO_WAIT = { stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 60_000 } as const;
