/**
 * Dates in a workbook. A spreadsheet date is a number (days since 1899-12-30, the time of day as a
 * fraction) shown through a number format; a cell that holds one sorts, filters and loads into 1C
 * as a date, not as text that looks like one. Pure.
 *
 * A column's `date` pattern becomes the cell's number format, so Excel shows what the CSV file
 * would (`DD.MM.YYYY HH:mm` → `dd.mm.yyyy hh:mm`), and the cell holds exactly the fields the
 * pattern shows (a date-only pattern gives a whole day, with no hidden time). Only patterns that
 * show a whole date (YYYY, MM and DD) are dates; and since a spreadsheet writes month and minute
 * alike (`mm`, minutes only right after hours or right before seconds), a pattern it would misread
 * is not one either. Such columns stay text, as in the CSV file.
 */
import { DATE_TOKENS, type DateParts } from './format-value.js';

type Token = keyof DateParts;

/** Our tokens as a spreadsheet's number format writes them. */
const FORMAT_CODE: Record<Token, string> = { YYYY: 'yyyy', MM: 'mm', DD: 'dd', HH: 'hh', mm: 'mm', ss: 'ss' };
/** Literal characters a number format shows as they are; every other one is escaped with `\`. */
const PLAIN_LITERAL = /^[-:. ]$/;

const MS_PER_DAY = 86_400_000;
/** Day 0 of the 1900 date system, as every spreadsheet counts from March 1900 on. */
const EPOCH_MS = Date.UTC(1899, 11, 30);
/** Before this day Excel counts its phantom 29 February 1900; earlier dates stay text. */
const FIRST_DAY_MS = Date.UTC(1900, 2, 1);

/**
 * The number format showing `pattern` (`dd.mm.yyyy hh:mm`), or null when the pattern does not
 * show a whole date or a spreadsheet would read one of its months as minutes or the reverse.
 */
export function excelDateFormat(pattern: string): string | null {
  const parts = splitPattern(pattern);
  const tokens = parts.filter((part): part is { token: Token } => 'token' in part).map((part) => part.token);
  if (!tokens.includes('YYYY') || !tokens.includes('MM') || !tokens.includes('DD')) return null;
  for (let i = 0; i < tokens.length; i += 1) {
    const readAsMinutes = tokens[i - 1] === 'HH' || tokens[i + 1] === 'ss';
    if ((tokens[i] === 'MM' && readAsMinutes) || (tokens[i] === 'mm' && !readAsMinutes)) return null;
  }
  let previous: Token | null = null;
  let code = '';
  for (const part of parts) {
    if ('token' in part) {
      code += FORMAT_CODE[part.token];
      previous = part.token;
    } else {
      // A `.` right after seconds would start fractions of a second; `/` is the locale's date separator.
      code += PLAIN_LITERAL.test(part.literal) && !(part.literal === '.' && previous === 'ss') ? part.literal : `\\${part.literal}`;
      previous = null;
    }
  }
  return code;
}

/**
 * The spreadsheet number of the fields `pattern` shows (its time fields only; a date-only pattern
 * gives a whole day), or null for a day before 1 March 1900 or after 9999.
 */
export function excelSerial(parts: DateParts, pattern: string): number | null {
  const field = (token: Token): number => (pattern.includes(token) ? Number(parts[token]) : 0);
  const year = Number(parts.YYYY);
  if (!(year >= 1900 && year <= 9999)) return null;
  const day = Date.UTC(year, Number(parts.MM) - 1, Number(parts.DD));
  if (day < FIRST_DAY_MS) return null;
  const seconds = field('HH') * 3600 + field('mm') * 60 + field('ss');
  return (day - EPOCH_MS) / MS_PER_DAY + seconds / 86_400;
}

/** `pattern` as tokens and single literal characters, in order. */
function splitPattern(pattern: string): ({ token: Token } | { literal: string })[] {
  const out: ({ token: Token } | { literal: string })[] = [];
  let at = 0;
  for (const match of pattern.matchAll(DATE_TOKENS)) {
    for (const literal of pattern.slice(at, match.index)) out.push({ literal });
    out.push({ token: match[0] as Token });
    at = match.index + match[0].length;
  }
  for (const literal of pattern.slice(at)) out.push({ literal });
  return out;
}
