/**
 * The export's date cells, fuzzed: a day (with the time its pattern shows) becomes a serial that
 * the workbook reader's `serialToText` turns back into that day and time, in the 1900 system the
 * writer uses and, shifted by 1462 days, in the 1904 system; the serial is the day count `Date`
 * gives; days before 1 March 1900 and after 9999 stay text; and every number format the writer
 * makes is one the reader takes for a date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excelDateFormat, excelSerial } from '../../src/export/excel-date.js';
import { dateParts, formatDate } from '../../src/export/format-value.js';
import { DATE_KIND, formatCodeDateKind } from '../../src/mapping/readers/xlsx/number-formats.js';
import { serialToText } from '../../src/mapping/readers/xlsx/serial-date.js';

const NUM_RUNS = 1000;

const MS_PER_DAY = 86_400_000;
const FIRST = Date.UTC(1900, 2, 1);
const LAST = Date.UTC(9999, 11, 31);
const EPOCH = Date.UTC(1899, 11, 30);

/** An instant from 1 March 1900 to the last second of 9999, with the first and last days drawn often. */
const instant = fc.oneof(
  fc.integer({ min: FIRST / 1000, max: LAST / 1000 + 86_399 }).map((s) => s * 1000),
  fc.constantFrom(FIRST, FIRST + 86_399_000, LAST, LAST + 86_399_000, Date.UTC(2026, 5, 12, 7, 15, 30)),
);

/** Patterns a column may give, with what time of day each shows. */
const PATTERNS = [
  { pattern: 'DD.MM.YYYY', shows: 'none' },
  { pattern: 'YYYY-MM-DD', shows: 'none' },
  { pattern: 'MM/DD/YYYY', shows: 'none' },
  { pattern: 'YYYYMMDD', shows: 'none' },
  { pattern: 'DD.MM.YYYY HH:mm', shows: 'minutes' },
  { pattern: 'YYYY-MM-DDTHH:mm:ss', shows: 'seconds' },
  { pattern: 'DD.MM.YYYY HH:mm:ss', shows: 'seconds' },
  { pattern: 'HH:mm:ss. DD.MM.YYYY', shows: 'seconds' },
] as const;

/** What the reader shows for `ms` when the pattern shows `shows` of its time. */
function expectedText(ms: number, shows: 'none' | 'minutes' | 'seconds'): string {
  const iso = new Date(ms).toISOString();
  const time = shows === 'none' ? '00:00:00' : shows === 'minutes' ? `${iso.slice(11, 16)}:00` : iso.slice(11, 19);
  return time === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
}

describe('excelSerial, read back by the workbook reader', () => {
  it('a day is its count of days since 1899-12-30, and reads back as that day', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const day = Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
        const serial = excelSerial(dateParts(ms, 'UTC')!, 'DD.MM.YYYY');
        expect(serial).toBe((day - EPOCH) / MS_PER_DAY);
        expect(serialToText(serial!, DATE_KIND.date, false)).toBe(expectedText(ms, 'none'));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('with the time its pattern shows, to the second, in the 1900 system and (1462 days on) the 1904 one', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...PATTERNS), (ms, { pattern, shows }) => {
        const serial = excelSerial(dateParts(ms, 'UTC')!, pattern)!;
        expect(serialToText(serial, DATE_KIND.date, false)).toBe(expectedText(ms, shows));
        if (serial >= 1462) expect(serialToText(serial - 1462, DATE_KIND.date, true)).toBe(expectedText(ms, shows));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a bare date in any column zone is that day (a calendar day is never shifted)', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom('UTC', 'local', '+03:00', '-11:00', '+14:00'), (ms, zone) => {
        const day = new Date(ms).toISOString().slice(0, 10);
        const serial = excelSerial(dateParts(day, zone)!, 'DD.MM.YYYY HH:mm:ss')!;
        expect(serialToText(serial, DATE_KIND.date, false)).toBe(day);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a day before 1 March 1900 (which Excel counts wrongly) or after 9999 has no serial', () => {
    const outside = fc.oneof(
      fc.integer({ min: Date.parse('0001-01-01T00:00:00Z') / 1000, max: FIRST / 1000 - 1 }).map((s) => s * 1000),
      fc.integer({ min: LAST / 1000 + 86_400, max: 8.64e12 }).map((s) => s * 1000),
    );
    fc.assert(
      fc.property(outside, (ms) => {
        expect(excelSerial(dateParts(ms, 'UTC')!, 'YYYY-MM-DD HH:mm:ss')).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('excelDateFormat: what the writer makes, the reader takes for a date', () => {
  /** Literal characters that are no token of ours: a number format's own codes among them. */
  const LITERALS = [...'.-/ :,T', 'г', 'd', 'y', 'h', 'e', 'E', '"', '\\', '[', ']', ';', '_', '*', '@', '+', '0', '#', '?', '%', '$'];
  const literal = fc.string({ unit: fc.constantFrom(...LITERALS), maxLength: 3 });
  const dateOrder = fc.constantFrom(['DD', 'MM', 'YYYY'], ['YYYY', 'MM', 'DD'], ['MM', 'DD', 'YYYY']);
  const timePart = fc.constantFrom('', 'HH:mm', 'HH:mm:ss', 'HH.mm');
  const pattern = fc
    .record({ order: dateOrder, seps: fc.array(literal, { minLength: 4, maxLength: 4 }), time: timePart, timeFirst: fc.boolean() })
    .map(({ order, seps, time, timeFirst }) => {
      const date = `${seps[0]}${order[0]}${seps[1]}${order[1]}${seps[2]}${order[2]}`;
      if (time === '') return date + seps[3];
      return timeFirst ? `${time}${seps[3]} ${date}` : `${date} ${time}${seps[3]}`;
    });

  it('a pattern with a whole date has a number format, and the reader reads it as a date', () => {
    fc.assert(
      fc.property(pattern, (p) => {
        const code = excelDateFormat(p);
        expect(code).not.toBeNull();
        expect(formatCodeDateKind(code!)).toBe(DATE_KIND.date);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the cell holds what the CSV shows: its serial reads back as the text of the fields the pattern shows', () => {
    fc.assert(
      fc.property(pattern, instant, (p, ms) => {
        const parts = dateParts(ms, 'UTC')!;
        const text = serialToText(excelSerial(parts, p)!, formatCodeDateKind(excelDateFormat(p)!), false) as string;
        // Every field the pattern shows is in the CSV text, and the read cell has the same values.
        const [day, time = '00:00:00'] = text.split(' ');
        const [year, month, date] = day!.split('-');
        const [hour, minute, second] = time.split(':');
        const read = { YYYY: year!, MM: month!, DD: date!, HH: hour!, mm: minute!, ss: second! };
        expect(formatDate(ms, p, 'UTC')).toBe(p.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => read[token as keyof typeof read]));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a pattern without a whole date has no number format', () => {
    const partial = fc
      .record({ tokens: fc.subarray(['DD', 'MM', 'YYYY'], { maxLength: 2 }), seps: fc.array(literal, { minLength: 3, maxLength: 3 }), time: timePart })
      .map(({ tokens, seps, time }) => tokens.map((t, i) => seps[i] + t).join('') + (time === '' ? '' : ` ${time}`));
    fc.assert(
      fc.property(partial, (p) => {
        expect(excelDateFormat(p)).toBeNull();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
