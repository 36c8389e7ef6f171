/**
 * `compileDateParser`, fuzzed over the formats a mapping may name (`checkDateFormat`): real days
 * written in a format read back as that day in ISO form, with or without a trailing time; days the
 * calendar does not have are refused; nothing throws, and whatever is returned is a real day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDateFormat } from '../../src/config/date-format.js';
import { compileDateParser } from '../../src/mapping/parse-date.js';

const NUM_RUNS = 1000;

type Token = 'DD' | 'MM' | 'YYYY' | 'YY';

/**
 * Literals between and around the tokens: none of them holds a digit or a letter of a token.
 * Outer literals are mostly empty, as in real formats.
 */
const INNER = ['', '.', '-', '/', ' ', '. ', '_', ',', ' г. '] as const;
const OUTER = ['', '', '', ' ', '(', ')', 'г.', ' г.', '[', '*', '+', '?', '$', '^', '\\'] as const;

/** The one format whose values look like ISO dates: the format reads them, not the ISO shortcut. */
const ISO_LOOKALIKE = 'YYYY-DD-MM';

interface DateFormat {
  format: string;
  order: Token[];
  inner: [string, string];
}

const dateFormat: fc.Arbitrary<DateFormat> = fc
  .record({
    year: fc.constantFrom<Token>('YYYY', 'YY'),
    order: fc.constantFrom([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]),
    before: fc.constantFrom(...OUTER),
    inner: fc.tuple(fc.constantFrom(...INNER), fc.constantFrom(...INNER)),
    after: fc.constantFrom(...OUTER),
  })
  .map(({ year, order, before, inner, after }) => {
    const tokens = order.map((i) => (['DD', 'MM', year] as Token[])[i]!);
    return { format: `${before}${tokens[0]}${inner[0]}${tokens[1]}${inner[1]}${tokens[2]}${after}`, order: tokens, inner };
  });

interface Day {
  year: number;
  month: number;
  day: number;
}

const MS_PER_DAY = 86_400_000;
/** A real day from `from` to `to` (years), by its distance from 1970-01-01. */
const realDay = (from: number, to: number): fc.Arbitrary<Day> =>
  fc.integer({ min: Date.UTC(from, 0, 1) / MS_PER_DAY, max: Date.UTC(to, 11, 31) / MS_PER_DAY }).map((n) => {
    const date = new Date(n * MS_PER_DAY);
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  });

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const iso = ({ year, month, day }: Day) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** `day` written in `format`; `padded: false` writes day and month without their leading zero. */
function write({ format }: DateFormat, { year, month, day }: Day, padded = true): string {
  const two = (n: number) => (padded ? pad(n) : String(n));
  return format.replace(/YYYY|YY|MM|DD/g, (token) =>
    token === 'YYYY' ? pad(year, 4) : token === 'YY' ? pad(year % 100) : token === 'MM' ? two(month) : two(day),
  );
}

/** A day in range of the format's year token: YY is 20YY. */
const dayFor = (f: DateFormat) => (f.order.includes('YY') ? realDay(2000, 2099) : realDay(1900, 2099));

/** A time of day as 1C (` 0:00:00`) or a sheet (`T10:00:00`, ` 14:30`) appends it. */
const timeOfDay = fc
  .record({
    separator: fc.constantFrom(' ', 'T'),
    hour: fc.integer({ min: 0, max: 23 }),
    padHour: fc.boolean(),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.option(fc.integer({ min: 0, max: 59 })),
  })
  .map(({ separator, hour, padHour, minute, second }) => `${separator}${padHour ? pad(hour) : hour}:${pad(minute)}${second === null ? '' : `:${pad(second)}`}`);

/** An independent check of a `YYYY-MM-DD` day: month lengths by the Gregorian rule. */
function isRealDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return length !== undefined && day >= 1 && day <= length;
}

describe('compileDateParser: formats the config accepts', () => {
  it('every generated format is one checkDateFormat accepts', () => {
    fc.assert(
      fc.property(dateFormat, (f) => {
        expect(checkDateFormat(f.format)).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a real day written in the format reads back as that day (YY is 20YY)', () => {
    fc.assert(
      fc.property(
        dateFormat.chain((f) => fc.tuple(fc.constant(f), dayFor(f))),
        ([f, day]) => {
          expect(compileDateParser(f.format)(write(f, day))).toBe(iso(day));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a trailing time of day is ignored', () => {
    fc.assert(
      fc.property(
        dateFormat.chain((f) => fc.tuple(fc.constant(f), dayFor(f), timeOfDay)),
        ([f, day, time]) => {
          expect(compileDateParser(f.format)(write(f, day) + time)).toBe(iso(day));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('day and month without their leading zero read the same, where a separator stands between the tokens', () => {
    fc.assert(
      fc.property(
        dateFormat.filter((f) => f.inner[0] !== '' && f.inner[1] !== '').chain((f) => fc.tuple(fc.constant(f), dayFor(f))),
        ([f, day]) => {
          expect(compileDateParser(f.format)(write(f, day, false))).toBe(iso(day));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a day the calendar does not have (31.02, 29.02 of a common year, month 13, day 0) is refused', () => {
    const notADay = fc.oneof(
      // Past the month's end: 29 to 31, whichever the month lacks.
      fc
        .record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 29, max: 31 }) })
        .filter((d) => !isRealDay(iso(d))),
      fc.record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.constantFrom(0, 13, 19, 20, 31, 99), day: fc.integer({ min: 1, max: 28 }) }),
      fc.record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.constantFrom(0, 32, 40, 99) }),
    );
    fc.assert(
      fc.property(dateFormat, notADay, fc.option(timeOfDay), (f, day, time) => {
        expect(compileDateParser(f.format)(write(f, day) + (time ?? ''))).toBeUndefined();
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('an ISO day passes whatever the format, unless the format reads it itself', () => {
    fc.assert(
      fc.property(
        dateFormat.filter(({ format }) => format !== ISO_LOOKALIKE),
        realDay(1900, 2099),
        fc.option(timeOfDay),
        (f, day, time) => {
          expect(compileDateParser(f.format)(iso(day) + (time ?? ''))).toBe(iso(day));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('compileDateParser: a format whose values look like ISO dates (found by the properties above)', () => {
  it('YYYY-DD-MM reads its own values, not ISO ones: 2027-03-12 is 3 December, 2027-13-12 is 13 December', () => {
    const parse = compileDateParser(ISO_LOOKALIKE);
    expect(parse('2027-03-12')).toBe('2027-12-03');
    expect(parse('2027-13-12')).toBe('2027-12-13');
    expect(parse('2027-12-13')).toBeUndefined();
  });
});

describe('compileDateParser: arbitrary input', () => {
  /** Text made mostly of what dates are made of, so that the matcher is exercised past its first character. */
  const datish = fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '9', '.', '-', '/', ' ', 'T', ':', 'г', 'Z', '+'), maxLength: 30 });

  it('never throws on any text, and returns undefined or a real day', () => {
    fc.assert(
      fc.property(dateFormat, fc.oneof(fc.string({ unit: 'binary' }), datish), (f, text) => {
        const parsed = compileDateParser(f.format)(text);
        expect(parsed === undefined || isRealDay(parsed)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never throws on any format, even one the config refuses, nor on what it is given', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'binary' }), { nil: undefined }), fc.oneof(fc.string({ unit: 'binary' }), datish), (format, text) => {
        const parsed = compileDateParser(format)(text);
        expect(parsed === undefined || isRealDay(parsed)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
