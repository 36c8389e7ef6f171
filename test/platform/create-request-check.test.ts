/**
 * `isCreateRequest` must say what `createRequestSchema` says. Every case below is a valid request
 * broken (or bent and still valid) in one to three ways, from a pool of values at and around each
 * rule of the schema; both must agree on every one. A quick check that said yes where the schema
 * says no would send a request the contract refuses; one that said no where it says yes would only
 * cost speed, and is counted too, so that the quick path keeps covering the requests it is for.
 */
import { describe, expect, it } from 'vitest';
import { createRequestSchema, FIELD_LIMITS } from '../../src/platform/contract.js';
import { isCreateRequest } from '../../src/platform/create-request-check.js';
import { validRequest } from '../helpers/fixtures.js';

type Json = Record<string, unknown>;
type Mutation = (request: Json) => void;

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

/** Strings at a length limit and one past it, in ASCII and in emoji (zod counts code points: a pair is one). */
function atTheLimit(max: number): string[] {
  return ['x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), '😀'.repeat(max + 1)];
}

/** Strings at and around the text rules: control characters anywhere, trimming, lengths. */
function textValues(max: number): unknown[] {
  return [
    ...NOT_STRINGS,
    ...atTheLimit(max),
    '',
    ' ',
    '\u00a0',
    '\ufeff',
    'a',
    ' a ',
    '\u00a0a\u2028',
    '\ta',
    'a\t',
    'a\nb',
    '\r\n',
    'a\u0000',
    'a\u007f',
    'a\u0085',
    'a\u202e',
    '\u2066a',
    'Болт М8',
    ` ${'x'.repeat(max)} `,
    `${'x'.repeat(max)}\t`,
    ` ${'x'.repeat(max - 1)}`,
    // a lone surrogate counts as one code point
    `${'😀'.repeat(max - 1)}\ud800`,
    '\udc00',
  ];
}

const COMMENTS = [...NOT_STRINGS, ...atTheLimit(FIELD_LIMITS.comment), '', ' ', 'a\tb', 'a\r\nb', 'a\u0000', 'a\u000b', 'a\u202a'];
const PHONES = [...NOT_STRINGS, ...atTheLimit(FIELD_LIMITS.shortText), '', ' ', '+7 495', '+7\n495'];
const EMAILS = [
  ...NOT_STRINGS,
  '',
  'a@b.ru',
  'a@b',
  'a@b.c',
  '.a@b.ru',
  'a..b@c.ru',
  'a.b@c.ru',
  "o'brien+tag@mail-1.example.com",
  'a@-b.ru',
  ' a@b.ru',
  'a@b.ru\n',
  'ivan@пример.рф',
  `${'x'.repeat(FIELD_LIMITS.shortText - 5)}@b.ru`,
  `${'x'.repeat(FIELD_LIMITS.shortText - 4)}@b.ru`,
];
const INNS = [
  ...NOT_STRINGS,
  '',
  '7707083893',
  '770708389',
  '77070838931',
  '770708389312',
  '7707083893123',
  '77070838A3',
  ' 7707083893',
  '７７０７０８３８９３',
  '7707083893\n',
];
const DATES = [
  ...NOT_STRINGS,
  '',
  '2030-03-01',
  '2030-02-30',
  '2028-02-29',
  '2027-02-29',
  '2030-3-1',
  ' 2030-03-01',
  '2030-03-01T00:00:00Z',
  '30.03.2030',
  '0000-01-01',
];
const QUANTITIES = [
  undefined,
  null,
  '5',
  true,
  0,
  -0,
  -1,
  0.5,
  1e-9,
  Number.MIN_VALUE,
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  7,
];
const NOT_OBJECTS = [undefined, null, 'x', 5, [], [{}]];

const at = (request: Json, path: string): Json => path.split('.').reduce<Json>((node, key) => node[key] as Json, request);
const items = (request: Json) => request.items as Json[];
const lastItem = (request: Json): Json => items(request).at(-1)!;

/** Every single-step change the cases are made of; `pick` gives a copy of one of its values, `choose` one of them itself. */
function mutations(pick: <T>(values: readonly T[]) => T, choose: <T>(values: readonly T[]) => T): Mutation[] {
  const setText =
    (path: string, key: string, max: number): Mutation =>
    (r) =>
      void (at(r, path)[key] = pick(textValues(max)));
  const setItem =
    (key: string, values: () => unknown[]): Mutation =>
    (r) =>
      void (lastItem(r)[key] = pick(values()));
  return [
    (r) => void (r.externalId = pick(textValues(FIELD_LIMITS.externalId))),
    setText('customer', 'name', FIELD_LIMITS.name),
    setText('contact', 'name', FIELD_LIMITS.name),
    setText('delivery', 'city', FIELD_LIMITS.shortText),
    setText('delivery', 'address', FIELD_LIMITS.address),
    setItem('lineId', () => textValues(FIELD_LIMITS.shortText)),
    setItem('name', () => textValues(FIELD_LIMITS.name)),
    setItem('unit', () => textValues(FIELD_LIMITS.shortText)),
    setItem('comment', () => COMMENTS),
    setItem('quantity', () => QUANTITIES),
    (r) => void (r.comment = pick(COMMENTS)),
    (r) => void (at(r, 'contact').phone = pick(PHONES)),
    (r) => void (at(r, 'contact').email = pick(EMAILS)),
    (r) => void delete at(r, 'contact').phone,
    (r) => void delete at(r, 'contact').email,
    (r) => void (at(r, 'customer').inn = pick(INNS)),
    (r) => void (at(r, 'delivery').desiredDate = pick(DATES)),
    // shapes: unknown keys (also holding undefined), missing keys, wrong types, other prototypes
    (r) =>
      void (choose([r, at(r, 'customer'), at(r, 'contact'), at(r, 'delivery'), lastItem(r)])[pick(['extra', 'Items', '__proto__x'])] = pick([
        undefined,
        1,
        'x',
      ])),
    (r) =>
      void delete choose([r, at(r, 'customer'), at(r, 'contact'), at(r, 'delivery'), lastItem(r)])[
        pick(['externalId', 'inn', 'name', 'city', 'address', 'desiredDate', 'lineId', 'quantity', 'unit', 'items'])
      ],
    (r) => void (r[pick(['customer', 'contact', 'delivery', 'items'])] = pick(NOT_OBJECTS)),
    (r) => void (items(r)[items(r).length - 1] = pick(NOT_OBJECTS) as unknown as Json),
    (r) => void (r.customer = Object.assign(Object.create(null) as Json, at(r, 'customer'))),
    // lines: none, at and past the limit, duplicates as the schema compares them (trimmed)
    (r) => void (r.items = []),
    (r) =>
      void (r.items = Array.from({ length: pick([FIELD_LIMITS.maxItems, FIELD_LIMITS.maxItems + 1]) }, (_, i) => ({
        lineId: String(i + 1),
        name: 'Болт',
        quantity: 1,
        unit: 'шт',
      }))),
    (r) => void items(r).push({ ...lastItem(r), lineId: pick(['1', ' 1', '1 ', '01', '2', '3']) }),
  ];
}

function schemaSays(request: unknown): boolean {
  return createRequestSchema.safeParse(request).success;
}

describe('isCreateRequest', () => {
  it('accepts the valid request, with and without its optional fields', () => {
    const full = validRequest();
    expect(isCreateRequest(full)).toBe(true);
    const bare = validRequest({ contact: { name: 'Иван', email: 'ivan@example.ru' }, items: [{ lineId: '1', name: 'Болт', quantity: 1, unit: 'шт' }] });
    delete (bare as Json).comment;
    expect(schemaSays(bare)).toBe(true);
    expect(isCreateRequest(bare)).toBe(true);
  });

  it('agrees with createRequestSchema on 30,000 valid and broken requests', () => {
    const next = random(20261122);
    const choose = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    // A copy of the value picked: later steps change what they reach, never the pools.
    const pick = <T>(values: readonly T[]): T => structuredClone(choose(values));
    const steps = mutations(pick, choose);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 30_000; i++) {
      const request = validRequest('ERP-1') as unknown as Json;
      const changes = 1 + Math.floor(next() * 3);
      try {
        for (let c = 0; c < changes; c++) choose(steps)(request);
      } catch {
        continue; // a step reached into a part an earlier step removed
      }
      const quick = isCreateRequest(request);
      const schema = schemaSays(request);
      if (schema) accepted += 1;
      if (quick !== schema && disagreements.length < 5) disagreements.push(`quick ${quick}, schema ${schema}: ${JSON.stringify(request).slice(0, 400)}`);
    }
    expect(disagreements).toEqual([]);
    // Both sides are exercised: the pools hold valid values too, so many cases stay valid.
    expect(accepted).toBeGreaterThan(3_000);
  });

  it('agrees on what JSON.parse and getters can make: an own __proto__ key, a sparse list, a field read twice', () => {
    const cases: unknown[] = [];
    cases.push(JSON.parse(JSON.stringify(validRequest('ERP-1')).replace('{"externalId"', '{"__proto__":{"x":1},"externalId"')));
    const sparse = validRequest('ERP-1') as unknown as Json;
    const lines = items(sparse);
    sparse.items = [, ...lines]; // eslint-disable-line no-sparse-arrays
    cases.push(sparse);
    // A phone that is empty the first time it is read and set after: zod reads it once.
    const shifty = validRequest('ERP-1') as unknown as Json;
    let reads = 0;
    shifty.contact = {
      name: 'Иван',
      get phone() {
        return reads++ === 0 ? '' : '+7 495';
      },
    };
    cases.push(shifty);
    cases.forEach((request, index) => {
      reads = 0;
      const quick = isCreateRequest(request);
      reads = 0;
      expect(quick, `case ${index}`).toBe(schemaSays(request));
    });
    // Read once, the phone is empty: no phone, no e-mail.
    reads = 0;
    expect(isCreateRequest(cases[2])).toBe(false);
  });

  it('counts an inherited enumerable key as unknown, as zod does (a polluted Object.prototype)', () => {
    const request = validRequest('ERP-1');
    const prototype = Object.prototype as Record<string, unknown>;
    try {
      prototype.polluted = 1;
      expect(schemaSays(request)).toBe(false);
      expect(isCreateRequest(request)).toBe(false);
    } finally {
      delete prototype.polluted;
    }
    expect(isCreateRequest(request)).toBe(true);
  });

  it('sends anything but a plain object to the schema (stricter, never looser)', () => {
    class Custom {
      externalId = 'ERP-1';
    }
    expect(isCreateRequest(new Custom())).toBe(false);
    expect(isCreateRequest(null)).toBe(false);
    expect(isCreateRequest([validRequest()])).toBe(false);
    const withDateCustomer = { ...validRequest(), customer: Object.assign(new Date(0), { inn: '7707083893', name: 'ООО' }) };
    expect(isCreateRequest(withDateCustomer)).toBe(false);
  });
});
