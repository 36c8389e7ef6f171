/**
 * `decimalComma` for the whole file, from the numbers of all its columns: a value only a decimal
 * comma explains (`12,5`, `1.234,50`) says yes, a value only a decimal point with comma thousands
 * explains (`1,234.50`) says no. With neither, a `;`-separated file gets a decimal comma: Excel and
 * 1C choose `;` as the list separator exactly in the locales that write decimals with a comma (and
 * `parseNumber` still reads `12.5` as a decimal point then).
 */
import type { ColumnProfile } from './profile-column.js';
import type { Detected } from './types.js';
import { shown } from './shown.js';
import { phrase, phraseEnglish, type Phrase } from './summary-words.js';

/** Columns whose values are numbers at least this often are looked at. */
const NUMERIC = 0.9;

export interface NumberStyle {
  decimalComma: Detected<boolean>;
  /** Thousands separators seen, by name. */
  thousands: string[];
  thousandsReason: string | undefined;
  warning?: Phrase;
}

export function decideNumbers(profiles: readonly ColumnProfile[], delimiter: string | undefined): NumberStyle {
  // INNs, phones and dates are not quantities: their digits say nothing about decimals.
  const numeric = profiles.filter((p) => p.number.share >= NUMERIC && p.inn < NUMERIC && p.phone < NUMERIC && p.date === undefined);
  const comma = numeric.filter((p) => p.number.commaExample !== undefined);
  const point = numeric.filter((p) => p.number.pointExample !== undefined);
  const thousands = [...new Set(numeric.flatMap((p) => [...p.number.thousands]))];
  const withThousands = numeric.find((p) => p.number.thousandsExample !== undefined);
  const examplePhrase = (p: ColumnProfile, value: string | undefined) => phrase('summary.example', { value: shown(value ?? ''), column: shown(p.column.name) });
  const thousandsReason = withThousands ? phraseEnglish(examplePhrase(withThousands, withThousands.number.thousandsExample)) : undefined;

  if (comma.length > 0 && point.length === 0) {
    return {
      decimalComma: { value: true, reason: phrase('summary.why.decimalCommas', { example: examplePhrase(comma[0]!, comma[0]!.number.commaExample) }) },
      thousands,
      thousandsReason,
    };
  }
  if (point.length > 0 && comma.length === 0) {
    return {
      decimalComma: { value: false, reason: phrase('summary.why.commaThousands', { example: examplePhrase(point[0]!, point[0]!.number.pointExample) }) },
      thousands,
      thousandsReason,
    };
  }
  if (comma.length > 0) {
    const value = comma.length >= point.length;
    const warning = phrase('summary.warn.mixedDecimals', {
      comma: examplePhrase(comma[0]!, comma[0]!.number.commaExample),
      point: examplePhrase(point[0]!, point[0]!.number.pointExample),
    });
    return { decimalComma: { value, reason: phrase(value ? 'summary.why.moreCommas' : 'summary.why.morePoints') }, thousands, thousandsReason, warning };
  }
  if (delimiter === ';') {
    return {
      decimalComma: { value: true, reason: phrase('summary.why.semicolonLocale') },
      thousands,
      thousandsReason,
    };
  }
  return { decimalComma: { value: false, reason: phrase('summary.why.noDecimalComma') }, thousands, thousandsReason };
}
