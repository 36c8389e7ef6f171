/**
 * The date formats a mapping may name (`DD.MM.YYYY`, `YY/MM/DD`, …): tokens DD, MM, YYYY or YY,
 * everything else literal. The config checks a format when the mapping loads; the mapping stage
 * compiles it into a parser (`mapping/parse-date.ts`) from the same tokens.
 */
import type { MessageText } from '../errors.js';

/** The tokens of a date format, in the order a matcher tries them (YYYY before YY). */
export const DATE_TOKEN = /YYYY|YY|MM|DD/g;

/** Why a date format is unusable (in English, and as the console's text), or `undefined` when it is fine. */
export function checkDateFormat(format: string): { message: string; text: MessageText } | undefined {
  const tokens: string[] = format.match(DATE_TOKEN) ?? [];
  const has = (token: string) => tokens.includes(token);
  if (!has('DD') || !has('MM') || !(has('YYYY') || has('YY'))) {
    return { message: `"${format}" needs the tokens DD, MM and YYYY (or YY)`, text: { key: 'dateTokens', params: { format } } };
  }
  if (new Set(tokens).size !== tokens.length) return { message: `"${format}" repeats a token`, text: { key: 'dateRepeats', params: { format } } };
  return undefined;
}
