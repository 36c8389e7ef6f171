/** What an event does to its order, table-tested: which events change one, which is newer, the export record. */
import { describe, expect, it } from 'vitest';
import type { AppliedStatus } from '../../src/store/events.js';
import { compareEventIds, eventToStore, supersedes } from '../../src/webhook/status-change.js';

const applied = (eventId: string, date: string): AppliedStatus => ({ eventId, eventDateMs: Date.parse(date) });

describe('supersedes', () => {
  it.each<[string, string, string, AppliedStatus, boolean]>([
    ['a later date wins', 'EVT-000001', '2026-06-12T11:00:00Z', applied('EVT-000009', '2026-06-12T10:00:00Z'), true],
    ['an earlier date loses, whatever its number', 'EVT-000099', '2026-06-12T09:00:00Z', applied('EVT-000009', '2026-06-12T10:00:00Z'), false],
    ['equal dates: the larger number wins', 'EVT-000124', '2026-06-12T10:00:00Z', applied('EVT-000123', '2026-06-12T10:00:00Z'), true],
    ['equal dates: the smaller number loses', 'EVT-000122', '2026-06-12T10:00:00Z', applied('EVT-000123', '2026-06-12T10:00:00Z'), false],
    ['the same offset written two ways is the same instant', 'EVT-000002', '2026-06-12T13:00:00+03:00', applied('EVT-000001', '2026-06-12T10:00:00Z'), true],
  ])('%s', (_name, eventId, date, current, expected) => {
    expect(supersedes({ eventId, eventDateMs: Date.parse(date) }, current)).toBe(expected);
  });
});

describe('compareEventIds', () => {
  it.each<[string, string, number]>([
    ['EVT-000124', 'EVT-000123', 1],
    ['EVT-1000', 'EVT-999', 1],
    ['EVT-000001', 'EVT-1', -1], // equal numbers: the text decides, so the order is still total
    ['EVT-000001', 'EVT-000002', -1],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareEventIds(a, b))).toBe(sign);
  });
});

describe('eventToStore', () => {
  const base = { eventId: 'EVT-000007', eventDate: '2026-06-12T10:00:00+03:00' };

  it('an order status change carries its export record, received now', () => {
    const stored = eventToStore(
      { ...base, eventType: 'order.status.changed', orderId: 'ORD-2026-000001', status: 'shipped' },
      '{"raw":1}',
      Date.UTC(2026, 5, 12, 8),
    );
    expect(stored).toMatchObject({ eventDateMs: Date.parse(base.eventDate), orderId: 'ORD-2026-000001', status: 'shipped', body: '{"raw":1}' });
    expect(stored.statusChange).toEqual({
      orderId: 'ORD-2026-000001',
      status: 'shipped',
      exportRecord: {
        eventId: 'EVT-000007',
        eventType: 'order.status.changed',
        eventDate: base.eventDate,
        orderId: 'ORD-2026-000001',
        status: 'shipped',
        receivedAt: '2026-06-12T08:00:00.000Z',
      },
    });
  });

  it('another type is kept for its id but changes no order', () => {
    expect(eventToStore({ ...base, eventType: 'document.added', orderId: 'ORD-2026-000001', status: 'x' }, '{}', 0).statusChange).toBeUndefined();
  });
});
