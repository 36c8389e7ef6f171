/**
 * A date cell's serial as text, fuzzed against `Date` arithmetic written here: every whole day of
 * both date systems (1900 with Lotus's phantom 29 February at serial 60, and 1904), times of day
 * rounded to the second, elapsed times past 24 hours, and any number at all without a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_KIND, type DateKind } from '../../../../src/mapping/readers/xlsx/number-formats.js';
import { isoCellToText, serialToText } from '../../../../src/mapping/readers/xlsx/serial-date.js';

const NUM_RUNS = 1000;

const MS_PER_DAY = 86_400_000;
/** 9999-12-31 in the 1900 system, and the same day in the 1904 system (1462 days fewer). */
const LAST_1900 = (Date.UTC(9999, 11, 31) - Date.UTC(1899, 11, 30)) / MS_PER_DAY;
const LAST_1904 = LAST_1900 - 1462;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');
const clock = (second: number) => `${pad(Math.floor(second / 3600))}:${pad(Math.floor((second % 3600) / 60))}:${pad(second % 60)}`;

/**
 * The day a 1900-system serial names, by `Date`: from serial 61 on, days since 1899-12-30; before
 * the phantom leap day, one day later than that count (serial 1 is 1900-01-01).
 */
function day1900(serial: number): string {
  if (serial === 60) return '1900-02-29';
  return isoDay(Date.UTC(1899, 11, serial < 60 ? 31 : 30) + serial * MS_PER_DAY);
}
const day1904 = (serial: number) => isoDay(Date.UTC(1904, 0, 1) + serial * MS_PER_DAY);

/** Serials are drawn near the edges often: the first days, the phantom leap day, the last day. */
const serial1900 = fc.oneof(fc.integer({ min: 1, max: LAST_1900 }), fc.constantFrom(1, 59, 60, 61, 1462, LAST_1900));
const serial1904 = fc.oneof(fc.integer({ min: 0, max: LAST_1904 }), fc.constantFrom(0, 1, 59, 60, LAST_1904));
const secondOfDay = fc.oneof(fc.integer({ min: 0, max: 86_399 }), fc.constantFrom(0, 1, 43_200, 86_399));

describe('serialToText: whole days', () => {
  it('1900 system: serial n is the day Date counts, 60 the phantom 1900-02-29', () => {
    fc.assert(
      fc.property(serial1900, (n) => {
        expect(serialToText(n, DATE_KIND.date, false)).toBe(day1900(n));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('1904 system: serial n is n days after 1904-01-01', () => {
    fc.assert(
      fc.property(serial1904, (n) => {
        expect(serialToText(n, DATE_KIND.date, true)).toBe(day1904(n));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the two systems name the same day 1462 serials apart, time of day included', () => {
    fc.assert(
      fc.property(serial1904, secondOfDay, (n, second) => {
        const fraction = second / 86_400;
        expect(serialToText(n + fraction, DATE_KIND.date, true)).toBe(serialToText(n + 1462 + fraction, DATE_KIND.date, false));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('serialToText: times', () => {
  it('a day with a time of day: the day, then the time to the second (none at midnight)', () => {
    fc.assert(
      fc.property(serial1900, secondOfDay, fc.boolean(), (n, second, date1904) => {
        const serial = (date1904 ? n - 1462 : n) + second / 86_400;
        fc.pre(serial >= 0);
        const time = second === 0 ? '' : ` ${clock(second)}`;
        expect(serialToText(serial, DATE_KIND.date, date1904)).toBe(day1900(n) + time);
        expect(serialToText(serial, DATE_KIND.time, date1904)).toBe(clock(second));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a float a hair short of a second (as a sheet stores it) rounds to that second, and across midnight to the next day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 61, max: LAST_1900 - 1 }), fc.integer({ min: 1, max: 86_400 }), (n, second) => {
        const serial = n + second / 86_400 - 1e-9;
        const day = second === 86_400 ? day1900(n + 1) : day1900(n);
        const time = second === 86_400 ? '' : ` ${clock(second)}`;
        expect(serialToText(serial, DATE_KIND.date, false)).toBe(day + time);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('elapsed time counts hours past 24', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 * 3600 }), (seconds) => {
        const text = serialToText(seconds / 86_400, DATE_KIND.elapsed, false) as string;
        const [hours, minutes, secs] = text.split(':').map(Number);
        expect(text).toMatch(/^\d{2,}:\d{2}:\d{2}$/);
        expect(hours! * 3600 + minutes! * 60 + secs!).toBe(seconds);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('serialToText: out of range, and any number', () => {
  const kind = fc.constantFrom<DateKind>(DATE_KIND.date, DATE_KIND.time, DATE_KIND.elapsed);

  it('a day before the first (1900: day 0) or after 9999-12-31 stays the number', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 0, max: 0.5 - 1e-6, noNaN: true }),
          fc.double({ min: LAST_1900 + 1, max: 1e12, noNaN: true }),
          fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
        ),
        (serial) => {
          expect(serialToText(serial, DATE_KIND.date, false)).toBe(serial);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('never throws: a number stays itself, or becomes the text of a day (with its time)', () => {
    fc.assert(
      fc.property(fc.double(), fc.boolean(), (serial, date1904) => {
        const text = serialToText(serial, DATE_KIND.date, date1904);
        if (typeof text === 'number') expect(text).toBe(serial);
        else expect(text).toMatch(/^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2})?$/);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never throws for any kind, a text is always a day or a time, and a time of day is HH:MM:SS for every serial up to 9999-12-31', () => {
    fc.assert(
      fc.property(fc.double(), kind, fc.boolean(), (serial, k, date1904) => {
        const text = serialToText(serial, k, date1904);
        expect(typeof text === 'string' || Object.is(text, serial)).toBe(true);
        if (typeof text === 'string') expect(text).toMatch(/^(?:\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2})?|\d{2,}:\d{2}:\d{2})$/);
        if (k === DATE_KIND.time && serial >= 0 && serial <= LAST_1900) expect(text).toMatch(/^\d{2}:\d{2}:\d{2}$/);
        if (k === DATE_KIND.elapsed && serial >= 0 && serial <= LAST_1900) expect(text).toMatch(/^\d{2,}:\d{2}:\d{2}$/);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a serial too large to count in seconds stays a number under a time or elapsed format (2e303 gave NaN:NaN:NaN)', () => {
    expect(serialToText(2e303, DATE_KIND.time, false)).toBe(2e303);
    expect(serialToText(2e303, DATE_KIND.elapsed, false)).toBe(2e303);
  });
});

describe('isoCellToText: a t="d" cell reads as the serial of the same moment would', () => {
  it('an ISO date-time, with or without a zone, gives the same text as its serial', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 61, max: LAST_1900 - 1 }),
        secondOfDay,
        fc.constantFrom('', 'Z', '+03:00', '-05:30'),
        fc.constantFrom('T', ' '),
        (n, second, zone, separator) => {
          const iso = `${day1900(n)}${separator}${clock(second)}${zone}`;
          expect(isoCellToText(iso, DATE_KIND.date)).toBe(serialToText(n + second / 86_400, DATE_KIND.date, false));
          expect(isoCellToText(iso, DATE_KIND.time)).toBe(clock(second));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('never throws on any text: not ISO text is returned as it is', () => {
    const isoish = fc.string({ unit: fc.constantFrom('2', '0', '9', '-', ':', 'T', ' ', 'Z', '+', '.'), maxLength: 30 });
    fc.assert(
      fc.property(fc.oneof(isoish, fc.string({ unit: 'binary' })), fc.constantFrom<DateKind>(DATE_KIND.date, DATE_KIND.time), (text, k) => {
        const out = isoCellToText(text, k);
        expect(typeof out).toBe('string');
        if (!/^[\d\-:T .Z+]*$/.test(text)) expect(out).toBe(text);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
