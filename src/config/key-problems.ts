/**
 * zod's issues as a person reads them. A typo in a key is one mistake, and gets one answer:
 * `platform.sourceSytem (line 9, column 3): unknown key; did you mean sourceSystem?`, naming the
 * key where it is written and the known key nearest to it. zod reports two issues for it (the
 * unknown key, and the required key it hid: `sourceSystem` missing), so the second is left out
 * when the first already names that key. A required key that is simply missing `is required`.
 */
import type { z } from 'zod';
import { dottedPath, type ConfigProblem } from './config-problem.js';
import { issueText } from './issue-text.js';
import { nearestKey } from './nearest-key.js';
import type { YamlSource } from './read-yaml.js';

export interface IssueContext {
  /** The schema the data was parsed with: it knows which keys each section may have. */
  schema: z.core.$ZodType;
  /** The data given to the schema, to tell a missing key from a wrong value. */
  data: unknown;
  /** The file the data was read from, for where a key is written. */
  source?: YamlSource | undefined;
  /** Where the schema's data sits in the file (`['acknowledgements']`); default the top. */
  at?: readonly PropertyKey[];
}

/** One problem per unknown key, with its place and the nearest known key; the rest by `message`. */
export function issueProblems(issues: readonly z.core.$ZodIssue[], context: IssueContext): ConfigProblem[] {
  const at = context.at ?? [];
  const typos = new Map<z.core.$ZodIssue, { key: string; near: string | undefined }[]>();
  const hidden = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeysAt(context.schema, issue.path);
    const keys = issue.keys.map((key) => ({ key, near: nearestKey(key, known) }));
    typos.set(issue, keys);
    for (const { near } of keys) if (near !== undefined && isMissing(context.data, [...issue.path, near])) hidden.add(dottedPath([...issue.path, near]));
  }
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const keys = typos.get(issue);
    if (keys !== undefined) {
      for (const { key, near } of keys) {
        const path = [...at, ...issue.path, key];
        const place = context.source?.keyPlace(path);
        problems.push({
          path: dottedPath(path),
          message: near === undefined ? 'unknown key' : `unknown key; did you mean ${near}?`,
          text: near === undefined ? { key: 'unknownKey' } : { key: 'unknownKeyNear', params: { suggestion: near } },
          ...place,
        });
      }
      continue;
    }
    const missing = issue.code === 'invalid_type' && isMissing(context.data, issue.path);
    if (missing && hidden.has(dottedPath(issue.path))) continue;
    problems.push({
      path: dottedPath([...at, ...issue.path]),
      message: missing ? 'is required' : issue.message,
      text: missing ? { key: 'keyRequired' } : issueText(issue),
    });
  }
  return problems;
}

/** Whether `data` lacks the last key of `path` in an object that is there. */
function isMissing(data: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let node = data;
  for (const part of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node) && !Object.hasOwn(node, path.at(-1)!);
}

/** The keys the object at `path` of `schema` may have (of every object a union offers there). */
export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const found of schemasAt(schema, path)) {
    const def = (found as z.core.$ZodTypes)._zod.def;
    if (def.type === 'object') for (const key of Object.keys(def.shape)) keys.add(key);
  }
  return [...keys];
}

/** The schemas that read the value at `path`, through wrappers (default, optional, a pipe's input) and unions. */
function schemasAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType[] {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return schemasAt(def.innerType, path);
    case 'pipe':
      return schemasAt(def.in, path);
    case 'lazy':
      return schemasAt(def.getter(), path);
    case 'union':
      return def.options.flatMap((option) => schemasAt(option, path));
    case 'intersection':
      return [...schemasAt(def.left, path), ...schemasAt(def.right, path)];
    default:
      break;
  }
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === 'object') {
    const child = typeof head === 'string' ? def.shape[head] : undefined;
    return child === undefined ? [] : schemasAt(child, rest);
  }
  if (def.type === 'array') return typeof head === 'number' ? schemasAt(def.element, rest) : [];
  if (def.type === 'record') return schemasAt(def.valueType, rest);
  return [];
}
