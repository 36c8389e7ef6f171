/**
 * Numbers as ERPs write them: `1 234,50` (decimal comma, spaces, non-breaking or thin spaces as
 * thousands separators), `1234.50`, `-3`. Tax ids and codes never come through here: they stay
 * strings, leading zeros and all.
 */

/** Every kind of space an export puts between thousands: space, NBSP, thin, narrow NBSP, figure space. */
const SPACES = /[\s\u00a0\u2007\u2009\u202f']/g;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Parse `text` as a number; `undefined` when it is not one.
 *
 * With `decimalComma`, a comma is the decimal separator and dots are thousands separators
 * (`1.234,50`); a value with a dot and no comma (`12.5`) is still read as a decimal point, since
 * 1C writes both. Without it, commas are thousands separators (`1,234.50`).
 */
export function parseNumber(text: string, decimalComma: boolean): number | undefined {
  let cleaned = text.replace(SPACES, '');
  if (decimalComma) {
    if (cleaned.includes(',')) {
      if (cleaned.indexOf(',') !== cleaned.lastIndexOf(',')) return undefined;
      cleaned = cleaned.replace(/\./g, '').replace(',', '.');
    }
  } else {
    cleaned = cleaned.replace(/,/g, '');
  }
  if (!PLAIN_NUMBER.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}
