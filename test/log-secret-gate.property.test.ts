/**
 * `mayCarrySecret`: the one test of a value's JSON text that lets a classification skip
 * `scrubDeep`. Its promise: where it answers false, `scrubDeep` changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayCarrySecret, registerSecret, scrubDeep } from '../src/log.js';

const SECRETS = ['gate-SECRET-77', 'кл "ю\\ч\n', 'a+b/c d'];

/** Strings built from pieces of the secrets, a token path, and the characters JSON escapes. */
const piece = fc.constantFrom(
  ...SECRETS,
  ...SECRETS.map((s) => s.slice(0, 4)),
  ...SECRETS.map(encodeURIComponent),
  '/api/v1/',
  '/api/v1',
  'api/v1/',
  '"',
  '\\',
  '\n',
  '?',
  '#',
  ' ',
  '/',
  'x',
  'Ж',
  '\u2028',
);
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')),
);
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(text, tie('node'), { maxKeys: 4 })),
})).node;

describe('mayCarrySecret', () => {
  for (const secret of SECRETS) registerSecret(secret);

  it('answers true for a token segment or a registered secret anywhere, in a key or escaped in a value', () => {
    expect(mayCarrySecret({ detail: 'No route for POST /api-gateway/api/v1/abc/requests' })).toBe(true);
    expect(mayCarrySecret({ errors: [{ path: 'x', message: `echo ${SECRETS[0]}` }] })).toBe(true);
    expect(mayCarrySecret({ [SECRETS[1]!]: 1 })).toBe(true);
    expect(mayCarrySecret([encodeURIComponent(SECRETS[2]!)])).toBe(true);
    expect(mayCarrySecret({ big: 1n })).toBe(true);
  });

  it('answers false for an ordinary answer', () => {
    expect(mayCarrySecret({ outcome: 'accepted', result: { id: 'REQ-1', status: 'accepted', externalId: 'ЗК-1' }, httpStatus: 201 })).toBe(false);
  });

  it('where it answers false, scrubDeep changes nothing', () => {
    fc.assert(
      fc.property(value, (v) => {
        if (!mayCarrySecret(v)) expect(scrubDeep(v)).toEqual(v);
      }),
      { numRuns: 3_000 },
    );
  });
});
