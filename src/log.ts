/**
 * The root pino logger (JSON lines on stdout, read by journald; pretty on a terminal) and its
 * redaction. Where lines go and in which form is `src/shared/log-output.ts`.
 *
 * Two layers keep secrets out of the log:
 * 1. pino's `redact` blanks fields that hold secrets by name (token, secret, signature headers…);
 * 2. every serialized line passes `scrubSecrets`, which replaces each secret value registered with
 *    `registerSecret` wherever it appears (inside a URL, an error message, a stack) and blanks the
 *    token path segment of any platform URL (`/api/v1/<token>/`).
 * The second layer is the one that cannot be forgotten by a future log call.
 */
import { pino, type Logger, type LoggerOptions, type DestinationStream } from 'pino';
import { JSON_LINES, mapLines, prettifier, syslogPrefix, type LogOutput } from './shared/log-output.js';

export type { Logger } from 'pino';

export const REDACTED = '[REDACTED]';

const secrets = new Set<string>();
let secretPattern: RegExp | null = null;
/** The same alternatives without the global flag, for a test that keeps no state between calls. */
let secretTest: RegExp | null = null;

/** Field paths blanked by name wherever a log call passes them. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'secret',
  '*.secret',
  'secrets',
  '*.secrets',
  'headers["x-service-signature"]',
  '*.headers["x-service-signature"]',
  'headers.authorization',
  '*.headers.authorization',
  'platform.token',
  'webhook.secrets',
];

/**
 * Remember a secret value so that no log line, error text or platform error body the daemon keeps
 * can carry it. Any length is scrubbed there (a short secret makes logs harder to read, never
 * leakier; `check` warns of short webhook secrets and console passwords). The values the daemon
 * exports or stores as data (an externalId, an order id) are never scrubbed: a secret that reads
 * like part of one must not rewrite the ERP's data. Each secret is matched as written, URL-encoded,
 * and JSON-escaped (how it appears inside a serialized log line).
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value || secrets.has(value)) return;
  secrets.add(value);
  const alternatives = [...new Set([...secrets].flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]))]
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  secretPattern = new RegExp(alternatives.join('|'), 'g');
  secretTest = new RegExp(alternatives.join('|'));
}

const TOKEN_SEGMENT = /(\/api\/v1\/)[^/\s"?#]+/g;

/** Replace registered secrets and URL token segments in a string. */
export function scrubSecrets(text: string): string {
  let out = text.replace(TOKEN_SEGMENT, `$1${REDACTED}`);
  if (secretPattern) out = out.replace(secretPattern, REDACTED);
  return out;
}

/** `TOKEN_SEGMENT` without the global flag, for a test that keeps no state between calls. */
const TOKEN_SEGMENT_TEST = new RegExp(TOKEN_SEGMENT.source);

/**
 * Could `value` (made of plain objects, arrays, strings, numbers) carry a registered secret or a
 * URL token segment? One test of its JSON text, where `scrubDeep` copies it and runs two
 * replacements on each of its strings and keys. Where it answers false, `scrubDeep` would change
 * nothing: each secret is also matched as JSON escapes it, and JSON text only adds characters
 * (quotes, backslashes) that a token segment's test reads as the start of a token. A value JSON
 * cannot write answers true.
 */
export function mayCarrySecret(value: unknown): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return true;
  }
  if (text === undefined) return false;
  return TOKEN_SEGMENT_TEST.test(text) || (secretTest !== null && secretTest.test(text));
}

/**
 * `scrubSecrets` applied to every string inside a value (object keys and values, array items),
 * for what could carry a secret and is kept rather than logged: the platform's problem details
 * (which may echo a request's URL), an error serialized for a log line. Never for the ERP's or the
 * platform's data. Returns a copy; non-string leaves are kept as they are.
 */
export function scrubDeep<T>(value: T): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrubSecrets(k), scrubDeep(v)])) as T;
  }
  return value;
}

/**
 * The one error serializer of every log line (`{ err: error }`): pino's standard one (type,
 * message with its causes, the stack with its causes, and own fields such as a ConnectorError's
 * `code` and `details`), scrubbed of secrets. A thrown value that is not an Error becomes
 * `{ message }`. Call sites pass the error itself, never `describeError(error)`, so the stack is
 * never lost.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  const serialized: unknown = error instanceof Error ? pino.stdSerializers.err(error) : { type: typeof error, message: String(error) };
  // pino builds it on a prototype of its own; a plain copy is what scrubDeep walks.
  return scrubDeep({ ...(serialized as Record<string, unknown>) });
}

export interface CreateLoggerOptions {
  level?: string;
  /** Where lines go; stdout by default (journald collects it under systemd). */
  destination?: DestinationStream;
  /**
   * The form of each line: JSON (default), JSON behind a journald priority prefix, or pretty. The
   * CLI decides it (`decideLogOutput`) from `--pretty`, the terminal and `JOURNAL_STREAM`.
   */
  output?: LogOutput;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const pinoOptions: LoggerOptions = {
    level: options.level ?? 'info',
    base: { service: 'procurement-connector' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError },
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: scrubSecrets },
  };
  return pino(pinoOptions, formDestination(options.destination ?? pino.destination({ dest: 1, sync: false }), options.output ?? JSON_LINES));
}

/**
 * The destination in the chosen form. The line it receives is already scrubbed (`streamWrite`);
 * the pretty rendering is scrubbed once more, since it unescapes what the JSON escaped.
 */
function formDestination(destination: DestinationStream, output: LogOutput): DestinationStream {
  if (output.format === 'pretty') {
    const pretty = prettifier(output.colorize);
    return mapLines(destination, (line) => scrubSecrets(pretty(line)));
  }
  return output.levelPrefix ? mapLines(destination, (line, level) => syslogPrefix(level) + line) : destination;
}

/** A logger that discards everything, for code paths run without a daemon (CLI previews, tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
