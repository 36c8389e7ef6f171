/**
 * Loading the daemon config: YAML → `${ENV}` substitution → secret references → zod → frozen.
 *
 * The only module that reads `process.env` is the CLI, which hands it in here. Every problem is
 * collected with its key path, and all of them are reported at once (`CONFIG_INVALID`).
 *
 * Secrets (the token, webhook secrets) may be written in place, as `${VAR}`, or as a reference
 * object in place of the string:
 *   token: { fromFile: /etc/procurement-connector/token }
 *   token: { fromCredential: platform-token }      # $CREDENTIALS_DIRECTORY/platform-token (systemd LoadCredential=)
 *   token: { fromEnv: PROCUREMENT_TOKEN }
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { registerSecret } from '../log.js';
import { configError, dottedPath, type ConfigProblem } from './config-problem.js';
import { issueProblems } from './key-problems.js';
import { readYamlSource, type YamlSource } from './read-yaml.js';
import { configSchema, type Config } from './schema.js';

// What other modules have always imported from here.
export { configError, dottedPath, type ConfigProblem } from './config-problem.js';
export { MAX_YAML_BYTES, MAX_YAML_DEPTH, parseYamlBytes, parseYamlSource, readYamlFile, readYamlSource, type YamlSource } from './read-yaml.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Read, substitute, resolve and validate a config file. Throws `CONFIG_INVALID` listing every problem. */
export function loadConfig(file: string, env: Env): Config {
  const source = readYamlSource(file, 'config');
  const problems: ConfigProblem[] = [];
  const expanded = expandValues(source.data, [], env, problems);
  const parsed = configSchema.safeParse(expanded);
  if (!parsed.success) {
    // An unresolved secret is left empty; its own problem says why, so skip the schema's echo of it.
    const secretPaths = new Set(problems.filter((p) => p.secret).map((p) => p.path));
    const schemaProblems = issueProblems(parsed.error.issues, { schema: configSchema, data: expanded, source });
    problems.push(...schemaProblems.filter((p) => !secretPaths.has(p.path)));
  }
  if (problems.length > 0 || !parsed.success) {
    // Only unreadable secrets: say so with its own code, the fix is on the credential, not the YAML.
    throw configError(file, problems, problems.every((p) => p.secret) ? 'SECRET_UNAVAILABLE' : 'CONFIG_INVALID');
  }
  const config = parsed.data;
  registerSecret(config.platform.token);
  for (const flow of config.flows) {
    registerSecret(flow.token);
    // A zip password of a few characters (1C's field takes anything) would scrub those characters
    // out of every log line; it is never logged by us, so only one long enough to be a secret is registered.
    const zipPassword = flow.enterpriseData?.password;
    if (zipPassword !== undefined && zipPassword.length >= 6) registerSecret(zipPassword);
  }
  for (const secret of config.webhook?.secrets ?? []) registerSecret(secret);
  registerSecret(config.webhook?.tls?.key);
  registerSecret(config.sandbox.supplierToken);
  registerSecret(config.console.password);
  recordFilePlaces(config, file, source);
  return deepFreeze(config);
}

/** Where a config names a file it points to: the key, and its line and column in the config file. */
export interface NamedAt {
  /** The key as `check` names it: `flows[1].mapping`. */
  key: string;
  configFile: string;
  line?: number | undefined;
  column?: number | undefined;
}

/** The flows' and the export's file keys, by the object that holds them (a loaded config is never copied, only frozen). */
const filePlaces = new WeakMap<object, NamedAt>();

function recordFilePlaces(config: Config, file: string, source: YamlSource): void {
  const place = (path: PropertyKey[]): NamedAt => ({ key: dottedPath(path), configFile: file, ...source.keyPlace(path) });
  config.flows.forEach((flow, index) => filePlaces.set(flow, place(['flows', index, 'mapping'])));
  if (config.export) filePlaces.set(config.export, place(['export', 'mapping']));
}

/** Where the config names `holder`'s mapping file (a flow, or the export section), if it came from a file. */
export function mappingNamedAt(holder: object): NamedAt | undefined {
  return filePlaces.get(holder);
}

/** ` (named by flows[1].mapping, line 7 of connector.yaml)`, or nothing. */
export function namedAtText(at: NamedAt | undefined): string {
  if (at === undefined) return '';
  return ` (named by ${at.key}${at.line === undefined ? '' : `, line ${at.line}`} of ${at.configFile})`;
}

/** zod's issues as they are, each at its path (`issueProblems` words them for a person, with places). */
export function zodProblems(issues: readonly z.core.$ZodIssue[], prefix = ''): ConfigProblem[] {
  return issues.map((issue) => ({ path: prefix + dottedPath(issue.path), message: issue.message }));
}

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const SECRET_KEYS = ['fromFile', 'fromCredential', 'fromEnv'] as const;

/** Walk the parsed YAML, substituting `${VAR}` in strings and resolving secret reference objects. */
function expandValues(value: unknown, at: PropertyKey[], env: Env, problems: ConfigProblem[]): unknown {
  if (typeof value === 'string') return substituteEnv(value, at, env, problems);
  if (Array.isArray(value)) return value.map((item, index) => expandValues(item, [...at, index], env, problems));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const secretKey = SECRET_KEYS.find((k) => k in (value as object));
    if (secretKey && entries.length === 1) return resolveSecretRef(secretKey, entries[0]![1], at, env, problems);
    return Object.fromEntries(entries.map(([k, v]) => [k, expandValues(v, [...at, k], env, problems)]));
  }
  return value;
}

function substituteEnv(text: string, at: PropertyKey[], env: Env, problems: ConfigProblem[]): string {
  return text.replace(ENV_REF, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    problems.push({ path: dottedPath(at), message: `environment variable ${name} is not set` });
    return '';
  });
}

function resolveSecretRef(kind: (typeof SECRET_KEYS)[number], ref: unknown, at: PropertyKey[], env: Env, problems: ConfigProblem[]): string {
  const where = dottedPath(at);
  if (typeof ref !== 'string' || ref === '') {
    problems.push({ path: `${where}.${kind}`, message: 'must be a non-empty string' });
    return '';
  }
  let file: string;
  if (kind === 'fromEnv') {
    const value = env[ref];
    if (!value) problems.push({ path: where, message: `environment variable ${ref} is not set (SECRET_UNAVAILABLE)`, secret: true });
    return value ?? '';
  } else if (kind === 'fromCredential') {
    const dir = env.CREDENTIALS_DIRECTORY;
    if (!dir) {
      problems.push({
        path: where,
        message: `systemd credential "${ref}" asked for, but $CREDENTIALS_DIRECTORY is not set (SECRET_UNAVAILABLE)`,
        secret: true,
      });
      return '';
    }
    file = path.join(dir, ref);
  } else {
    file = path.resolve(ref);
  }
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    if (value === '') problems.push({ path: where, message: `secret file ${file} is empty (SECRET_UNAVAILABLE)`, secret: true });
    return value;
  } catch (error) {
    problems.push({
      path: where,
      message: `cannot read secret file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (SECRET_UNAVAILABLE)`,
      secret: true,
    });
    return '';
  }
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
