/**
 * `parseNumber`, fuzzed: numbers written the ways ERPs write them read back to the number; a comma
 * or dot that does not stand between groups of three digits is refused; junk is refused, and
 * nothing throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumber } from '../../src/mapping/parse-number.js';

const NUM_RUNS = 1000;

/** What an export puts between thousands, besides nothing at all. */
const SPACE_SEPARATORS = [' ', '\u00a0', '\u2009', '\u202f', '\u2007', "'"] as const;

/** A number as digits: its sign, its whole part and up to 3 fraction digits (kept with trailing zeros, as `1 234,50`). */
const decimal = fc.record({
  negative: fc.boolean(),
  plus: fc.boolean(),
  whole: fc.oneof(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999_999_999_999 })),
  places: fc.integer({ min: 0, max: 3 }),
  fraction: fc.integer({ min: 0, max: 999 }),
});
type Decimal = typeof decimal extends fc.Arbitrary<infer T> ? T : never;

/** The value `d` stands for. Both it and `Number` of the written digits are the double nearest the exact decimal, so they are equal. */
function valueOf(d: Decimal): number {
  const scale = 10 ** d.places;
  const units = d.whole * scale + (d.fraction % scale);
  return (d.negative ? -1 : 1) * (units / scale);
}

/** `1234567` → `1<sep>234<sep>567`. */
function group(whole: number, separator: string): string {
  return String(whole).replace(/\B(?=(\d{3})+$)/g, separator);
}

function write(d: Decimal, thousands: string, point: string, pad: { before: string; after: string }): string {
  const sign = d.negative ? '-' : d.plus ? '+' : '';
  const fraction = d.places === 0 ? '' : point + String(d.fraction % 10 ** d.places).padStart(d.places, '0');
  return `${pad.before}${sign}${group(d.whole, thousands)}${fraction}${pad.after}`;
}

const padding = fc.record({ before: fc.constantFrom('', ' ', '\u00a0', '\t'), after: fc.constantFrom('', ' ', '\u00a0', '\t') });

describe('parseNumber: what ERPs write reads back', () => {
  it('decimal comma: spaces of every kind or none between thousands', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom('', ...SPACE_SEPARATORS), padding, (d, thousands, pad) => {
        expect(parseNumber(write(d, thousands, ',', pad), true)).toBe(valueOf(d));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('decimal comma with dots between thousands (`1.234,50`), the comma always written', () => {
    // Without a comma, `1.234` with decimalComma is read as 1.234 (1C writes a decimal point too):
    // the documented choice, so a dot-grouped value is written here with its comma, as ERPs do.
    fc.assert(
      fc.property(decimal, fc.integer({ min: 1, max: 3 }), padding, (d0, places, pad) => {
        const d = { ...d0, places };
        expect(parseNumber(write(d, '.', ',', pad), true)).toBe(valueOf(d));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('decimal comma set, but the value written with a decimal point and spaces (1C writes both)', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom('', ...SPACE_SEPARATORS), padding, (d, thousands, pad) => {
        expect(parseNumber(write(d, thousands, '.', pad), true)).toBe(valueOf(d));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('decimal point: commas, spaces of every kind or nothing between thousands', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom('', ',', ...SPACE_SEPARATORS), padding, (d, thousands, pad) => {
        expect(parseNumber(write(d, thousands, '.', pad), false)).toBe(valueOf(d));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

/** A run of `min` to `max` digits, leading zeros included. */
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
/** Groups after a separator of which at least one is not three digits long. */
const misplacedGroups = fc
  .array(fc.oneof(digits(3, 3), digits(1, 2), digits(4, 6)), { minLength: 1, maxLength: 4 })
  .filter((groups) => groups.some((g) => g.length !== 3));

describe('parseNumber: a misplaced separator is refused, never read away', () => {
  it('without decimalComma, a comma outside groups of three (`1,5`, `12,34,567`) is not a number', () => {
    fc.assert(
      fc.property(fc.constantFrom('', '-', '+'), digits(1, 3), misplacedGroups, fc.option(digits(0, 3)), (sign, lead, groups, fraction) => {
        const text = `${sign}${lead},${groups.join(',')}${fraction === null ? '' : `.${fraction}`}`;
        expect(parseNumber(text, false)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('without decimalComma, a lead group of more than three digits before a comma (`1234,567`) is not a number', () => {
    fc.assert(
      fc.property(digits(4, 8), fc.array(digits(3, 3), { minLength: 1, maxLength: 3 }), (lead, groups) => {
        expect(parseNumber(`${lead},${groups.join(',')}`, false)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('with decimalComma, dots outside groups of three before the comma (`1.23,5`) are not a number', () => {
    fc.assert(
      fc.property(fc.constantFrom('', '-', '+'), digits(1, 3), misplacedGroups, digits(0, 3), (sign, lead, groups, fraction) => {
        expect(parseNumber(`${sign}${lead}.${groups.join('.')},${fraction}`, true)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('with decimalComma, two commas (`1,234,5`) or a dot after the comma (`1,5.0`) are not a number', () => {
    fc.assert(
      fc.property(digits(1, 6), digits(1, 3), digits(1, 3), fc.constantFrom(',', '.'), (a, b, c, second) => {
        expect(parseNumber(`${a},${b}${second}${c}`, true)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

/** Characters that are never part of a number: letters (an exponent's `e` too), units, currency, other scripts' digits. */
const JUNK = ['e', 'E', 'x', 'a', 'к', 'г', '%', '$', '€', '₽', '/', '*', '#', '_', '(', ')', '٣', '１', '−', '\u0000', 'Infinity', 'NaN', '0x'];

describe('parseNumber: junk', () => {
  it('a valid number with junk inserted anywhere is refused', () => {
    fc.assert(
      fc.property(decimal, fc.boolean(), fc.constantFrom(...JUNK), fc.nat(), (d, decimalComma, junk, at) => {
        const text = write(d, decimalComma ? ' ' : ',', decimalComma ? ',' : '.', { before: '', after: '' });
        const cut = at % (text.length + 1);
        expect(parseNumber(text.slice(0, cut) + junk + text.slice(cut), decimalComma)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('arbitrary text never throws, and gives a finite number or undefined', () => {
    const numberish = fc.string({ unit: fc.constantFrom('0', '1', '9', ' ', '\u00a0', "'", ',', '.', '-', '+', 'e', 'x') });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), numberish), fc.boolean(), (text, decimalComma) => {
        const value = parseNumber(text, decimalComma);
        expect(value === undefined || Number.isFinite(value)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('text without a digit is never a number', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((text) => !/[0-9]/.test(text)),
        fc.boolean(),
        (text, decimalComma) => {
          expect(parseNumber(text, decimalComma)).toBeUndefined();
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
