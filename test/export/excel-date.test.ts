import { describe, expect, it } from 'vitest';
import { excelDateFormat, excelSerial } from '../../src/export/excel-date.js';
import { dateParts } from '../../src/export/format-value.js';

describe('excelDateFormat', () => {
  it.each([
    ['DD.MM.YYYY', 'dd.mm.yyyy'],
    ['DD.MM.YYYY HH:mm', 'dd.mm.yyyy hh:mm'],
    ['YYYY-MM-DD', 'yyyy-mm-dd'],
    ['YYYY-MM-DD HH:mm:ss', 'yyyy-mm-dd hh:mm:ss'],
    // A letter would be read as a code, `/` as the locale's separator: both escaped.
    ['YYYY-MM-DDTHH:mm:ss', 'yyyy-mm-dd\\Thh:mm:ss'],
    ['MM/DD/YYYY', 'mm\\/dd\\/yyyy'],
    ['YYYYMMDD', 'yyyymmdd'],
    // A `.` after seconds would start fractions of a second.
    ['HH:mm:ss. DD.MM.YYYY', 'hh:mm:ss\\. dd.mm.yyyy'],
  ])('%s → %s', (pattern, code) => {
    expect(excelDateFormat(pattern)).toBe(code);
  });

  it.each([
    ['no whole date', 'MM.YYYY'],
    ['a time only', 'HH:mm'],
    ['a month a spreadsheet reads as minutes (right after hours)', 'YYYY-DD HH:MM'],
    ['a month a spreadsheet reads as minutes (right before seconds)', 'YYYY-DD MM:ss'],
    ['minutes a spreadsheet reads as a month', 'DD.MM.YYYY mm'],
  ])('is null for %s (%s): the column stays text', (_what, pattern) => {
    expect(excelDateFormat(pattern)).toBeNull();
  });
});

describe('excelSerial', () => {
  it.each([
    // Excel's own numbers for these days: 1900-03-01 is 61, 2026-06-12 is 46185.
    ['1900-03-01', 'YYYY-MM-DD', 61],
    ['2026-06-12', 'DD.MM.YYYY', 46185],
    ['2026-06-12T07:15:00Z', 'DD.MM.YYYY HH:mm', 46185 + (7 * 60 + 15) / 1440],
    ['2026-06-12T07:15:30Z', 'DD.MM.YYYY HH:mm:ss', 46185 + (7 * 3600 + 15 * 60 + 30) / 86400],
    // Only what the pattern shows: no hidden time in a date-only cell, no hidden seconds.
    ['2026-06-12T07:15:30Z', 'DD.MM.YYYY', 46185],
    ['2026-06-12T07:15:30Z', 'DD.MM.YYYY HH:mm', 46185 + (7 * 60 + 15) / 1440],
  ])('%s shown as %s is %d', (value, pattern, serial) => {
    expect(excelSerial(dateParts(value, 'UTC')!, pattern)).toBeCloseTo(serial, 9);
  });

  it('takes the wall-clock time of the column zone, as the CSV text does', () => {
    expect(excelSerial(dateParts('2026-06-12T07:15:00Z', '+03:00')!, 'YYYY-MM-DD HH:mm')).toBeCloseTo(46185 + (10 * 60 + 15) / 1440, 9);
  });

  it.each([
    ['a day Excel counts wrongly (before March 1900)', '1900-02-28'],
    ['a day before 1900', '1899-12-31'],
    ['a year past 9999', '+010000-01-01T00:00:00Z'],
  ])('is null for %s: the cell stays text', (_what, value) => {
    expect(excelSerial(dateParts(value, 'UTC')!, 'YYYY-MM-DD')).toBeNull();
  });
});
