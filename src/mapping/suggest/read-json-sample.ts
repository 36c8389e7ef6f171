/**
 * A JSON (or NDJSON) sample → columns: the records (the file's array, the array of records found
 * inside an object, or the object itself), each record's lines (its array of objects), and one
 * column per dotted path of a record's fields and of a line's fields.
 */
import { ConnectorError } from '../../errors.js';
import type { Detected, SampleColumn, SampleTable } from './types.js';
import { shown } from './shown.js';
import { phrase, type Phrase } from './summary-words.js';

/** How deep paths are followed into nested objects (`buyer.address.city` is depth 3). */
const MAX_DEPTH = 4;

type JsonPart = Pick<SampleTable, 'jsonPath' | 'itemsPath' | 'columns' | 'rowCount' | 'warnings'>;
type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const isArrayOfObjects = (value: unknown): value is JsonObject[] => Array.isArray(value) && value.length > 0 && value.some(isObject);

export function readJsonSample(text: string, format: 'json' | 'ndjson'): JsonPart {
  const warnings: Phrase[] = [];
  const { records, jsonPath } = format === 'ndjson' ? ndjsonRecords(text, warnings) : jsonRecords(text);
  const objects = records.filter(isObject);
  if (objects.length < records.length) warnings.push(phrase('summary.warn.notObjects', { n: records.length - objects.length }));
  const itemsPath = linesPathOf(objects);
  if (itemsPath.value === undefined) warnings.push(phrase('summary.warn.noLinesArray'));

  const lines: { group: number; line: unknown }[] = [];
  objects.forEach((record, group) => {
    const found = itemsPath.value === undefined ? undefined : getPath(record, itemsPath.value);
    if (Array.isArray(found)) for (const line of found) lines.push({ group, line });
  });
  const recordColumns = columnsOf(
    objects.map((record, group) => ({ group, line: record })),
    'record',
    itemsPath.value,
  );
  return { jsonPath, itemsPath, columns: [...recordColumns, ...columnsOf(lines, 'line', undefined)], rowCount: objects.length, warnings };
}

/** One column per leaf path met in any of `rows` (in order of first appearance), `''` where a row lacks it. */
function columnsOf(rows: readonly { group: number; line: unknown }[], level: SampleColumn['level'], skip: string | undefined): SampleColumn[] {
  const byPath = new Map<string, Map<number, string>>();
  rows.forEach(({ line }, index) => {
    if (!isObject(line)) return;
    for (const [path, value] of leaves(line, skip)) {
      let values = byPath.get(path);
      if (values === undefined) byPath.set(path, (values = new Map()));
      values.set(index, value);
    }
  });
  const groups = rows.map((row) => row.group);
  return [...byPath].map(([name, values]) => ({ name, level, values: rows.map((_, index) => values.get(index) ?? ''), groups }));
}

function jsonRecords(text: string): { records: unknown[]; jsonPath: Detected<string | undefined> } {
  let root: unknown;
  try {
    root = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConnectorError('FILE_UNREADABLE', `is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (Array.isArray(root)) return { records: root, jsonPath: { value: undefined, reason: phrase('summary.why.fileIsArray', { n: root.length }) } };
  if (!isObject(root)) throw new ConnectorError('FILE_UNREADABLE', 'holds no JSON object or array');
  // The records array is the shallowest array whose objects hold arrays of objects (their lines).
  for (const [path, value] of arrays(root, '', 0)) {
    if (value.some((record) => isObject(record) && [...arrays(record, '', 0)].length > 0)) {
      return { records: value, jsonPath: { value: path, reason: phrase('summary.why.arrayAt', { path: shown(path), n: value.length }) } };
    }
  }
  return { records: [root], jsonPath: { value: undefined, reason: phrase('summary.why.oneRecord') } };
}

function ndjsonRecords(text: string, warnings: Phrase[]): { records: unknown[]; jsonPath: Detected<string | undefined> } {
  const records: unknown[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as unknown);
    } catch {
      warnings.push(phrase('summary.warn.lineNotJson', { line: index + 1 }));
    }
  });
  return { records, jsonPath: { value: undefined, reason: phrase('summary.why.perLine', { n: records.length }) } };
}

/** Arrays of objects inside `value`, shallowest first, with their dotted paths. */
function* arrays(value: JsonObject, prefix: string, depth: number): Generator<[string, JsonObject[]]> {
  const nested: [string, JsonObject][] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isArrayOfObjects(child)) yield [path, child];
    else if (isObject(child) && depth < MAX_DEPTH) nested.push([path, child]);
  }
  for (const [path, child] of nested) yield* arrays(child, path, depth + 1);
}

/** The path most records keep their lines at (an array of objects). */
function linesPathOf(records: readonly JsonObject[]): Detected<string | undefined> {
  const tally = new Map<string, number>();
  for (const record of records) {
    for (const [path] of arrays(record, '', 0)) tally.set(path, (tally.get(path) ?? 0) + 1);
  }
  const [best] = [...tally].sort((a, b) => b[1] - a[1]);
  if (best === undefined) return { value: undefined, reason: phrase('summary.why.noArrays') };
  return { value: best[0], reason: phrase('summary.why.linesIn', { n: best[1], records: records.length, path: shown(best[0]) }) };
}

/** Every scalar inside `value` by dotted path, as text; arrays (and `skip`) are not entered. */
function* leaves(value: JsonObject, skip: string | undefined, prefix = '', depth = 0): Generator<[string, string]> {
  for (const [key, child] of Object.entries(value)) {
    // A key with a dot cannot be named by a dotted path.
    if (key.includes('.')) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (path === skip || Array.isArray(child)) continue;
    if (isObject(child)) {
      if (depth < MAX_DEPTH) yield* leaves(child, skip, path, depth + 1);
      continue;
    }
    yield [path, child === null || child === undefined ? '' : String(child as string | number | boolean).trim()];
  }
}

function getPath(record: JsonObject, path: string): unknown {
  let at: unknown = record;
  for (const part of path.split('.')) at = isObject(at) ? at[part] : undefined;
  return at;
}
