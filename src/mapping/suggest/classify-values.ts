/**
 * What a column's values are, from the values alone: INNs (check digits), e-mails, phones, order
 * ids, currencies, dates (and in which format), numbers (and how they write decimals and
 * thousands). Each classifier answers with the share of non-empty values that fit, so a column
 * with one typo still reads as what it is (the preview then reports the typo).
 */
import { compileDateParser } from '../parse-date.js';
import { isValidInn } from '../inn.js';
import { CURRENCY_PATTERN, ORDER_ID_PATTERN } from '../../platform/contract.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARS = /^\+?[\d\s()\-.\u2013]{7,}$/;
const DATE_LIKE = /^(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}[./-]\d{1,2}[./-]\d{1,2})(\s|$)/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Share of `values` for which `test` holds (0 when there are none). */
export function shareOf(values: readonly string[], test: (value: string) => boolean): number {
  if (values.length === 0) return 0;
  let hits = 0;
  for (const value of values) if (test(value)) hits += 1;
  return hits / values.length;
}

export const isInn = (value: string): boolean => isValidInn(value);
export const isEmail = (value: string): boolean => EMAIL.test(value);
export const isOrderId = (value: string): boolean => ORDER_ID_PATTERN.test(value);

/** A phone as people type them: `+7 495 123-45-67`, `8 (812) 555-01-02`, `89161234567`. */
export function isPhone(value: string): boolean {
  if (!PHONE_CHARS.test(value) || DATE_LIKE.test(value)) return false;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  // Bare digits are a phone only in the Russian 11-digit form; otherwise they are a number or a code.
  if (/^\d+$/.test(value)) return digits.length === 11 && (value.startsWith('7') || value.startsWith('8'));
  return true;
}

/** Currency names that are not ISO codes, and the code they mean. */
const CURRENCY_WORDS: Record<string, string> = { руб: 'RUB', 'руб.': 'RUB', 'р.': 'RUB', '₽': 'RUB', рубль: 'RUB', рублей: 'RUB', rur: 'RUB' };
const KNOWN_CODES = new Set(['RUB', 'USD', 'EUR', 'CNY', 'KZT', 'BYN', 'GBP', 'CHF', 'JPY', 'TRY', 'UZS', 'AMD', 'KGS', 'AED', 'INR']);

export interface CurrencyFit {
  share: number;
  /** Values to replace so that they become ISO codes (`руб.` → `RUB`); empty when none. */
  map: Record<string, string>;
}

/** Whether values are currencies: ISO codes in any case, or the Russian words for the rouble. */
export function currencyFit(values: readonly string[]): CurrencyFit {
  const map: Record<string, string> = {};
  const share = shareOf(values, (value) => {
    const word = CURRENCY_WORDS[value.toLowerCase()];
    if (word !== undefined) {
      map[value] = word;
      return true;
    }
    return CURRENCY_PATTERN.test(value.toUpperCase()) && KNOWN_CODES.has(value.toUpperCase());
  });
  return { share, map };
}

// --- dates ----------------------------------------------------------------------------------------

/** Formats tried, in order of preference: day first (Russian exports) before month first. */
const DATE_FORMATS = [
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'DD-MM-YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YYYY',
  'MM-DD-YYYY',
  'MM.DD.YYYY',
  'MM/DD/YY',
  'YYYY.MM.DD',
  'YYYY/MM/DD',
  'YYYY-MM-DD',
] as const;

/** The day-first format and its month-first twin: both fit when every day is 12 or less. */
const TWINS: Record<string, string> = { 'DD.MM.YYYY': 'MM.DD.YYYY', 'DD/MM/YYYY': 'MM/DD/YYYY', 'DD-MM-YYYY': 'MM-DD-YYYY', 'DD/MM/YY': 'MM/DD/YY' };

/** The share of values a date format must read for the column to count as dates in it. */
export const DATE_SHARE = 0.9;

export interface DateFit {
  /** The `date:` to write; undefined when the values are ISO `YYYY-MM-DD`, which every mapping reads. */
  format: string | undefined;
  share: number;
  /** A second format that reads the same values (month first), when the sample cannot tell them apart. */
  ambiguousWith?: string;
  /** A value it reads, for reasons (`15.03.2027 0:00:00`). */
  example: string;
}

/** The format the values are dates in, or undefined when they are not dates. */
export function dateFit(values: readonly string[]): DateFit | undefined {
  if (values.length === 0) return undefined;
  const isoShare = shareOf(values, (value) => ISO_DATE.test(value) && compileDateParser(undefined)(value) !== undefined);
  if (isoShare >= DATE_SHARE) return { format: undefined, share: isoShare, example: values[0]! };
  const fits: { format: string; share: number }[] = [];
  for (const format of DATE_FORMATS) {
    const parse = compileDateParser(format);
    // ISO values pass every parser: a format must read values of its own shape.
    const own = values.filter((value) => !ISO_DATE.test(value));
    if (own.length === 0) continue;
    const share = shareOf(values, (value) => parse(value) !== undefined);
    if (share >= DATE_SHARE) fits.push({ format, share });
  }
  const best = fits[0];
  if (best === undefined) return undefined;
  const twin = TWINS[best.format];
  const ambiguous = twin !== undefined && fits.some((fit) => fit.format === twin);
  const example = values.find((value) => !ISO_DATE.test(value)) ?? values[0]!;
  return { format: best.format, share: best.share, example, ...(ambiguous ? { ambiguousWith: twin } : {}) };
}

// --- numbers --------------------------------------------------------------------------------------

/** Every space an export puts between thousands (as `parse-number.ts` drops them), and `'`. */
const GROUP_SPACES: [RegExp, string][] = [
  [/\d\u00a0\d/, 'non-breaking space'],
  [/\d[\u2009\u202f\u2007]\d/, 'thin space'],
  [/\d \d/, 'space'],
  [/\d'\d/, 'apostrophe'],
];
const SPACES = /[\s\u00a0\u2007\u2009\u202f']/g;

export interface NumberFit {
  /** Share of values that read as numbers one way or the other. */
  share: number;
  /** A value only a decimal comma explains (`12,5`, `1.234,50`), for reasons. */
  commaExample?: string;
  /** A value only a decimal point with comma thousands explains (`1,234.50`). */
  pointExample?: string;
  /** Thousands separators seen, by name (`non-breaking space`, `dot`, `comma`). */
  thousands: Set<string>;
  /** A value written with a thousands separator, for reasons (`1 200`). */
  thousandsExample?: string;
}

/** How the values write numbers. */
export function numberFit(values: readonly string[]): NumberFit {
  const fit: NumberFit = { share: 0, thousands: new Set() };
  let numeric = 0;
  for (const value of values) {
    const plain = value.replace(SPACES, '');
    let isNumber = true;
    if (/^[+-]?\d+$/.test(plain)) {
      // a whole number: nothing to learn about separators from the digits alone
    } else if (/^[+-]?\d{1,3}(\.\d{3})+,\d+$/.test(plain)) {
      fit.commaExample ??= value;
      fit.thousands.add('dot');
      fit.thousandsExample ??= value;
    } else if (/^[+-]?\d+,\d+$/.test(plain)) {
      // "1,500" could be one and a half or fifteen hundred; "0,500" and "12,5" cannot.
      const [units, fraction] = plain.replace(/^[+-]/, '').split(',') as [string, string];
      if (fraction.length !== 3 || units === '0') fit.commaExample ??= value;
    } else if (/^[+-]?\d{1,3}(,\d{3})+\.\d+$/.test(plain) || /^[+-]?\d{1,3}(,\d{3}){2,}$/.test(plain)) {
      fit.pointExample ??= value;
      fit.thousands.add('comma');
      fit.thousandsExample ??= value;
    } else if (!/^[+-]?(\d+\.\d*|\.\d+)$/.test(plain)) isNumber = false;
    if (!isNumber) continue;
    numeric += 1;
    for (const [pattern, name] of GROUP_SPACES) {
      if (pattern.test(value)) {
        fit.thousands.add(name);
        fit.thousandsExample ??= value;
      }
    }
  }
  fit.share = values.length === 0 ? 0 : numeric / values.length;
  return fit;
}

/** A cell that holds data rather than a column name: a number, a date, an e-mail. */
export function looksLikeValue(cell: string): boolean {
  return numberFit([cell]).share === 1 || dateFit([cell]) !== undefined || isEmail(cell);
}
