/**
 * A date cell's number as text, by integer day arithmetic: no `Date`, so no time zone and no
 * daylight-saving hour can move a day. The serial is rounded to the nearest second first, so
 * 45000.99999999 (a millisecond short of midnight, as a float stores it) reads as the next day.
 *
 * - 1900 system (the default): serial 1 is 1900-01-01. Excel copied Lotus 1-2-3's mistake of
 *   counting 1900 as a leap year, so serial 60 is 1900-02-29, a day that never was: it reads as
 *   the text `1900-02-29`, which date validation then refuses; serial 61 is 1900-03-01.
 * - 1904 system (`<workbookPr date1904="1"/>`, old Mac workbooks): serial 0 is 1904-01-01.
 *
 * A serial before the first day or after 9999-12-31 is no date Excel can show: it stays a number.
 */
import { DATE_KIND, type DateKind } from './number-formats.js';

const SECONDS_PER_DAY = 86_400;
/** 9999-12-31 in each system. */
const LAST_SERIAL_1900 = 2_958_465;
const LAST_SERIAL_1904 = LAST_SERIAL_1900 - 1462;
/** Days from 1970-01-01 back to each system's day 0 (1899-12-30 for serials after the false leap day, 1904-01-01). */
const UNIX_OFFSET_1900 = 25_569;
const UNIX_OFFSET_1904 = 24_107;

/** The text of a numeric cell with a date, time or elapsed-time format; the number itself when it is out of range. */
export function serialToText(serial: number, kind: DateKind, date1904: boolean): string | number {
  if (!Number.isFinite(serial) || serial < 0) return serial;
  const total = Math.round(serial * SECONDS_PER_DAY);
  // A serial too large to count in whole seconds is no date or time: its number stands.
  if (!Number.isSafeInteger(total)) return serial;
  const days = Math.floor(total / SECONDS_PER_DAY);
  const second = total - days * SECONDS_PER_DAY;
  if (kind === DATE_KIND.time) return clock(second);
  if (kind === DATE_KIND.elapsed) return `${pad2(Math.floor(total / 3600))}:${clock(total % 3600).slice(3)}`;
  const time = second === 0 ? '' : ` ${clock(second)}`;
  if (date1904) {
    if (days > LAST_SERIAL_1904) return serial;
    return civilDate(days - UNIX_OFFSET_1904) + time;
  }
  if (days < 1 || days > LAST_SERIAL_1900) return serial;
  if (days === 60) return `1900-02-29${time}`;
  return civilDate(days < 60 ? days - UNIX_OFFSET_1900 + 1 : days - UNIX_OFFSET_1900) + time;
}

/**
 * A `t="d"` cell (an ISO 8601 date written as text, as some writers do instead of a serial):
 * the same text the serial would give. The zone suffix, if any, is ignored: a workbook's dates are
 * wall-clock values. Text that is not ISO 8601 is returned as it is.
 */
export function isoCellToText(text: string, kind: DateKind): string {
  const match = ISO_CELL.exec(text);
  if (match === null) return text;
  const [, year, month, day, hour, minute, second, fraction] = match;
  if (year === undefined && hour === undefined) return text;
  const seconds = Number(hour ?? 0) * 3600 + Number(minute ?? 0) * 60 + Number(second ?? 0) + Math.round(Number(`0.${fraction ?? 0}`));
  if (year === undefined) return clock(seconds % SECONDS_PER_DAY);
  const days = daysFromCivil(Number(year), Number(month), Number(day)) + Math.floor(seconds / SECONDS_PER_DAY);
  const rest = seconds % SECONDS_PER_DAY;
  if (kind === DATE_KIND.time || kind === DATE_KIND.elapsed) return clock(rest);
  return civilDate(days) + (rest === 0 ? '' : ` ${clock(rest)}`);
}

const ISO_CELL = /^(?:(\d{4})-(\d{2})-(\d{2}))?(?:[T ]?(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** `HH:MM:SS` of a second of the day. */
function clock(second: number): string {
  return `${pad2(Math.floor(second / 3600))}:${pad2(Math.floor((second % 3600) / 60))}:${pad2(second % 60)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `YYYY-MM-DD` of a count of days since 1970-01-01 (H. Hinnant's civil_from_days, proleptic Gregorian). */
export function civilDate(unixDays: number): string {
  const z = unixDays + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
