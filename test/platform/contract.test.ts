import { describe, expect, it } from 'vitest';
import {
  createRequestSchema,
  confirmOrderSchema,
  webhookEventSchema,
  createRequestResultSchema,
  isCalendarDate,
  toFieldName,
} from '../../src/platform/contract.js';

const validRequest = () => ({
  externalId: 'ERP-0001',
  customer: { inn: '7707083893', name: 'ООО Ромашка' },
  contact: { name: 'Иван Петров', phone: '+7 495 000-00-00', email: 'ivan@example.ru' },
  delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2027-03-01' },
  items: [{ lineId: '1', name: 'Болт М8', quantity: 10, unit: 'шт' }],
});

describe('contract', () => {
  it('accepts a valid request and rejects one broken field at a time', () => {
    expect(createRequestSchema.safeParse(validRequest()).success).toBe(true);
    const cases: [string, (r: ReturnType<typeof validRequest>) => void, string][] = [
      ['bad date', (r) => (r.delivery.desiredDate = '2027-02-30'), 'delivery.desiredDate'],
      ['no items', (r) => (r.items = []), 'items'],
      ['zero quantity', (r) => (r.items[0]!.quantity = 0), 'items[0].quantity'],
      ['inn letters', (r) => (r.customer.inn = '77070838A3'), 'customer.inn'],
      ['bad email', (r) => (r.contact.email = 'not-an-email'), 'contact.email'],
      ['duplicate line', (r) => r.items.push({ ...r.items[0]! }), 'items[1].lineId'],
      ['unknown field', (r) => Object.assign(r, { extra: 1 }), ''],
    ];
    for (const [name, breakIt, field] of cases) {
      const r = validRequest();
      breakIt(r);
      const result = createRequestSchema.safeParse(r);
      expect(result.success, name).toBe(false);
      if (!result.success) expect(result.error.issues.map((i) => toFieldName(i.path)), name).toContain(field);
    }
  });

  it('checks real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2027-13-01')).toBe(false);
    expect(isCalendarDate('01.02.2027')).toBe(false);
  });

  it('validates confirmations: two decimals, ISO currency, no negatives', () => {
    const ok = { supplierOrderId: 'S-1', readyToShipDate: '2027-01-10', items: [{ lineId: '1', confirmedQuantity: 0, price: 10.5, currency: 'RUB' }] };
    expect(confirmOrderSchema.safeParse(ok).success).toBe(true);
    expect(confirmOrderSchema.safeParse({ ...ok, items: [{ ...ok.items[0], price: 10.555 }] }).success).toBe(false);
    expect(confirmOrderSchema.safeParse({ ...ok, items: [{ ...ok.items[0], currency: 'rub' }] }).success).toBe(false);
    expect(confirmOrderSchema.safeParse({ ...ok, items: [{ ...ok.items[0], confirmedQuantity: -1 }] }).success).toBe(false);
  });

  it('keeps unknown fields of inbound objects and requires order fields only for order.status.changed', () => {
    const event = webhookEventSchema.parse({ eventId: 'EVT-000001', eventType: 'order.status.changed', eventDate: '2026-11-21T10:00:00+03:00', orderId: 'ORD-2026-000001', status: 'shipped', extra: 'kept' });
    expect(event).toHaveProperty('extra', 'kept');
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000002', eventType: 'order.status.changed', eventDate: '2026-11-21T10:00:00Z' }).success).toBe(false);
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000003', eventType: 'document.added', eventDate: '2026-11-21T10:00:00Z' }).success).toBe(true);
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000004', eventType: 'x', eventDate: '2026-11-21T10:00:00' }).success).toBe(false);
    const result = createRequestResultSchema.parse({ id: 'PRC-REQ-000001', externalId: 'A', status: 'accepted', createdAt: '2026-11-21T10:00:00Z', more: true });
    expect(result).toHaveProperty('more', true);
    expect(createRequestResultSchema.safeParse({ ...result, id: 'REQ-1' }).success).toBe(false);
  });
});
