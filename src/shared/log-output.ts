/**
 * How a log line leaves the process: a JSON line (as journald and `jq` want it), the same line
 * behind an sd-daemon priority prefix (`<4>{"level":"warn",…}`) when stdout is the journal, or a
 * pino-pretty rendering for a person at a terminal.
 *
 * The decision is a pure function of what the CLI saw (a flag, whether stdout is a TTY, systemd's
 * `JOURNAL_STREAM`), so that no module but the CLI reads the process. The rendering happens on the
 * main thread, in the write of the destination, not in a pino transport: a worker thread per
 * process would add a hop per line, and a line still queued for it is lost when the daemon exits
 * at once (a stop past its bound).
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream } from 'pino';
import type PinoPretty from 'pino-pretty';

/** JSON lines (with journald priority prefixes or without), or pino-pretty for a terminal. */
export type LogOutput = { format: 'json'; levelPrefix: boolean } | { format: 'pretty'; colorize: boolean };

/** The default: one JSON object per line, exactly as pino writes it. */
export const JSON_LINES: LogOutput = { format: 'json', levelPrefix: false };

/** What the CLI knows about where its stdout goes. */
export interface LogSurroundings {
  /** `--pretty` (true), `--no-pretty` (false), or neither (undefined: pretty only on a terminal). */
  pretty: boolean | undefined;
  stdoutIsTty: boolean;
  /** `$JOURNAL_STREAM`: systemd sets it to `<device>:<inode>` of the stream it connects to the journal. */
  journalStream: string | undefined;
  /** stdout's own `<device>:<inode>` (fstat of fd 1), undefined when it cannot be read. */
  stdoutId: string | undefined;
  /** `$NO_COLOR` is set to something (no-color.org). */
  noColor: boolean;
}

export function decideLogOutput(surroundings: LogSurroundings): LogOutput {
  if (surroundings.pretty ?? surroundings.stdoutIsTty) return { format: 'pretty', colorize: surroundings.stdoutIsTty && !surroundings.noColor };
  return { format: 'json', levelPrefix: isJournalStream(surroundings.journalStream, surroundings.stdoutId) };
}

/**
 * True when stdout is the stream systemd connected to the journal. `JOURNAL_STREAM` alone is not
 * enough: a child process inherits the variable while its stdout goes elsewhere (a pipe to `jq`),
 * so systemd documents comparing it with stdout's device and inode.
 */
export function isJournalStream(journalStream: string | undefined, stdoutId: string | undefined): boolean {
  const pattern = /^(\d+):(\d+)$/;
  const journal = pattern.exec(journalStream?.trim() ?? '');
  const stdout = pattern.exec(stdoutId ?? '');
  if (!journal || !stdout) return false;
  return BigInt(journal[1]!) === BigInt(stdout[1]!) && BigInt(journal[2]!) === BigInt(stdout[2]!);
}

/**
 * The sd-daemon prefix of a pino level: journald (`SyslogLevelPrefix=yes`, the default) strips it
 * and files the line under that syslog priority, so `journalctl -p warning` shows warn and worse.
 * fatal → 2 crit, error → 3 err, warn → 4 warning, info → 6 info, debug and trace → 7 debug.
 */
export function syslogPrefix(level: number): string {
  if (level >= 60) return '<2>';
  if (level >= 50) return '<3>';
  if (level >= 40) return '<4>';
  if (level >= 30) return '<6>';
  return '<7>';
}

/** What pino may call on a destination besides `write` (sonic-boom has all of them). */
interface Flushable extends DestinationStream {
  flush?(cb?: (error?: Error) => void): void;
  flushSync?(): void;
}

/**
 * A destination that rewrites each serialized line (already scrubbed by the logger's `streamWrite`
 * hook) before handing it to `target`, knowing the line's level: pino sets `lastLevel` on a
 * destination that asks for metadata, just before it calls `write`. One synchronous call per line;
 * `flush` and `flushSync` reach the target, so the CLI's flush before an exit still holds.
 */
export function mapLines(target: DestinationStream, map: (line: string, level: number) => string): DestinationStream {
  const sink = target as Flushable;
  return {
    [pino.symbols.needsMetadataGsym]: true,
    lastLevel: 30,
    write(this: { lastLevel: number }, line: string) {
      sink.write(map(line, this.lastLevel));
    },
    flush(cb?: (error?: Error) => void) {
      if (sink.flush) sink.flush(cb);
      else cb?.();
    },
    flushSync() {
      sink.flushSync?.();
    },
  } as DestinationStream;
}

/** Control characters that could move the cursor or recolour a terminal (tab and newline are kept). */
// eslint-disable-next-line no-control-regex
const UNSAFE_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** The error code of a line: `code` beside the message, or the logged error's own (`err.code`). */
function codeOf(line: Record<string, unknown>): string | undefined {
  const err = line.err as { code?: unknown } | undefined;
  const code = line.code ?? err?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
}

/**
 * A function from a JSON line to its pino-pretty rendering: local time, the level, the error code
 * first (`WARN: FILE_EMPTY file rejected: …`), then the other fields indented below, colours only
 * when asked. pino-pretty is loaded here, on first use, so that a CLI command that logs as JSON
 * (or not at all) never pays for it.
 */
export function prettifier(colorize: boolean): (line: string) => string {
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return prettyFactory({
    colorize,
    translateTime: 'SYS:standard',
    // `service` is the same on every line; `code` is shown in front of the message.
    ignore: 'service,code',
    messageFormat: (line, messageKey, _levelLabel, { colors }) => {
      // pino-pretty strips control characters from a message it formats itself, not from ours.
      const message = String(line[messageKey] ?? '').replace(UNSAFE_CONTROL, '');
      const code = codeOf(line)?.replace(UNSAFE_CONTROL, '');
      return code ? `${colors.bold(code)} ${message}` : message;
    },
  });
}
