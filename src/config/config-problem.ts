/**
 * One problem of a config or mapping file, and the error that lists them all. A problem names its
 * key path; where the key is written in the file it names the line and column too, so that
 * `check` prints `platform.sourceSytem (line 9, column 3): unknown key; did you mean sourceSystem?`.
 */
import { ConnectorError, type MessageText } from '../errors.js';

export interface ConfigProblem {
  /** Dotted key path (`flows[0].inbox`); empty for the whole file. */
  path: string;
  message: string;
  /** A secret reference that could not be resolved (SECRET_UNAVAILABLE). */
  secret?: boolean;
  /**
   * Where the problem is (1-based line and column of the file), for a person and an editor to go
   * to: a YAML syntax error (its message says where too), an unknown key.
   */
  line?: number;
  column?: number;
  /** The message as the console words it (`issue-text.ts`); `message` stays the English of `check` and the log. */
  text?: MessageText;
}

export type ConfigErrorCode = 'CONFIG_INVALID' | 'MAPPING_INVALID' | 'SECRET_UNAVAILABLE';

/** `file is invalid:` and one line per problem: `  path (line 9, column 3): message`. */
export function configError(file: string, problems: ConfigProblem[], code: ConfigErrorCode = 'CONFIG_INVALID'): ConnectorError {
  const lines = problems.map((p) => `  ${p.path || '(file)'}${placeOf(p)}: ${p.message}`);
  return new ConnectorError(code, `${file} is invalid:\n${lines.join('\n')}`, { details: { file, problems } });
}

/** ` (line 9, column 3)` after a key path; nothing for a problem of the file, whose message words its place itself. */
function placeOf(problem: ConfigProblem): string {
  if (problem.path === '' || problem.line === undefined) return '';
  return problem.column === undefined ? ` (line ${problem.line})` : ` (line ${problem.line}, column ${problem.column})`;
}

/** `['flows', 0, 'intake']` as `flows[0].intake`. */
export function dottedPath(parts: readonly PropertyKey[]): string {
  let out = '';
  for (const part of parts) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
}
