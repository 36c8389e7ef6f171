/**
 * Text from the sample (column names, values, JSON keys) as it is quoted in reasons, YAML comments
 * and the summary: in double quotes, control characters and the bidirectional overrides escaped
 * (a name must not move the terminal's cursor or disguise itself), long text cut.
 */

/** Longest piece of sample text quoted whole. */
const MAX_SHOWN = 60;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` quoted for a person: `"Кол-во"`, `"A\u001b[31m"`, `"Очень длинное…"`. */
export function shown(text: string): string {
  return quoted(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

/** `text` whole, as a YAML (and JSON) double-quoted string: what a TODO line holds, to be uncommented as is. */
export function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
