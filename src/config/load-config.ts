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
import YAML, { Parser, type CST } from 'yaml';
import type { z } from 'zod';
import { ConnectorError } from '../errors.js';
import { registerSecret } from '../log.js';
import { configSchema, type Config } from './schema.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigProblem {
  /** Dotted key path (`flows[0].inbox`); empty for the whole file. */
  path: string;
  message: string;
  /** A secret reference that could not be resolved (SECRET_UNAVAILABLE). */
  secret?: boolean;
  /** Where a YAML syntax error is (1-based line and column of the file), for an editor to point at. */
  line?: number;
  column?: number;
}

/** Read, substitute, resolve and validate a config file. Throws `CONFIG_INVALID` listing every problem. */
export function loadConfig(file: string, env: Env): Config {
  const raw = readYamlFile(file, 'config');
  const problems: ConfigProblem[] = [];
  const expanded = expandValues(raw, [], env, problems);
  const parsed = configSchema.safeParse(expanded);
  if (!parsed.success) {
    // An unresolved secret is left empty; its own problem says why, so skip the schema's echo of it.
    const secretPaths = new Set(problems.filter((p) => p.secret).map((p) => p.path));
    problems.push(...zodProblems(parsed.error.issues).filter((p) => !secretPaths.has(p.path)));
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
  return deepFreeze(config);
}

/**
 * Config and mapping files are a few KiB. Anything near this size is not one, and refusing it
 * up front bounds what the YAML parser is asked to do.
 */
export const MAX_YAML_BYTES = 1024 * 1024;

/**
 * How deep collections may nest in a config or mapping file. Real ones nest about six levels. The
 * yaml package composes a document recursively and only catches the stack overflow a deeper one
 * causes (CVE-2026-33532: two bytes a level suffice); that catch once took a test worker down with
 * it. So the depth is measured first, on the package's iterative CST parser, and a deeper document
 * is refused before it is composed.
 */
export const MAX_YAML_DEPTH = 64;

/** How many of the parser's errors a message lists (a broken file can have hundreds). */
const MAX_LISTED_ERRORS = 10;

/**
 * Parse a YAML file into a plain mapping. `CONFIG_NOT_FOUND` when it cannot be opened; otherwise
 * anything that keeps it from being a readable YAML mapping (a folder, a FIFO, too large, a NUL
 * byte, invalid UTF-8, a YAML error, an alias bomb, a cycle, a list or scalar at the top) is
 * `CONFIG_INVALID` for the config and `MAPPING_INVALID` for a mapping, naming the file: both exit 2,
 * so systemd's `RestartPreventExitStatus=2` stops restarting a config that cannot work.
 */
export function readYamlFile(file: string, what: string): Record<string, unknown> {
  const code = what === 'config' ? 'CONFIG_INVALID' : 'MAPPING_INVALID';
  const invalid = (message: string): ConnectorError => configError(file, [{ path: '', message }], code);
  return parseYamlBytes(readSmallFile(file, what, invalid), file, what);
}

/**
 * The checks of `readYamlFile` after the read, for bytes that come from elsewhere (the console's
 * mapping editor): NUL bytes, UTF-8, YAML (each syntax error with its `line` and `column`),
 * aliases, cycles, a mapping at the top. `file` names the source in the messages.
 */
export function parseYamlBytes(bytes: Buffer, file: string, what: string): Record<string, unknown> {
  const code = what === 'config' ? 'CONFIG_INVALID' : 'MAPPING_INVALID';
  const invalid = (message: string): ConnectorError => configError(file, [{ path: '', message }], code);
  if (bytes.length > MAX_YAML_BYTES) throw invalid(`is ${bytes.length} bytes, more than the ${MAX_YAML_BYTES} a ${what} file may have`);
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw invalid(`contains a NUL byte at offset ${nul}: not a text file`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('is not valid UTF-8 text');
  }
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const { line, col } = lineAndColumn(text, deep);
    throw configError(file, [{ path: '', message: `nests deeper than ${MAX_YAML_DEPTH} levels at line ${line}, column ${col}`, line, column: col }], code);
  }
  let data: unknown;
  try {
    const doc = YAML.parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0) {
      const problems: ConfigProblem[] = doc.errors.slice(0, MAX_LISTED_ERRORS).map((e) => ({
        path: '',
        // The first line says what and where (`… at line 3, column 1:`); the rest is a drawing of the line.
        message: (e.message.split('\n')[0] ?? e.message).replace(/:$/, ''),
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      }));
      if (doc.errors.length > MAX_LISTED_ERRORS) problems.push({ path: '', message: `… and ${doc.errors.length - MAX_LISTED_ERRORS} more YAML errors` });
      throw configError(file, problems, code);
    }
    // maxAliasCount (the yaml package's default, said out loud) stops a "billion laughs" file,
    // whose few aliases expand to millions of nodes, with a throw instead of filling the memory.
    data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    throw invalid(`cannot be read as YAML: ${(error as Error).message ?? String(error)}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalid('must be a YAML mapping (key: value pairs)');
  const shape = cycleOrDepth(data);
  if (shape === 'cycle') throw invalid('an alias refers to a node that contains it (a cycle)');
  if (shape === 'deep') throw invalid(`nests deeper than ${MAX_YAML_DEPTH} levels (through aliases)`);
  return data as Record<string, unknown>;
}

/** The bytes of a regular file of at most MAX_YAML_BYTES, opened without blocking (a FIFO would). */
function readSmallFile(file: string, what: string, invalid: (message: string) => ConnectorError): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw new ConnectorError('CONFIG_NOT_FOUND', `Cannot read the ${what} file ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw invalid('is a directory, not a file');
    if (!stat.isFile()) throw invalid('is not a regular file');
    if (stat.size > MAX_YAML_BYTES) throw invalid(`is ${stat.size} bytes, more than the ${MAX_YAML_BYTES} a ${what} file may have`);
    // Read one byte past the limit: the file may have grown since fstat.
    const buffer = Buffer.alloc(MAX_YAML_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_YAML_BYTES) throw invalid(`is more than the ${MAX_YAML_BYTES} bytes a ${what} file may have`);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    throw new ConnectorError('CONFIG_NOT_FOUND', `Cannot read the ${what} file ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    fs.closeSync(fd);
  }
}

/** The offset of the first collection nested deeper than MAX_YAML_DEPTH, walked without recursion. */
function tooDeepAt(text: string): number | undefined {
  const pending: { token: CST.Token; depth: number }[] = [];
  for (const token of new Parser().parse(text)) pending.push({ token, depth: 0 });
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { token, depth } = next;
    if (depth > MAX_YAML_DEPTH) return token.offset;
    if (token.type === 'document') {
      if (token.value) pending.push({ token: token.value, depth });
    } else if ('items' in token) {
      for (const item of token.items) {
        if (item.key) pending.push({ token: item.key, depth: depth + 1 });
        if (item.value) pending.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** 1-based line and column of an offset, as the yaml package reports its errors. */
function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, col: offset - lineStart + 1 };
}

/**
 * Whether a YAML alias made a value contain itself (`a: &a [*a]`; the schema's walk would never
 * end), or aliases nested copies deeper than MAX_YAML_DEPTH (each level within the limit).
 */
function cycleOrDepth(value: unknown, ancestors = new Set<object>()): 'cycle' | 'deep' | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (ancestors.has(value)) return 'cycle';
  if (ancestors.size >= MAX_YAML_DEPTH) return 'deep';
  ancestors.add(value);
  let found: 'cycle' | 'deep' | undefined;
  for (const child of Object.values(value)) {
    found = cycleOrDepth(child, ancestors);
    if (found) break;
  }
  ancestors.delete(value);
  return found;
}

export function configError(
  file: string,
  problems: ConfigProblem[],
  code: 'CONFIG_INVALID' | 'MAPPING_INVALID' | 'SECRET_UNAVAILABLE' = 'CONFIG_INVALID',
): ConnectorError {
  const lines = problems.map((p) => `  ${p.path || '(file)'}: ${p.message}`);
  return new ConnectorError(code, `${file} is invalid:\n${lines.join('\n')}`, { details: { file, problems } });
}

export function zodProblems(issues: readonly z.core.$ZodIssue[], prefix = ''): ConfigProblem[] {
  return issues.map((issue) => ({ path: prefix + dottedPath(issue.path), message: issue.message }));
}

export function dottedPath(parts: readonly PropertyKey[]): string {
  let out = '';
  for (const part of parts) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
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
