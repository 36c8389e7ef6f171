import { describe, expect, it } from 'vitest';
import {
  createRequestSchema,
  confirmOrderSchema,
  webhookEventSchema,
  createRequestResultSchema,
  isCalendarDate,
  toFieldName,
} from '../../src/platform/contract.js';
import { validRequest } from '../helpers/fixtures.js';

describe('contract', () => {
  it('accepts a valid request and rejects one broken field at a time', () => {
    expect(createRequestSchema.safeParse(validRequest()).success).toBe(true);
    const cases: [string, (r: ReturnType<typeof validRequest>) => void, string][] = [
      ['bad date', (r) => (r.delivery.desiredDate = '2027-02-30'), 'delivery.desiredDate'],
      ['no items', (r) => (r.items = []), 'items'],
      ['zero quantity', (r) => (r.items[0]!.quantity = 0), 'items[0].quantity'],
      ['inn letters', (r) => (r.customer.inn = '77070838A3'), 'customer.inn'],
      ['bad email', (r) => (r.contact.email = 'not-an-email'), 'contact.email'],
      ['duplicate line', (r) => r.items.push({ ...r.items[0]! }), 'items[2].lineId'],
      ['unknown field', (r) => Object.assign(r, { extra: 1 }), ''],
    ];
    for (const [name, breakIt, field] of cases) {
      const r = validRequest();
      breakIt(r);
      const result = createRequestSchema.safeParse(r);
      expect(result.success, name).toBe(false);
      if (!result.success)
        expect(
          result.error.issues.map((i) => toFieldName(i.path)),
          name,
        ).toContain(field);
    }
  });

  it('rejects control characters in ids and names, and all but tab and line breaks in comments', () => {
    const refused: [string, (r: ReturnType<typeof validRequest> & { comment?: string }) => void, string][] = [
      ['NUL in externalId', (r) => (r.externalId = 'ERP\u00000001'), 'externalId'],
      ['line break in externalId', (r) => (r.externalId = 'ERP-1\nERP-2'), 'externalId'],
      ['line break at the end of externalId', (r) => (r.externalId = 'ERP-1\n'), 'externalId'],
      ['tab at the start of a name', (r) => (r.customer.name = '\tООО Ромашка'), 'customer.name'],
      ['tab in a lineId', (r) => (r.items[0]!.lineId = '1\t2'), 'items[0].lineId'],
      ['ESC in a name', (r) => (r.customer.name = 'ООО \u001b[31mРомашка'), 'customer.name'],
      ['DEL in a unit', (r) => (r.items[0]!.unit = 'шт\u007f'), 'items[0].unit'],
      ['C1 in a city', (r) => (r.delivery.city = 'Мос\u0085ква'), 'delivery.city'],
      ['right-to-left override in a name', (r) => (r.items[0]!.name = 'invoice\u202Efdp.exe'), 'items[0].name'],
      ['bell in a phone', (r) => (r.contact.phone = '+7\u0007'), 'contact.phone'],
      ['vertical tab in a comment', (r) => (r.comment = 'a\u000bb'), 'comment'],
      ['NUL in a line comment', (r) => Object.assign(r.items[0]!, { comment: 'x\u0000' }), 'items[0].comment'],
    ];
    for (const [name, breakIt, field] of refused) {
      const r = validRequest();
      breakIt(r);
      const result = createRequestSchema.safeParse(r);
      expect(result.success, name).toBe(false);
      if (!result.success)
        expect(
          result.error.issues.map((i) => toFieldName(i.path)),
          name,
        ).toContain(field);
    }
    const comments = { ...validRequest(), comment: 'first line\r\nsecond\tcolumn' };
    comments.items[0] = { ...comments.items[0]!, comment: 'a\nb\tc' } as (typeof comments.items)[0];
    expect(createRequestSchema.safeParse(comments).success).toBe(true);
    const event = {
      eventId: 'EVT-000009',
      eventType: 'order.status.changed',
      eventDate: '2026-11-21T10:00:00Z',
      orderId: 'ORD-2026-000001',
      status: 'shipped',
    };
    expect(webhookEventSchema.safeParse({ ...event, orderId: 'ORD-2026-000001\r\n' }).success).toBe(false);
    expect(webhookEventSchema.safeParse({ ...event, status: 'ship\u0000ped' }).success).toBe(false);
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
    const event = webhookEventSchema.parse({
      eventId: 'EVT-000001',
      eventType: 'order.status.changed',
      eventDate: '2026-11-21T10:00:00+03:00',
      orderId: 'ORD-2026-000001',
      status: 'shipped',
      extra: 'kept',
    });
    expect(event).toHaveProperty('extra', 'kept');
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000002', eventType: 'order.status.changed', eventDate: '2026-11-21T10:00:00Z' }).success).toBe(false);
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000003', eventType: 'document.added', eventDate: '2026-11-21T10:00:00Z' }).success).toBe(true);
    expect(webhookEventSchema.safeParse({ eventId: 'EVT-000004', eventType: 'x', eventDate: '2026-11-21T10:00:00' }).success).toBe(false);
    const result = createRequestResultSchema.parse({
      id: 'PRC-REQ-000001',
      externalId: 'A',
      status: 'accepted',
      createdAt: '2026-11-21T10:00:00Z',
      more: true,
    });
    expect(result).toHaveProperty('more', true);
    expect(createRequestResultSchema.safeParse({ ...result, id: 'REQ-1' }).success).toBe(false);
  });
});
