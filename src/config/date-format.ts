/**
 * The date formats a mapping may name (`DD.MM.YYYY`, `YY/MM/DD`, …): tokens DD, MM, YYYY or YY,
 * everything else literal. The config checks a format when the mapping loads; the mapping stage
 * compiles it into a parser (`mapping/parse-date.ts`) from the same tokens.
 */

/** The tokens of a date format, in the order a matcher tries them (YYYY before YY). */
export const DATE_TOKEN = /YYYY|YY|MM|DD/g;

/** Why a date format is unusable, or `undefined` when it is fine. */
export function checkDateFormat(format: string): string | undefined {
  const tokens: string[] = format.match(DATE_TOKEN) ?? [];
  const has = (token: string) => tokens.includes(token);
  if (!has('DD') || !has('MM') || !(has('YYYY') || has('YY'))) return `"${format}" needs the tokens DD, MM and YYYY (or YY)`;
  if (new Set(tokens).size !== tokens.length) return `"${format}" repeats a token`;
  return undefined;
}
