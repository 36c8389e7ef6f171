/**
 * Reading a config or mapping file as YAML, defensively (a size cap, no NUL bytes, strict UTF-8, a
 * depth limit before the parser recurses, no alias bombs or cycles), into plain data and the
 * places of its keys: a problem found later, by the schema, can then name the line and column of
 * the key it is about.
 */
import fs from 'node:fs';
import YAML, { LineCounter, Parser, isMap, isNode, isScalar, isSeq, type CST, type Document, type Scalar } from 'yaml';
import { ConnectorError, type MessageText } from '../errors.js';
import { configError, type ConfigProblem } from './config-problem.js';
import { YAML_ERROR_KEYS } from './yaml-error-keys.js';

/** A line and column of a file, 1-based. */
export interface YamlPlace {
  line: number;
  column: number;
}

/** A YAML file read: its data, and where each key of it is written. */
export interface YamlSource {
  data: Record<string, unknown>;
  /** Where the key at `path` is written; undefined when the text does not write it. */
  keyPlace(path: readonly PropertyKey[]): YamlPlace | undefined;
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

/** The console's text of one of the yaml package's errors (`said`: its first line, without the place it names). */
export function yamlErrorText(error: { code: string; message: string }): MessageText {
  const key = YAML_ERROR_KEYS[error.code];
  if (key !== undefined) return { key };
  const said = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
  return { key: 'yamlSyntax', params: { said } };
}

/**
 * Parse a YAML file into a plain mapping. `CONFIG_NOT_FOUND` when it cannot be opened; otherwise
 * anything that keeps it from being a readable YAML mapping (a folder, a FIFO, too large, a NUL
 * byte, invalid UTF-8, a YAML error, an alias bomb, a cycle, a list or scalar at the top) is
 * `CONFIG_INVALID` for the config and `MAPPING_INVALID` for a mapping, naming the file: both exit 2,
 * so systemd's `RestartPreventExitStatus=2` stops restarting a config that cannot work.
 */
export function readYamlFile(file: string, what: string): Record<string, unknown> {
  return readYamlSource(file, what).data;
}

/** `readYamlFile` with the places of the file's keys, for messages that point into it. */
export function readYamlSource(file: string, what: string): YamlSource {
  const invalid = (message: string, text: MessageText): ConnectorError => configError(file, [{ path: '', message, text }], codeFor(what));
  return parseYamlSource(readSmallFile(file, what, invalid), file, what);
}

/**
 * The checks of `readYamlFile` after the read, for bytes that come from elsewhere (the console's
 * mapping editor): NUL bytes, UTF-8, YAML (each syntax error with its `line` and `column`),
 * aliases, cycles, a mapping at the top. `file` names the source in the messages.
 */
export function parseYamlBytes(bytes: Buffer, file: string, what: string): Record<string, unknown> {
  return parseYamlSource(bytes, file, what).data;
}

/** `parseYamlBytes` with the places of the text's keys. */
export function parseYamlSource(bytes: Buffer, file: string, what: string): YamlSource {
  const code = codeFor(what);
  const invalid = (message: string, text: MessageText): ConnectorError => configError(file, [{ path: '', message, text }], code);
  if (bytes.length > MAX_YAML_BYTES) {
    throw invalid(`is ${bytes.length} bytes, more than the ${MAX_YAML_BYTES} a ${what} file may have`, {
      key: 'yamlTooLarge',
      params: { size: bytes.length, max: MAX_YAML_BYTES },
    });
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw invalid(`contains a NUL byte at offset ${nul}: not a text file`, { key: 'yamlNul', params: { offset: nul } });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('is not valid UTF-8 text', { key: 'yamlNotUtf8' });
  }
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const { line, col } = lineAndColumn(text, deep);
    const message = `nests deeper than ${MAX_YAML_DEPTH} levels at line ${line}, column ${col}`;
    throw configError(file, [{ path: '', message, line, column: col, text: { key: 'yamlTooDeep', params: { max: MAX_YAML_DEPTH } } }], code);
  }
  let data: unknown;
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = YAML.parseDocument(text, { prettyErrors: true, lineCounter });
    if (doc.errors.length > 0) {
      const problems: ConfigProblem[] = doc.errors.slice(0, MAX_LISTED_ERRORS).map((e) => ({
        path: '',
        // The first line says what and where (`… at line 3, column 1:`); the rest is a drawing of the line.
        message: (e.message.split('\n')[0] ?? e.message).replace(/:$/, ''),
        text: yamlErrorText(e),
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      }));
      if (doc.errors.length > MAX_LISTED_ERRORS) {
        const n = doc.errors.length - MAX_LISTED_ERRORS;
        problems.push({ path: '', message: `… and ${n} more YAML errors`, text: { key: 'yamlMoreErrors', params: { n } } });
      }
      throw configError(file, problems, code);
    }
    // maxAliasCount (the yaml package's default, said out loud) stops a "billion laughs" file,
    // whose few aliases expand to millions of nodes, with a throw instead of filling the memory.
    data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    const said = (error as Error).message ?? String(error);
    throw invalid(`cannot be read as YAML: ${said}`, { key: 'yamlUnreadable', params: { said } });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalid('must be a YAML mapping (key: value pairs)', { key: 'notAMapping' });
  const shape = cycleOrDepth(data);
  if (shape === 'cycle') throw invalid('an alias refers to a node that contains it (a cycle)', { key: 'yamlAliasCycle' });
  if (shape === 'deep') throw invalid(`nests deeper than ${MAX_YAML_DEPTH} levels (through aliases)`, { key: 'yamlTooDeep', params: { max: MAX_YAML_DEPTH } });
  return { data: data as Record<string, unknown>, keyPlace: (path) => keyPlaceIn(doc, lineCounter, path) };
}

function codeFor(what: string): 'CONFIG_INVALID' | 'MAPPING_INVALID' {
  return what === 'config' ? 'CONFIG_INVALID' : 'MAPPING_INVALID';
}

/**
 * Where the key at `path` is written (`['flows', 1, 'intake', 'stableFor']`): the start of the
 * key, or of the list item for an index. Undefined when the text does not write it (a default, a
 * key reached through an alias or a merge).
 */
function keyPlaceIn(doc: Document.Parsed, lineCounter: LineCounter, path: readonly PropertyKey[]): YamlPlace | undefined {
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
      if (pair === undefined) return undefined;
      offset = (pair.key as Scalar).range?.[0];
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
      offset = isNode(node) ? node.range?.[0] : undefined;
    } else {
      return undefined;
    }
  }
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** Why a file could not be opened, in words: a missing file and missing rights said plainly, anything else with the system's message. */
function cannotOpen(what: string, file: string, error: unknown): { message: string; text: MessageText } {
  const errno = (error as NodeJS.ErrnoException).code ?? 'EIO';
  if (errno === 'ENOENT') return { message: `The ${what} file ${file} does not exist (ENOENT)`, text: { key: 'fileNotFound', params: { file } } };
  if (errno === 'EACCES') {
    return {
      message: `The ${what} file ${file} cannot be read: the service user has no right to it (EACCES)`,
      text: { key: 'fileNoAccess', params: { file } },
    };
  }
  return { message: `Cannot read the ${what} file ${file}: ${(error as Error).message}`, text: { key: 'fileCannotOpen', params: { file, errno } } };
}

/** The bytes of a regular file of at most MAX_YAML_BYTES, opened without blocking (a FIFO would). */
function readSmallFile(file: string, what: string, invalid: (message: string, text: MessageText) => ConnectorError): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const { message, text } = cannotOpen(what, file, error);
    throw new ConnectorError('CONFIG_NOT_FOUND', message, { cause: error, text, details: { file, errno: (error as NodeJS.ErrnoException).code } });
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw invalid('is a directory, not a file', { key: 'notRegularFile' });
    if (!stat.isFile()) throw invalid('is not a regular file', { key: 'notRegularFile' });
    if (stat.size > MAX_YAML_BYTES) {
      throw invalid(`is ${stat.size} bytes, more than the ${MAX_YAML_BYTES} a ${what} file may have`, {
        key: 'yamlTooLarge',
        params: { size: stat.size, max: MAX_YAML_BYTES },
      });
    }
    // Read one byte past the limit: the file may have grown since fstat.
    const buffer = Buffer.alloc(MAX_YAML_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > MAX_YAML_BYTES) {
      throw invalid(`is more than the ${MAX_YAML_BYTES} bytes a ${what} file may have`, { key: 'yamlTooLarge', params: { size: length, max: MAX_YAML_BYTES } });
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    const { message, text } = cannotOpen(what, file, error);
    throw new ConnectorError('CONFIG_NOT_FOUND', message, { cause: error, text, details: { file, errno: (error as NodeJS.ErrnoException).code } });
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
