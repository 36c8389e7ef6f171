import { describe, expect, it } from 'vitest';
import { canonicalJson, hashCanonicalJson } from '../../src/sandbox/canonical-hash.js';
import { IdempotencyStore } from '../../src/sandbox/idempotency-store.js';
import { isJsonContentType } from '../../src/sandbox/request-body.js';

describe('canonical JSON hash', () => {
  it('ignores key order at every depth but not array order or values', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(hashCanonicalJson({ a: 1, b: 2 })).toBe(hashCanonicalJson({ b: 2, a: 1 }));
    expect(hashCanonicalJson([1, 2])).not.toBe(hashCanonicalJson([2, 1]));
    expect(hashCanonicalJson({ a: 1 })).not.toBe(hashCanonicalJson({ a: '1' }));
  });
});

describe('content type check', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON; charset="UTF-8"', true],
    ['application/json; charset=windows-1251', false],
    ['application/problem+json', false],
    ['text/plain', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});

describe('IdempotencyStore', () => {
  const fp = { path: '/p', bodyHash: 'h' };
  const answer = (status: number) => ({ status, headers: {}, body: String(status) });

  it('claims, answers in progress, stores a 4xx and replays it', () => {
    const store = new IdempotencyStore(1_000, () => 0);
    expect(store.begin('t', 'k', fp)).toEqual({ kind: 'acquired' });
    expect(store.begin('t', 'k', fp)).toEqual({ kind: 'in-progress' });
    store.complete('t', 'k', answer(422));
    expect(store.begin('t', 'k', fp)).toEqual({ kind: 'replay', response: answer(422) });
    expect(store.begin('t', 'k', { ...fp, bodyHash: 'other' })).toEqual({ kind: 'mismatch', what: 'body' });
    expect(store.begin('t', 'k', { ...fp, path: '/q' })).toEqual({ kind: 'mismatch', what: 'path' });
    expect(store.begin('other-token', 'k', fp)).toEqual({ kind: 'acquired' });
  });

  it('does not store a 5xx answer: the key is free again', () => {
    const store = new IdempotencyStore(1_000, () => 0);
    store.begin('t', 'k', fp);
    store.complete('t', 'k', answer(503));
    expect(store.begin('t', 'k', fp)).toEqual({ kind: 'acquired' });
  });

  it('expires an answer ttlMs after it was stored, and purges it', () => {
    let now = 0;
    const store = new IdempotencyStore(1_000, () => now);
    store.begin('t', 'k', fp);
    now = 500;
    store.complete('t', 'k', answer(201));
    now = 1_499;
    expect(store.begin('t', 'k', fp).kind).toBe('replay');
    now = 1_500;
    store.purgeExpired();
    expect(store.size).toBe(0);
  });
});
