/** The pure request validator, table-tested: one valid payload, broken one way per case. */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/mapping/validate-request.js';
import { NOW } from '../helpers/mapping-fixtures.js';

const valid = () => ({
  externalId: 'R-1',
  customer: { inn: '7707083893', name: 'ООО Ромашка' },
  contact: { name: 'Иванов', phone: '+7 495 000-00-00', email: 'ivanov@example.ru' } as Record<string, string>,
  delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2099-03-15' },
  items: [
    { lineId: '1', name: 'Бумага', quantity: 5, unit: 'пачка' },
    { lineId: '2', name: 'Ручки', quantity: 10, unit: 'шт' },
  ] as Record<string, unknown>[],
});
type Payload = ReturnType<typeof valid>;

const rules = { now: NOW, rejectPastDates: true };

describe('validateRequest', () => {
  it('accepts a valid request', () => {
    expect(validateRequest(valid(), rules)).toEqual([]);
  });

  it.each<[string, (p: Payload) => void, string, string]>([
    ['bad INN check digit', (p) => (p.customer.inn = '7707083894'), 'customer.inn', 'INN_INVALID'],
    ['INN of 11 digits', (p) => (p.customer.inn = '77070838931'), 'customer.inn', 'INN_INVALID'],
    ['e-mail without @', (p) => (p.contact.email = 'ivanov.example.ru'), 'contact.email', 'FIELD_INVALID'],
    ['e-mail with a space', (p) => (p.contact.email = 'iva nov@example.ru'), 'contact.email', 'FIELD_INVALID'],
    ['no phone and no e-mail', (p) => (p.contact = { name: 'Иванов' }), 'contact.phone', 'FIELD_INVALID'],
    ['zero quantity', (p) => (p.items[0]!.quantity = 0), 'items[0].quantity', 'FIELD_INVALID'],
    ['negative quantity', (p) => (p.items[1]!.quantity = -2), 'items[1].quantity', 'FIELD_INVALID'],
    ['duplicate lineId', (p) => (p.items[1]!.lineId = '1'), 'items[1].lineId', 'LINE_DUPLICATE'],
    ['no lines', (p) => (p.items = []), 'items', 'LINES_MISSING'],
    ['desiredDate yesterday', (p) => (p.delivery.desiredDate = '2026-06-11'), 'delivery.desiredDate', 'DATE_IN_PAST'],
    ['desiredDate not a calendar day', (p) => (p.delivery.desiredDate = '2027-02-30'), 'delivery.desiredDate', 'FIELD_INVALID'],
    ['missing customer name', (p) => delete (p.customer as Partial<Payload['customer']>).name, 'customer.name', 'FIELD_REQUIRED'],
    ['externalId too long', (p) => (p.externalId = 'x'.repeat(101)), 'externalId', 'FIELD_INVALID'],
    ['line break in externalId', (p) => (p.externalId = 'R-1\r\nR-2'), 'externalId', 'FIELD_INVALID'],
    ['NUL in a lineId', (p) => (p.items[0]!.lineId = '1\u0000'), 'items[0].lineId', 'FIELD_INVALID'],
    ['escape sequence in an item name', (p) => (p.items[1]!.name = '\u001b[2JРучки'), 'items[1].name', 'FIELD_INVALID'],
    ['unknown field', (p) => ((p as Record<string, unknown>).extra = 1), '', 'FIELD_INVALID'],
  ])('%s → %s %s', (_name, breakIt, field, code) => {
    const payload = valid();
    breakIt(payload);
    expect(validateRequest(payload, rules)).toEqual([expect.objectContaining({ field, code })]);
  });

  it('today is not in the past, and the past-date check can be switched off', () => {
    const today = valid();
    today.delivery.desiredDate = '2026-06-12';
    expect(validateRequest(today, rules)).toEqual([]);
    const past = valid();
    past.delivery.desiredDate = '2020-01-01';
    expect(validateRequest(past, { now: NOW, rejectPastDates: false })).toEqual([]);
  });
});
