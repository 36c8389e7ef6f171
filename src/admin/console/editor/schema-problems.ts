/**
 * The editor's inline errors: the YAML read with the parser the daemon reads mappings with (the
 * `yaml` package, so a syntax error is the one the preview reports), then, when it reads, checked
 * against the flow kind's JSON Schema, each problem placed on the key or value it is about.
 *
 * The validator is @cfworker/json-schema: it interprets the schema, where ajv compiles it to code
 * with `new Function`, which the console's CSP (no 'unsafe-eval') refuses. Its messages are
 * generic ("Instance type "number" is invalid"), so the message is said again here from the
 * keyword and the schema: `expected a string, got a number`, `unknown key "integr" (did you mean
 * integer?)`. Only the keywords that are about the value itself speak; the wrappers (`properties`,
 * `$ref`, `allOf`, `if`) only repeat what the keyword below them said, and the branches of a
 * failed `anyOf` are said once, by the `anyOf`.
 */
import { Validator, type OutputUnit, type Schema as ValidatorSchema } from '@cfworker/json-schema';
import { isMap, isScalar, isSeq, parseDocument, type Document, type Pair } from 'yaml';
import { describeType, keysOf, schemasAt, type Schema, type Segment } from './schema-walk.js';
import { YAML_ERROR_KEYS } from '../../../config/yaml-error-keys.js';
import { sayEnglish, type Say } from './words.js';

export interface Problem {
  from: number;
  to: number;
  message: string;
  /** Who says so: the YAML parser, the schema, or the daemon's own check (daemon-problems.ts). */
  source: 'YAML' | 'schema' | 'daemon';
}

/**
 * A check of the editor's text against `root`, made once per schema (the validator indexes it).
 * Without a schema (the page could not fetch it) only the YAML is checked.
 */
export function createChecker(root: Schema | null, say: Say = sayEnglish): (text: string) => Problem[] {
  // The validator writes its index into the schema objects: it gets a copy of its own.
  const validator = root === null ? null : new Validator(structuredClone(root) as ValidatorSchema, '7', false);
  return (text) => {
    let doc: Document.Parsed;
    try {
      doc = parseDocument(text, { prettyErrors: false });
    } catch (error) {
      return [{ from: 0, to: 0, message: say('editor.unreadable', { said: (error as Error).message }), source: 'YAML' }];
    }
    if (doc.errors.length > 0) {
      return doc.errors.map((error) => ({ from: error.pos[0], to: Math.max(error.pos[0], error.pos[1]), message: yamlMessage(error, say), source: 'YAML' }));
    }
    let data: unknown;
    try {
      // As the daemon reads it: an alias bomb stops here instead of filling the tab's memory.
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      return [{ from: 0, to: 0, message: say('editor.unreadable', { said: (error as Error).message }), source: 'YAML' }];
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      return [{ ...rootSpan(doc, text), message: say('editor.notMapping'), source: 'schema' }];
    }
    if (root === null || validator === null) return [];
    return schemaProblems(root, validator.validate(data).errors, doc, data, text, say);
  };
}

/** Keywords that say what is wrong with the value at their instance location. */
const LEAF_KEYWORDS = new Set([
  'false',
  'required',
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/**
 * A parser error in the console's words (the keys config/read-yaml.ts words the daemon's with);
 * one no key says is the parser's own first line, as `check` quotes it.
 */
function yamlMessage(error: { code: string; message: string }, say: Say): string {
  const key = YAML_ERROR_KEYS[error.code];
  if (key !== undefined) return say(`text.${key}`);
  const said = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return say('editor.yamlSyntax', { said });
}

function schemaProblems(root: Schema, errors: readonly OutputUnit[], doc: Document.Parsed, data: unknown, text: string, say: Say): Problem[] {
  const choices = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.keywordLocation}/`);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (!LEAF_KEYWORDS.has(error.keyword)) continue;
    if (choices.some((prefix) => error.keywordLocation.startsWith(prefix))) continue;
    const path = instancePath(error.instanceLocation, data);
    const { message, on } = explain(root, error, path, valueAt(data, path), say);
    const span = spanOf(doc, path, on) ?? rootSpan(doc, text);
    const id = `${span.from}:${span.to}:${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push({ ...span, message, source: 'schema' });
  }
  return problems;
}

/** `#/request/customer.inn` → `['request', 'customer.inn']`, with the index of a sequence item as a number. */
function instancePath(location: string, data: unknown): Segment[] {
  const path: Segment[] = [];
  let node = data;
  for (const part of location.split('/').slice(1)) {
    const key = decodeURI(part).replace(/%23/g, '#').replace(/~1/g, '/').replace(/~0/g, '~');
    const segment: Segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}

function valueAt(data: unknown, path: readonly Segment[]): unknown {
  let node = data;
  for (const segment of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  return node;
}

/** The first number a keyword of the schemas at `path` holds (the limit a `minLength` error is about). */
function limitAt(root: Schema, path: readonly Segment[], keyword: string): number | undefined {
  for (const schema of schemasAt(root, path)) if (typeof schema[keyword] === 'number') return schema[keyword];
  return undefined;
}

function explain(root: Schema, error: OutputUnit, path: Segment[], value: unknown, say: Say): { message: string; on: 'key' | 'value' } {
  const expected = () => describeType(root, schemasAt(root, path)[0], say);
  const limit = (keyword: string) => limitAt(root, path, keyword) ?? Number(/(\d+(\.\d+)?)\)?\.?$/.exec(error.error)?.[1]);
  switch (error.keyword) {
    case 'false': {
      const key = String(path[path.length - 1]);
      const known = keysOf(root, schemasAt(root, path.slice(0, -1))).map((info) => info.key);
      const near = closest(key, known);
      const hint =
        near !== undefined
          ? say('editor.didYouMean', { near })
          : known.length > 0
            ? say('editor.knownHere', { keys: known.join(', ') })
            : say('editor.noKeysHere');
      return { message: say('editor.unknownKey', { key, hint }), on: 'key' };
    }
    case 'required': {
      const missing = /"(.*)"\.?$/.exec(error.error)?.[1] ?? error.error;
      return { message: say('editor.missingKey', { key: missing }), on: 'key' };
    }
    case 'type':
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return { message: say('editor.expected', { expected: expected(), got: show(value, say) }), on: 'value' };
    case 'minLength': {
      const n = limit('minLength');
      return { message: n === 1 ? say('editor.notEmpty') : say('editor.minLength', { n }), on: 'value' };
    }
    case 'maxLength': {
      const n = limit('maxLength');
      return { message: n === 1 ? say('editor.singleCharacter') : say('editor.maxLength', { n }), on: 'value' };
    }
    case 'pattern':
      return { message: say('editor.pattern', { pattern: String(schemasAt(root, path).find((s) => typeof s.pattern === 'string')?.pattern) }), on: 'value' };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minItems':
      return { message: say(`editor.${error.keyword}`, { n: limit(error.keyword) }), on: 'value' };
    default:
      return { message: error.error, on: 'value' };
  }
}

function show(value: unknown, say: Say): string {
  if (value === null) return say('editor.got.null');
  if (Array.isArray(value)) return say('editor.got.list');
  if (typeof value === 'object') return say('editor.got.mapping');
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'number' ? say('editor.got.number', { n: value }) : String(value);
}

/** The known key within two edits of `key` (a typo), if exactly one is nearest. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  let tie = false;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false];
    else if (d === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** Where the key or the value at `path` is written; undefined for the document itself. */
export function spanOf(doc: Document.Parsed, path: readonly Segment[], on: 'key' | 'value'): { from: number; to: number } | undefined {
  let node: unknown = doc.contents;
  let pair: Pair | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) return undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      pair = undefined;
      node = node.items[segment];
    } else return undefined;
  }
  const keyRange = isScalar(pair?.key) ? pair.key.range : undefined;
  const valueRange = node !== null && typeof node === 'object' && 'range' in node ? (node.range as [number, number, number] | undefined) : undefined;
  const range = on === 'key' ? (keyRange ?? valueRange) : valueRange && valueRange[1] > valueRange[0] ? valueRange : (keyRange ?? valueRange);
  return range === undefined ? undefined : { from: range[0], to: range[1] };
}

/** A problem of the whole document goes on its first line of content. */
export function rootSpan(doc: Document.Parsed, text: string): { from: number; to: number } {
  const contents = doc.contents as { range?: [number, number, number] } | null;
  const from = contents?.range?.[0] ?? 0;
  const end = text.indexOf('\n', from);
  return { from, to: end === -1 ? text.length : end };
}
