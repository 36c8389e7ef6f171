/**
 * `quickWebhookEvent` must say what `webhookEventSchema` says. Every case is a valid event broken
 * (or bent and still valid) in one to three ways, from pools of values at and around each rule of
 * the schema; both must agree on every one. A quick check that accepted what the schema refuses
 * would store an event the contract does not allow; one that refused what it accepts would only
 * cost speed, and is counted too, so that the quick path keeps covering the events it is for.
 */
import { describe, expect, it } from 'vitest';
import { webhookEventSchema } from '../../src/platform/contract.js';
import { quickWebhookEvent } from '../../src/platform/webhook-event-check.js';

type Json = Record<string, unknown>;

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOT_STRINGS = [undefined, null, 5, true, {}, [], ['a']];
const NAMES = [
  ...NOT_STRINGS,
  '',
  ' ',
  'a',
  'x'.repeat(255),
  'x'.repeat(256),
  '😀'.repeat(255),
  '😀'.repeat(256),
  'a\u0000',
  'a\t',
  'a\nb',
  '\u007f',
  '\u0085',
  'a\u202e',
  'a\u2066b',
  'ORD-2026-000042',
  'shipped',
];
const POOLS: Record<string, unknown[]> = {
  eventId: [
    ...NOT_STRINGS,
    '',
    'EVT-1',
    'EVT-12',
    'EVT-123',
    'EVT-000123',
    'EVT-0001234567',
    'evt-000123',
    'EVT-00012a',
    ' EVT-000123',
    'EVT-000123\n',
    'EVT-٠١٢٣',
  ],
  eventType: [...NAMES, 'order.status.changed', 'order.created', 'ORDER.STATUS.CHANGED'],
  eventDate: [
    ...NOT_STRINGS,
    '',
    '2026-06-12T10:15:00+03:00',
    '2026-06-12T10:15:00Z',
    '2026-06-12T10:15:00.123456Z',
    '2026-06-12T10:15:00',
    '2026-06-12 10:15:00Z',
    '2026-02-29T10:15:00Z',
    '2028-02-29T10:15:00Z',
    '2026-13-01T00:00:00Z',
    '2026-06-12T24:00:00Z',
    '2026-06-12T10:15:00+24:00',
    '2026-06-12T10:15Z',
    '2026-06-12',
  ],
  orderId: NAMES,
  status: NAMES,
};

function validEvent(): Json {
  return { eventId: 'EVT-000123', eventType: 'order.status.changed', eventDate: '2026-06-12T10:15:00+03:00', orderId: 'ORD-2026-000042', status: 'shipped' };
}

function mutate(event: Json, next: () => number): void {
  const keys = Object.keys(POOLS);
  const key = keys[Math.floor(next() * keys.length)]!;
  const roll = next();
  if (roll < 0.08) delete event[key];
  else if (roll < 0.12) event[`extra${Math.floor(next() * 3)}`] = 'kept';
  else {
    const pool = POOLS[key]!;
    event[key] = pool[Math.floor(next() * pool.length)];
  }
}

describe('quickWebhookEvent', () => {
  it('agrees with the schema on 20,000 events broken or bent in one to three ways', () => {
    const next = random(24);
    let accepted = 0;
    const disagreements: { event: Json; schema: boolean; quick: boolean }[] = [];
    for (let i = 0; i < 20_000; i++) {
      const event = validEvent();
      const changes = 1 + Math.floor(next() * 3);
      for (let c = 0; c < changes; c++) mutate(event, next);
      const schema = webhookEventSchema.safeParse(event).success;
      const quick = quickWebhookEvent(event) !== undefined;
      if (schema) accepted += 1;
      if (schema !== quick && disagreements.length < 5) disagreements.push({ event, schema, quick });
    }
    expect(disagreements).toEqual([]);
    // Both sides are exercised: enough cases pass and enough fail for the agreement to mean something.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('returns the event itself, unknown keys kept, as the loose schema keeps them', () => {
    const event = { ...validEvent(), note: 'kept' };
    expect(quickWebhookEvent(event)).toBe(event);
    expect(webhookEventSchema.parse(event)).toEqual(event);
  });

  it('refuses what is not a plain object, as the schema does', () => {
    for (const value of [null, 5, 'EVT-000123', [validEvent()]]) {
      expect(quickWebhookEvent(value)).toBeUndefined();
      expect(webhookEventSchema.safeParse(value).success).toBe(false);
    }
    // Stricter than the schema in one place only (JSON.parse never makes one): an object with a
    // prototype of its own goes to the schema, which decides.
    expect(quickWebhookEvent(Object.create(validEvent()) as unknown)).toBeUndefined();
  });

  it('types other than order.status.changed need no order or status', () => {
    expect(quickWebhookEvent({ eventId: 'EVT-000001', eventType: 'request.created', eventDate: '2026-06-12T10:15:00Z' })).toBeDefined();
    expect(
      quickWebhookEvent({ eventId: 'EVT-000001', eventType: 'order.status.changed', eventDate: '2026-06-12T10:15:00Z', orderId: 'ORD-1' }),
    ).toBeUndefined();
  });
});
