/**
 * Numbers as ERPs write them: `1 234,50` (decimal comma, spaces, non-breaking or thin spaces as
 * thousands separators), `1234.50`, `-3`. Tax ids and codes never come through here: they stay
 * strings, leading zeros and all.
 */

/** Every kind of space an export puts between thousands: space, NBSP, thin, narrow NBSP, figure space. */
const SPACES = /[\s\u00a0\u2007\u2009\u202f']/g;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** `1,234` and `1,234.50`: commas only between groups of three digits. */
const COMMA_GROUPS = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
/** `1.234,50` (with `decimalComma`): dots only between groups of three digits, before the comma. */
const DOT_GROUPS = /^[+-]?\d{1,3}(?:\.\d{3})+,\d*$/;

/**
 * Parse `text` as a number; `undefined` when it is not one.
 *
 * With `decimalComma`, a comma is the decimal separator and dots are thousands separators
 * (`1.234,50`); a value with a dot and no comma (`12.5`) is still read as a decimal point, since
 * 1C writes both. Without it, commas are thousands separators (`1,234.50`). A thousands separator
 * must stand between groups of three digits: `1,5` without `decimalComma` is not a number (read as
 * 15 it would multiply a quantity by ten when an export switches to decimal commas), nor is
 * `1.23,5` with it.
 */
export function parseNumber(text: string, decimalComma: boolean): number | undefined {
  let cleaned = text.replace(SPACES, '');
  if (decimalComma) {
    if (cleaned.includes(',')) {
      if (cleaned.indexOf(',') !== cleaned.lastIndexOf(',')) return undefined;
      if (cleaned.includes('.') && !DOT_GROUPS.test(cleaned)) return undefined;
      cleaned = cleaned.replace(/\./g, '').replace(',', '.');
    }
  } else if (cleaned.includes(',')) {
    if (!COMMA_GROUPS.test(cleaned)) return undefined;
    cleaned = cleaned.replace(/,/g, '');
  }
  if (!PLAIN_NUMBER.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}
