/**
 * What the editor offers from the schema at the cursor: the keys a mapping there takes (less those
 * it has), the values a key allows, and the description of the key under the pointer. Pure (text,
 * offset and schema in), so it is table-tested in Node and bundled for the browser as it is.
 */
import { contextAt, keyAt } from './cursor-context.js';
import { defaultOf, describeType, descriptionOf, keysOf, schemasAt, valuesOf, type Schema } from './schema-walk.js';
import { sayEnglish, type Say } from './words.js';

export interface Suggestion {
  /** What the list shows and the typed word is matched against. */
  label: string;
  /** What is inserted in place of the typed word. */
  apply: string;
  kind: 'key' | 'value';
  /** The type in a few words (`a mapping`, `one of csv, json`), or `default` for a value that is the default. */
  detail: string;
  /** The schema's description of the key. */
  info: string | undefined;
}

/** Keys or values to offer at `pos`, replacing the text from `from`; null where the schema has nothing to say. */
export function suggestAt(root: Schema, text: string, pos: number, say: Say = sayEnglish): { from: number; suggestions: Suggestion[] } | null {
  const context = contextAt(text, pos);
  if (context === null) return null;
  const schemas = schemasAt(root, context.path);
  if (context.slot === 'key') {
    const keys = keysOf(root, schemas).filter(({ key }) => !context.siblings.includes(key));
    if (keys.length > 0) {
      const suggestions = keys.map(({ key, schemas: own }): Suggestion => {
        const written = scalarText(key);
        return { label: written, apply: `${written}: `, kind: 'key', detail: describeType(root, own[0], say), info: descriptionOf(own) };
      });
      return { from: context.from, suggestions };
    }
  }
  const fallback = defaultOf(schemas);
  const suggestions = valuesOf(schemas).map((value): Suggestion => {
    const written = scalarText(value);
    return { label: written, apply: written, kind: 'value', detail: fallback?.value === value ? say('editor.completion.default') : '', info: undefined };
  });
  return suggestions.length > 0 ? { from: context.from, suggestions } : null;
}

/** A scalar as YAML writes it in any context: plain when that reads back as the same string, else double-quoted. */
export function scalarText(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  const plain = /^[\p{L}\p{N}_./-][\p{L}\p{N}_./ -]*$/u.test(value) && !value.endsWith(' ');
  const other = /^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*\.?\d*([eE][-+]?\d+)?|\.\d+|\.inf|\.nan|0x[\da-f]+|0o[0-7]+))$/i.test(value);
  return plain && !other ? value : JSON.stringify(value);
}

export interface Hover {
  from: number;
  to: number;
  /** The key's path (`request › customer.inn`): keys hold dots, so not joined with them. */
  title: string;
  /** Its type, default and description. */
  type: string;
  fallback: string | undefined;
  description: string | undefined;
}

/** What the schema says of the key under `pos`, or null (not on a key, or a key the schema does not know). */
export function describeAt(root: Schema, text: string, pos: number, say: Say = sayEnglish): Hover | null {
  const key = keyAt(text, pos);
  if (key === null) return null;
  const parents = schemasAt(root, key.path.slice(0, -1));
  const own = keysOf(root, parents).find((info) => info.key === key.path[key.path.length - 1]);
  if (own === undefined) return null;
  const fallback = defaultOf(own.schemas);
  return {
    from: key.from,
    to: key.to,
    title: key.path.map(String).join(' › '),
    type: describeType(root, own.schemas[0], say),
    fallback: fallback === undefined ? undefined : JSON.stringify(fallback.value),
    description: descriptionOf(own.schemas),
  };
}
