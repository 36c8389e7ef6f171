/**
 * Dates in ERP formats (`DD.MM.YYYY`, `YY/MM/DD`, …) to `YYYY-MM-DD`, checked against the real
 * calendar. A format is compiled once into a matcher; values already in ISO form pass too, unless
 * the format itself reads them (a `YYYY-DD-MM` format's `2027-03-04` is the 3rd of April).
 */
import { DATE_TOKEN as TOKEN } from '../config/date-format.js';
import { isCalendarDate } from '../platform/contract.js';

/** A trailing time of day, as 1C writes it (`15.03.2027 0:00:00`) and a sheet's date-time cell reads (`2027-03-15 14:30:00`), is ignored. */
const TIME_SUFFIX = '(?:[ T]\\d{1,2}:\\d{2}(?::\\d{2})?)?';
/** An XML Schema date may end in its zone (`2027-03-15+03:00`): the day is the one written. (A timestamp with a zone is not a date.) */
const DATE_ZONE = '(?:Z|[+-]\\d{2}:\\d{2})';
const ISO_DATE = new RegExp(`^\\d{4}-\\d{2}-\\d{2}(?:${TIME_SUFFIX}|${DATE_ZONE})$`);

/** Parses one date string; `undefined` when it does not fit the format or names no real day. */
export type DateParser = (value: string) => string | undefined;

/** Compile `format` (tokens DD MM YYYY YY; anything else literal) into a parser. */
export function compileDateParser(format: string | undefined): DateParser {
  const order: string[] = [];
  let source = '';
  if (format !== undefined) {
    let last = 0;
    for (const match of format.matchAll(TOKEN)) {
      source += escapeRegExp(format.slice(last, match.index));
      source += match[0] === 'YYYY' ? '(\\d{4})' : match[0] === 'YY' ? '(\\d{2})' : '(\\d{1,2})';
      order.push(match[0]);
      last = match.index + match[0].length;
    }
    source += escapeRegExp(format.slice(last));
  }
  const pattern = format === undefined ? undefined : new RegExp(`^${source}${TIME_SUFFIX}$`);
  return (value: string) => {
    const match = pattern?.exec(value);
    if (!match) {
      if (!ISO_DATE.test(value)) return undefined;
      const date = value.slice(0, 10);
      return isCalendarDate(date) ? date : undefined;
    }
    let year = '';
    let month = '';
    let day = '';
    order.forEach((token, index) => {
      const part = match[index + 1]!;
      if (token === 'YYYY') year = part;
      else if (token === 'YY') year = `20${part}`;
      else if (token === 'MM') month = part.padStart(2, '0');
      else day = part.padStart(2, '0');
    });
    const iso = `${year}-${month}-${day}`;
    return isCalendarDate(iso) ? iso : undefined;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
