/**
 * One entry of the console's catalogues: a text with `{name}` placeholders, or the plural forms of
 * a text chosen by its count `{n}` with the language's own rules (`Intl.PluralRules`: Russian has
 * one, few, many; English one and other), so that "1 файл", "2 файла", "5 файлов" come from the
 * catalogue, not from pasting words together.
 */
export type Entry = string | { one: string; few?: string; many?: string; other: string };

/** The text of `entry` for `params` in `language`, its placeholders filled (`{name}`; a missing one stays as written). */
export function fillEntry(entry: Entry, language: string, params?: Record<string, unknown>): string {
  let text: string;
  if (typeof entry === 'string') text = entry;
  else {
    const n = Number(params?.n);
    const form = Number.isFinite(n) ? new Intl.PluralRules(language).select(n) : 'other';
    text = (form === 'one' || form === 'few' || form === 'many' ? entry[form] : undefined) ?? entry.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name] ?? '—') : whole));
}
