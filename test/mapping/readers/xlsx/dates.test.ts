/** Date cells: which formats are dates, and serials to text in both date systems, by day arithmetic. */
import { describe, expect, it } from 'vitest';
import { DATE_KIND, builtInDateKind, formatCodeDateKind } from '../../../../src/mapping/readers/xlsx/number-formats.js';
import { civilDate, isoCellToText, serialToText } from '../../../../src/mapping/readers/xlsx/serial-date.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { flat, readRows, workbookParts, zipOf } from '../../../helpers/xlsx/workbook-builder.js';

const { none, date, time, elapsed } = DATE_KIND;

describe('number formats', () => {
  it.each([
    [14, date],
    [17, date],
    [22, date],
    [18, time],
    [21, time],
    [45, time],
    [46, elapsed],
    [27, date],
    [58, date],
    [0, none],
    [2, none],
    [49, none],
    [23, none],
  ])('built-in %i', (id, kind) => expect(builtInDateKind(id)).toBe(kind));

  it.each([
    ['dd.mm.yyyy', date],
    ['DD/MM/YYYY', date],
    ['yyyy-mm-dd hh:mm:ss', date],
    ['d mmmm yyyy "г."', date],
    ['[$-419]d mmm yy', date],
    ['mmm', date],
    ['h:mm', time],
    ['hh:mm:ss AM/PM', time],
    ['mm:ss', time],
    ['h:mm;@', time],
    ['[h]:mm:ss', elapsed],
    ['[mm]:ss', elapsed],
    ['General', none],
    ['0.00', none],
    ['#,##0.00 "шт"', none],
    ['0.00E+00', none],
    ['"day" 0', none],
    ['\\d0', none],
    ['[Red]0;[Blue]-0', none],
    ['_-* #,##0_-;\\-* #,##0_-', none],
    ['@', none],
    ['0;"dd.mm"', none],
  ])('custom %s', (code, kind) => expect(formatCodeDateKind(code)).toBe(kind));
});

describe('serial dates', () => {
  it('1900 system: day 1, the Lotus leap day, the day after, a modern date', () => {
    expect(serialToText(1, date, false)).toBe('1900-01-01');
    expect(serialToText(59, date, false)).toBe('1900-02-28');
    expect(serialToText(60, date, false)).toBe('1900-02-29');
    expect(serialToText(61, date, false)).toBe('1900-03-01');
    expect(serialToText(45000, date, false)).toBe('2023-03-15');
    expect(serialToText(47557, date, false)).toBe('2030-03-15');
  });

  it('1904 system: serial 0 is 1904-01-01, the same day as 1900 serial 1462', () => {
    expect(serialToText(0, date, true)).toBe('1904-01-01');
    expect(serialToText(45000 - 1462, date, true)).toBe('2023-03-15');
  });

  it('rounds to the nearest second before splitting day and time', () => {
    expect(serialToText(45000.99999999, date, false)).toBe('2023-03-16');
    expect(serialToText(45000.9999, date, false)).toBe('2023-03-15 23:59:51');
    expect(serialToText(45000.5, date, false)).toBe('2023-03-15 12:00:00');
    expect(serialToText(45000 + 1 / 3, date, false)).toBe('2023-03-15 08:00:00');
  });

  it('times of day and elapsed times', () => {
    expect(serialToText(0.75, time, false)).toBe('18:00:00');
    expect(serialToText(45000.25, time, false)).toBe('06:00:00');
    expect(serialToText(1.5, elapsed, false)).toBe('36:00:00');
  });

  it('leaves out-of-range serials as numbers', () => {
    expect(serialToText(-1, date, false)).toBe(-1);
    expect(serialToText(0, date, false)).toBe(0);
    expect(serialToText(2958465, date, false)).toBe('9999-12-31');
    expect(serialToText(2958466, date, false)).toBe(2958466);
    expect(serialToText(2958465 - 1462 + 1, date, true)).toBe(2958465 - 1462 + 1);
  });

  it('day arithmetic agrees with the calendar over four centuries', () => {
    for (let day = -25_567; day < 150_000; day += 97) {
      expect(civilDate(day)).toBe(new Date(day * 86_400_000).toISOString().slice(0, 10));
    }
  });

  it('ISO date cells (t="d")', () => {
    expect(isoCellToText('2030-03-15T00:00:00Z', date)).toBe('2030-03-15');
    expect(isoCellToText('2030-03-15T14:30:00.000', date)).toBe('2030-03-15 14:30:00');
    expect(isoCellToText('2030-03-15T23:59:59.6', date)).toBe('2030-03-16');
    expect(isoCellToText('2030-03-15T14:30:00', time)).toBe('14:30:00');
    expect(isoCellToText('15.03.2030', date)).toBe('15.03.2030');
  });
});

describe('xlsx reader: dates by style', () => {
  const rowXml =
    '<row r="1"><c r="A1" s="1"><v>47557</v></c><c r="B1" s="2"><v>47557.5</v></c><c r="C1" s="3"><v>0.5</v></c><c r="D1" s="4"><v>47557</v></c><c r="E1"><v>47557</v></c><c r="F1" s="1"><v>60</v></c><c r="G1" s="5"><v>274062111</v></c><c r="H1" t="d" s="1"><v>2030-03-15T00:00:00Z</v></c></row>';
  const styles: (number | string)[] = [0, 14, 'dd.mm.yyyy hh:mm', 'h:mm', 'DD.MM.YYYY', '0000000000'];

  it('1900 system: date formats (built-in and custom) give text, other numbers stay numbers', async () => {
    const rows = await withTempDir(async (dir) => (await readRows(dir, zipOf(workbookParts({ sheets: [{ name: 'S', xml: rowXml }], styles })))).rows);
    expect(flat(rows)).toEqual([[1, '2030-03-15', '2030-03-15 12:00:00', '12:00:00', '2030-03-15', 47557, '1900-02-29', 274062111, '2030-03-15']]);
  });

  it.each(['1', 'true'])('1904 system (date1904="%s")', async (flag) => {
    const rows = await withTempDir(
      async (dir) => (await readRows(dir, zipOf(workbookParts({ sheets: [{ name: 'S', xml: rowXml }], styles, date1904: flag })))).rows,
    );
    expect(rows[0]!.cells.slice(0, 2)).toEqual(['2034-03-16', '2034-03-16 12:00:00']);
  });
});
