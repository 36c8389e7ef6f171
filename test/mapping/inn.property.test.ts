/**
 * The INN check digits, fuzzed against an implementation of the FNS rule written here on its own:
 * built INNs pass, every other digit in a check position fails, and `explainInn` says nothing
 * exactly when `isValidInn` holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainInn, isValidInn } from '../../src/mapping/inn.js';

const NUM_RUNS = 1000;

/**
 * The FNS weights of the 12-digit INN's last check digit; each shorter check uses the tail of the
 * same sequence (the 11th digit's the last ten, the 10-digit INN's the last nine).
 */
const WEIGHTS = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** The check digit over `digits`: weights aligned at the end, sum mod 11, mod 10. */
function check(digits: readonly number[]): number {
  const weights = WEIGHTS.slice(WEIGHTS.length - digits.length);
  return (digits.reduce((sum, digit, i) => sum + digit * weights[i]!, 0) % 11) % 10;
}

/** An INN from its body (9 digits for an organisation, 10 for a person), check digits appended. */
function withCheckDigits(body: readonly number[]): string {
  if (body.length === 9) return [...body, check(body)].join('');
  const eleven = [...body, check(body)];
  return [...eleven, check(eleven)].join('');
}

/** The positions that hold check digits. */
const checkPositions = (inn: string) => (inn.length === 10 ? [9] : [10, 11]);

/** Valid by the rule written here (any string). */
function validHere(text: string): boolean {
  if (!/^(\d{10}|\d{12})$/.test(text)) return false;
  const digits = Array.from(text, Number);
  return withCheckDigits(digits.slice(0, text.length === 10 ? 9 : 10)) === text;
}

const digit = fc.integer({ min: 0, max: 9 });
const validInn = fc.oneof(fc.array(digit, { minLength: 9, maxLength: 9 }), fc.array(digit, { minLength: 10, maxLength: 10 })).map(withCheckDigits);

describe('INN check digits', () => {
  it('the rule here agrees with known INNs (so that it is the FNS rule, not a copy of a mistake)', () => {
    // Sberbank's, and the 12-digit examples the other INN tests use.
    for (const inn of ['7707083893', '500100732259', '123456789047']) expect(validHere(inn)).toBe(true);
    for (const inn of ['7707083894', '500100732258', '500100732269']) expect(validHere(inn)).toBe(false);
  });

  it('an INN with its check digits computed is valid, and explainInn has nothing to say', () => {
    fc.assert(
      fc.property(validInn, (inn) => {
        expect(isValidInn(inn)).toBe(true);
        expect(explainInn(inn)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('every other digit in a check position is refused, as fails the INN check digit', () => {
    fc.assert(
      fc.property(validInn, fc.nat(), (inn, pick) => {
        const positions = checkPositions(inn);
        const at = positions[pick % positions.length]!;
        for (let replacement = 0; replacement <= 9; replacement += 1) {
          if (String(replacement) === inn[at]) continue;
          const changed = inn.slice(0, at) + String(replacement) + inn.slice(at + 1);
          expect(isValidInn(changed)).toBe(false);
          expect(explainInn(changed)).toMatchObject({ reason: 'fails the INN check digit', text: { key: 'innCheck' } });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('any 10 or 12 digits are valid exactly when the rule here says so', () => {
    const digitsOf = (n: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: n, maxLength: n });
    fc.assert(
      fc.property(fc.oneof(digitsOf(10), digitsOf(12)), (inn) => {
        expect(isValidInn(inn)).toBe(validHere(inn));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('explainInn and isValidInn agree on any text', () => {
  /** Near misses: digits of every length, valid INNs with a space, a letter or a line break added. */
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom('0', '1', '5', '7', '9'), maxLength: 14 }),
    fc.tuple(validInn, fc.constantFrom(' ', '\n', 'a', '٣', '-', '+'), fc.boolean()).map(([inn, extra, front]) => (front ? extra + inn : inn + extra)),
    fc.string({ unit: 'binary' }),
  );

  it('explainInn is undefined exactly when isValidInn, and never throws', () => {
    fc.assert(
      fc.property(text, (inn) => {
        const why = explainInn(inn);
        expect(why === undefined).toBe(isValidInn(inn));
        expect(isValidInn(inn)).toBe(validHere(inn));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the reason names what is wrong first: digits only, then the length, then the check', () => {
    fc.assert(
      fc.property(text, (inn) => {
        const key = explainInn(inn)?.text.key;
        if (!/^\d+$/.test(inn)) expect(key).toBe('innDigits');
        else if (inn.length !== 10 && inn.length !== 12)
          expect(explainInn(inn)).toEqual({ reason: `must be 10 or 12 digits (has ${inn.length})`, text: { key: 'innLength', params: { n: inn.length } } });
        else expect(key).toBe(validHere(inn) ? undefined : 'innCheck');
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
