/**
 * CSV injection ("formula injection"): a spreadsheet opening a CSV runs a cell that starts with
 * `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)`, `=cmd|...`), and tab or carriage return in
 * front does not stop all of them. Text in our CSV files comes from ERP users and the platform,
 * so a file someone opens in Excel must not carry a live formula. OWASP's rule: prefix such a cell
 * with a single quote, which the spreadsheet shows as text, and quote the cell as CSV needs
 * (the caller's quoting does that). Pure; shared by intake's error reports and the export files.
 */

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
