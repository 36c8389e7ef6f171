import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../src/errors.js';
import { createLogger, registerSecret, REDACTED } from '../../src/log.js';
import { decideLogOutput, isJournalStream, syslogPrefix, type LogSurroundings } from '../../src/shared/log-output.js';

/** A destination that keeps what it is given, write by write. */
function capture(): { writes: string[]; stream: Writable; text(): string } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return { writes, stream, text: () => writes.join('') };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

describe('decideLogOutput', () => {
  const terminal: LogSurroundings = { pretty: undefined, stdoutIsTty: true, journalStream: undefined, stdoutId: '8:1', noColor: false };
  const pipe: LogSurroundings = { ...terminal, stdoutIsTty: false };
  it.each<[string, LogSurroundings, ReturnType<typeof decideLogOutput>]>([
    ['a terminal: pretty, in colour', terminal, { format: 'pretty', colorize: true }],
    ['a terminal with NO_COLOR: pretty, no colour', { ...terminal, noColor: true }, { format: 'pretty', colorize: false }],
    ['a terminal with --no-pretty: JSON', { ...terminal, pretty: false }, { format: 'json', levelPrefix: false }],
    ['a pipe: JSON lines as ever', pipe, { format: 'json', levelPrefix: false }],
    ['a pipe with --pretty: pretty, no colour codes in a file', { ...pipe, pretty: true }, { format: 'pretty', colorize: false }],
    ['the journal (JOURNAL_STREAM is stdout): prefixed JSON', { ...pipe, journalStream: '8:1' }, { format: 'json', levelPrefix: true }],
    ['JOURNAL_STREAM inherited, stdout elsewhere: plain JSON', { ...pipe, journalStream: '8:2' }, { format: 'json', levelPrefix: false }],
    ['the journal with --pretty: pretty, as asked', { ...pipe, journalStream: '8:1', pretty: true }, { format: 'pretty', colorize: false }],
  ])('%s', (_what, surroundings, expected) => {
    expect(decideLogOutput(surroundings)).toEqual(expected);
  });
});

describe('isJournalStream', () => {
  it.each<[string | undefined, string | undefined, boolean]>([
    ['8:12345', '8:12345', true],
    ['8:12345\n', '8:12345', true],
    ['0008:12345', '8:12345', true],
    ['18446744073709551615:9007199254740993', '18446744073709551615:9007199254740993', true],
    ['9007199254740993:1', '9007199254740992:1', false],
    ['8:12345', '8:12346', false],
    ['8:12345', '9:12345', false],
    [undefined, '8:12345', false],
    ['', '8:12345', false],
    ['8:12345', undefined, false],
    ['8-12345', '8:12345', false],
    ['8:12345:1', '8:12345', false],
  ])('JOURNAL_STREAM %j, stdout %j: %s', (journal, stdout, expected) => {
    expect(isJournalStream(journal, stdout)).toBe(expected);
  });
});

describe('syslogPrefix', () => {
  it.each([
    [60, '<2>'],
    [50, '<3>'],
    [40, '<4>'],
    [30, '<6>'],
    [20, '<7>'],
    [10, '<7>'],
  ])('pino level %i is %s', (level, prefix) => {
    expect(syslogPrefix(level)).toBe(prefix);
  });
});

describe('the logger with journald priority prefixes', () => {
  it('starts every line with the priority of its level, the rest is the same JSON line, scrubbed', async () => {
    registerSecret('journal-secret-31337');
    const { writes, stream } = capture();
    const log = createLogger({ level: 'trace', destination: stream, output: { format: 'json', levelPrefix: true } });
    const child = log.child({ component: 'intake' });
    log.trace('t');
    child.debug('d');
    log.info('i');
    child.warn({ code: 'FILE_EMPTY' }, 'w journal-secret-31337');
    log.error({ err: new Error('e') }, 'e');
    log.fatal('f');
    await settle();
    expect(writes.map((line) => line.slice(0, 3))).toEqual(['<7>', '<7>', '<6>', '<4>', '<3>', '<2>']);
    const lines = writes.map((line) => JSON.parse(line.slice(3)) as { level: string; msg: string });
    expect(lines.map((line) => line.level)).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
    expect(writes.join('')).not.toContain('journal-secret-31337');
    expect(lines[3]!.msg).toBe(`w ${REDACTED}`);
  });

  it('writes plain JSON lines without the prefix (the default)', async () => {
    const { writes, stream } = capture();
    createLogger({ destination: stream }).warn('w');
    await settle();
    expect(writes[0]).toMatch(/^\{"level":"warn",/);
  });
});

describe('the logger in pretty form', () => {
  it('puts the error code before the message (from `code` or from the logged error), with local time', async () => {
    const { text, stream } = capture();
    const log = createLogger({ destination: stream, output: { format: 'pretty', colorize: false } });
    log.warn({ code: 'FILE_EMPTY', to: '/srv/rejected/a.csv' }, 'file rejected: empty');
    log.error({ err: new ConnectorError('STORE_FAILED', 'disk full') }, 'recording failed');
    log.info('connector started');
    await settle();
    const lines = text().split('\n');
    expect(lines.some((line) => /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\] WARN: FILE_EMPTY file rejected: empty$/.test(line))).toBe(true);
    expect(lines.some((line) => /\] ERROR: STORE_FAILED recording failed$/.test(line))).toBe(true);
    expect(lines.some((line) => /\] INFO: connector started$/.test(line))).toBe(true);
    // Context below, indented; the stack of the error too.
    expect(text()).toContain('    to: "/srv/rejected/a.csv"');
    expect(text()).toMatch(/ConnectorError: disk full\n\s+at /);
    expect(text()).not.toContain('"level":');
    expect(text()).not.toMatch(ANSI);
  });

  it('colours when asked', async () => {
    const { text, stream } = capture();
    createLogger({ destination: stream, output: { format: 'pretty', colorize: true } }).warn({ code: 'FILE_EMPTY' }, 'file rejected');
    await settle();
    expect(text()).toMatch(ANSI);
    expect(text().replace(ANSI, '')).toMatch(/WARN: FILE_EMPTY file rejected\n$/);
  });

  it('scrubs secrets and platform URL tokens as the JSON form does, also where JSON escaped them', async () => {
    registerSecret('pretty-secret-"quoted"\\slash');
    registerSecret('pretty-token-4711');
    const { text, stream } = capture();
    const log = createLogger({ destination: stream, output: { format: 'pretty', colorize: true } });
    log.info({ url: 'http://p/api-gateway/api/v1/pretty-url-token/requests' }, 'sent');
    log.error({ err: new Error('refused pretty-token-4711'), code: 'PLATFORM_UNAUTHORIZED' }, 'refused with pretty-secret-"quoted"\\slash');
    log.warn({ nested: { deeper: `x=${encodeURIComponent('pretty-token-4711')}` }, token: 'by-name-token' }, 'encoded');
    await settle();
    const out = text();
    expect(out).not.toContain('pretty-url-token');
    expect(out).not.toContain('pretty-token-4711');
    expect(out).not.toContain('pretty-secret');
    expect(out).not.toContain('by-name-token');
    expect(out.split(REDACTED).length - 1).toBeGreaterThanOrEqual(5);
  });

  it('strips terminal control sequences from a message (a file name can carry them)', async () => {
    const { text, stream } = capture();
    createLogger({ destination: stream, output: { format: 'pretty', colorize: false } }).warn({ code: 'X\u001b[2J' }, 'file \u001b]0;owned\u0007a.csv');
    await settle();
    expect(text()).not.toContain('\u001b');
    expect(text()).not.toContain('\u0007');
    expect(text()).toContain('WARN: X[2J file ]0;owneda.csv');
  });

  it('flushes through to the destination (the CLI flushes before it exits)', async () => {
    const { stream } = capture();
    const log = createLogger({ destination: stream, output: { format: 'pretty', colorize: false } });
    log.info('last words');
    await new Promise<void>((resolve, reject) => log.flush((error) => (error ? reject(error) : resolve())));
  });
});
