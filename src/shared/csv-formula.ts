/**
 * CSV injection ("formula injection"): a spreadsheet opening a CSV runs a cell that starts with
 * `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)`, `=cmd|...`), and tab or carriage return in
 * front does not stop all of them. Text in our CSV files comes from ERP users and the platform,
 * so a file someone opens in Excel must not carry a live formula. OWASP's rule: prefix such a cell
 * with a single quote, which the spreadsheet shows as text, and quote the cell as CSV needs
 * (csv-stringify does that, after the `cast` below). Pure; shared by intake's error reports and the
 * export files. csv-stringify's own `escape_formulas` is not used: its rule differs from this one
 * (it also marks full-width `＝＋－＠`, and leaves a `-` alone when the value was a number), and the
 * files people already read keep this one.
 */
import type { CastingContext } from 'csv-stringify/sync';

/** First characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection). */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;

const TRIGGER = /^[=+\-@\t\r]/;

/** True when a spreadsheet would read `text` as a formula. */
export function startsLikeFormula(text: string): boolean {
  return TRIGGER.test(text);
}

/** `text` made inert for a spreadsheet: `'` in front of a formula-like cell, anything else unchanged. */
export function neutraliseFormula(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}

/**
 * csv-stringify's `cast` that neutralises every value cell and leaves the header row as written
 * (its names come from our code or the mapping, not from outside). Cells must be handed as text:
 * only strings pass through it. A new object each call, since csv-stringify fills its default casts
 * into the object it is given.
 */
export function neutraliseFormulaCast(): { string: (value: string, context: CastingContext) => string } {
  return { string: (value, context) => (context.header ? value : neutraliseFormula(value)) };
}
