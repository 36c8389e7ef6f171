/**
 * Which number formats make a numeric cell a date or a time. A workbook stores a date as a plain
 * number (days since 1900 or 1904) and says it is a date only through the cell's style: the style's
 * `numFmtId` is either one of Excel's built-in formats (14 `m/d/yyyy` … 22, and the East Asian
 * 27–36, 50–58) or a custom `<numFmt formatCode="dd.mm.yyyy">`. A format is a date when its code
 * holds a date or time token (d, m, y, h, s) outside quoted text, escapes and `[..]` sections.
 */

/** What a numeric cell of a format reads as. */
export const DATE_KIND = {
  /** A number. */
  none: 0,
  /** A day, with its time of day when that is not midnight (`2026-03-15`, `2026-03-15 14:30:00`). */
  date: 1,
  /** A time of day only (`h:mm`): `14:30:00`. */
  time: 2,
  /** Elapsed time (`[h]:mm:ss`): hours past 24 are kept (`36:00:00`). */
  elapsed: 3,
} as const;
export type DateKind = (typeof DATE_KIND)[keyof typeof DATE_KIND];

/**
 * Built-in ids (ECMA-376 part 1, 18.8.30): 14–17 and 22 are dates, 18–21 and 45, 47 times of day,
 * 46 `[h]:mm:ss`. 27–36 and 50–58 are the East Asian locales' dates; some of them show a time in
 * some locales, but a date reading is the safe side for those (the day is what a mapping wants).
 */
export function builtInDateKind(id: number): DateKind {
  if ((id >= 14 && id <= 17) || id === 22 || (id >= 27 && id <= 36) || (id >= 50 && id <= 58)) return DATE_KIND.date;
  if ((id >= 18 && id <= 21) || id === 45 || id === 47) return DATE_KIND.time;
  if (id === 46) return DATE_KIND.elapsed;
  return DATE_KIND.none;
}

const ELAPSED = /^(?:h+|m+|s+)$/;
const AM_PM = /am\/pm|a\/p/gi;

/**
 * The kind of a custom format code. Only the first section counts (the one for positive numbers;
 * a negative serial is never read as a date). Quoted text (`"г."`), escaped characters (`\-`),
 * spacing and fill characters (`_)`, `*-`), colours, locales and conditions (`[Red]`, `[$-419]`,
 * `[>100]`) are skipped; `[h]`, `[mm]`, `[ss]` are elapsed time. `m` is minutes right after an
 * hour or right before seconds (`h:mm`, `mm:ss`), else a month.
 */
export function formatCodeDateKind(code: string): DateKind {
  const tokens: string[] = [];
  let elapsed = false;
  const text = code.replace(AM_PM, ' ');
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === ';') break;
    if (char === '"') {
      const close = text.indexOf('"', index + 1);
      index = close === -1 ? text.length : close;
    } else if (char === '\\' || char === '_' || char === '*') {
      index++;
    } else if (char === '[') {
      const close = text.indexOf(']', index + 1);
      const inside = text.slice(index + 1, close === -1 ? text.length : close).toLowerCase();
      if (ELAPSED.test(inside)) {
        elapsed = true;
        tokens.push(inside[0]!);
      }
      index = close === -1 ? text.length : close;
    } else {
      const lower = char.toLowerCase();
      if (lower === 'e' && (text[index + 1] === '+' || text[index + 1] === '-')) index++;
      else if (lower === 'g' && text.slice(index, index + 7).toLowerCase() === 'general') index += 6;
      else if ('ymdhs'.includes(lower)) tokens.push(lower);
    }
  }
  return classify(tokens, elapsed);
}

function classify(tokens: readonly string[], elapsed: boolean): DateKind {
  let day = false;
  let time = false;
  tokens.forEach((token, index) => {
    if (token === 'y' || token === 'd') day = true;
    else if (token === 'h' || token === 's') time = true;
    else if (token === 'm') {
      const before = neighbour(tokens, index, -1);
      const after = neighbour(tokens, index, 1);
      if (before === 'h' || after === 's') time = true;
      else day = true;
    }
  });
  if (day) return DATE_KIND.date;
  if (elapsed) return DATE_KIND.elapsed;
  return time ? DATE_KIND.time : DATE_KIND.none;
}

/** The nearest token before (step -1) or after (step 1) the `m` run at `index`. */
function neighbour(tokens: readonly string[], index: number, step: -1 | 1): string | undefined {
  let at = index + step;
  while (tokens[at] === 'm') at += step;
  return tokens[at];
}
