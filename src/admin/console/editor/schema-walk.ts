/**
 * Reading the mapping's JSON Schema (the one `jsonSchemaOf` generates from the zod schemas) the
 * way an editor needs it: what may stand at a key path, which keys a mapping there takes, which
 * values a key allows, and how to say a schema's type in a few words. Pure: plain JSON in, plain
 * values out, so the browser bundle and the unit tests share it.
 *
 * "What may stand at a path" is a list of schemas, every one that applies: a `$ref`, the members
 * of `allOf`/`anyOf`/`oneOf` and both branches of `if` are followed, so the keys of a field spec
 * written as `allOf: [{ $ref: fieldSpec }]` and the `required` of the `else` branch are all seen.
 */

import { sayEnglish, type EditorWordKey, type Say } from './words.js';

/** A JSON Schema object (a boolean schema is not walked into). */
export type Schema = { readonly [keyword: string]: unknown };

/** A key of a mapping, or the index of a sequence item. */
export type Segment = string | number;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/definitions/fieldSpec` in `root` (JSON Pointer, percent-decoded). A reference to another document resolves to nothing. */
export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isSchema(node) ? node[key] : undefined;
  }
  return isSchema(node) ? node : undefined;
}

/** `schema` and every schema it is also (through `$ref`, `allOf`, `anyOf`, `oneOf`, `then`, `else`), each once. */
export function expand(root: Schema, schema: unknown, into: Schema[] = []): Schema[] {
  if (!isSchema(schema) || into.includes(schema)) return into;
  into.push(schema);
  if (typeof schema.$ref === 'string') expand(root, resolveRef(root, schema.$ref), into);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = schema[keyword];
    if (Array.isArray(members)) for (const member of members) expand(root, member, into);
  }
  expand(root, schema.then, into);
  expand(root, schema.else, into);
  return into;
}

/** The schemas of the value at `segment` inside a value that `schemas` describe. */
function child(root: Schema, schemas: readonly Schema[], segment: Segment): Schema[] {
  const out: Schema[] = [];
  for (const schema of schemas) {
    if (typeof segment === 'number') {
      expand(root, schema.items, out);
      continue;
    }
    const properties = isSchema(schema.properties) ? schema.properties : {};
    if (Object.hasOwn(properties, segment)) {
      expand(root, properties[segment], out);
      continue;
    }
    const patterns = isSchema(schema.patternProperties) ? schema.patternProperties : {};
    const matched = Object.entries(patterns).filter(([pattern]) => matches(pattern, segment));
    for (const [, sub] of matched) expand(root, sub, out);
    if (matched.length === 0) expand(root, schema.additionalProperties, out);
  }
  return out;
}

function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** Every schema that applies to the value at `path` (empty when the schema says nothing of it). */
export function schemasAt(root: Schema, path: readonly Segment[]): Schema[] {
  let schemas = expand(root, root);
  for (const segment of path) schemas = child(root, schemas, segment);
  return schemas;
}

/** One key a mapping may have: the schemas of its value, the first of which is the key's own. */
export interface KeyInfo {
  key: string;
  schemas: Schema[];
}

/** The keys a mapping described by `schemas` names in `properties`, in the schema's order. */
export function keysOf(root: Schema, schemas: readonly Schema[]): KeyInfo[] {
  const keys = new Map<string, Schema[]>();
  for (const schema of schemas) {
    if (!isSchema(schema.properties)) continue;
    for (const [key, sub] of Object.entries(schema.properties)) {
      const known = keys.get(key) ?? [];
      keys.set(key, expand(root, sub, known));
    }
  }
  return [...keys].map(([key, list]) => ({ key, schemas: list }));
}

/** The scalar values `schemas` allow by name (`enum`, `const`, `true`/`false` for a boolean), each once. */
export function valuesOf(schemas: readonly Schema[]): unknown[] {
  const values: unknown[] = [];
  const add = (value: unknown) => {
    if (!values.includes(value) && (value === null || typeof value !== 'object')) values.push(value);
  };
  for (const schema of schemas) {
    if (Array.isArray(schema.enum)) schema.enum.forEach(add);
    if ('const' in schema) add(schema.const);
  }
  if (values.length === 0 && schemas.some((schema) => typesOf(schema).includes('boolean'))) [true, false].forEach(add);
  return values;
}

/** The first description among `schemas` (the key's own comes first). */
export function descriptionOf(schemas: readonly Schema[]): string | undefined {
  for (const schema of schemas) if (typeof schema.description === 'string') return schema.description;
  return undefined;
}

/** The first default among `schemas`. */
export function defaultOf(schemas: readonly Schema[]): { value: unknown } | undefined {
  for (const schema of schemas) if ('default' in schema) return { value: schema.default };
  return undefined;
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((type): type is string => typeof type === 'string') : [];
}

/**
 * A schema's type in a few words, for completion details and messages: `a string`, `an integer
 * above 0`, `"auto"`, `one of csv, json`, `a mapping`, `a list of strings`. `anyOf` branches are
 * joined with "or".
 */
export function describeType(root: Schema, schema: unknown, say: Say = sayEnglish): string {
  if (!isSchema(schema)) return say(schema === false ? 'editor.type.nothing' : 'editor.type.anything');
  if (typeof schema.$ref === 'string') return describeType(root, resolveRef(root, schema.$ref), say);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = schema[keyword];
    if (Array.isArray(members)) return either([...new Set(members.map((member) => describeType(root, member, say)))], say);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && typesOf(schema).length === 0) return describeType(root, schema.allOf[0], say);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    return say('editor.type.oneOf', { values: schema.enum.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ') });
  }
  const types = typesOf(schema);
  if (types.length === 0) return say(isSchema(schema.properties) ? 'editor.type.object' : 'editor.type.anything');
  return either(
    types.map((type) => describeOneType(root, schema, type, say)),
    say,
  );
}

/** `a or b or c`, in the editor's words. */
function either(words: string[], say: Say): string {
  return words.reduce((a, b) => say('editor.type.or', { a, b }));
}

const TYPE_WORDS: Record<string, EditorWordKey> = {
  string: 'editor.type.string',
  number: 'editor.type.number',
  integer: 'editor.type.integer',
  boolean: 'editor.type.boolean',
  object: 'editor.type.object',
  array: 'editor.type.array',
  null: 'editor.type.null',
};

/** The plural a list of one plain type is said with (`a list of strings`). */
const PLURAL_WORDS: Record<string, EditorWordKey> = {
  string: 'editor.type.strings',
  number: 'editor.type.numbers',
  integer: 'editor.type.integers',
  object: 'editor.type.mappings',
  array: 'editor.type.lists',
};

function describeOneType(root: Schema, schema: Schema, type: string, say: Say): string {
  const known = TYPE_WORDS[type];
  let words = known === undefined ? type : say(known);
  if (type === 'array' && isSchema(schema.items)) words = say('editor.type.listOf', { items: itemsWords(root, schema.items, say) });
  if (type === 'number' || type === 'integer') {
    if (typeof schema.exclusiveMinimum === 'number') words = say('editor.type.above', { type: words, n: schema.exclusiveMinimum });
    else if (typeof schema.minimum === 'number') words = say('editor.type.atLeast', { type: words, n: schema.minimum });
    if (typeof schema.maximum === 'number') words = say('editor.type.upTo', { type: words, n: schema.maximum });
  }
  return words;
}

/** What a list holds: a plain type in the plural (`strings`), anything else as it is said alone. */
function itemsWords(root: Schema, items: Schema, say: Say): string {
  const schema = typeof items.$ref === 'string' ? resolveRef(root, items.$ref) : items;
  if (isSchema(schema) && !('enum' in schema) && !('const' in schema)) {
    const types = typesOf(schema);
    const bounded = ['minimum', 'maximum', 'exclusiveMinimum'].some((keyword) => typeof schema[keyword] === 'number');
    const plural = types.length === 1 && !bounded ? PLURAL_WORDS[types[0]!] : undefined;
    if (plural !== undefined && !(types[0] === 'array' && isSchema(schema.items))) return say(plural);
  }
  return describeType(root, items, say);
}
