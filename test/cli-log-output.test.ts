/**
 * The built CLI's log, as a person and as journald see it: pretty on a pseudo-terminal (util-linux
 * `script`) and with --pretty, JSON lines on a pipe, and journald priority prefixes when
 * JOURNAL_STREAM names stdout's own device and inode.
 *
 * Each case runs `run` on a config that logs at several levels within a second or two: a short
 * webhook secret (a config warning), debug lines, and a request the sandbox refuses for its token
 * (error PLATFORM_UNAUTHORIZED, a line with a code). The daemon is then stopped with SIGTERM (its
 * PID from the PID file, since under `script` it is not our child).
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/sandbox/index.js';
import { withTempDir } from './helpers/temp-dir.js';
import { waitUntil } from './helpers/wait-until.js';
import { REPO, REQUESTS_FLOW } from './helpers/with-daemon.js';
import { withSandbox } from './helpers/with-sandbox.js';
import { dropFile, requestFile } from './helpers/reliability/request-files.js';
import { useBuiltCli } from './helpers/built-cli.js';

const built = useBuiltCli();

const TOKEN = 'cli-log-wrong-token-8841';
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const PRIORITY: Record<string, string> = { fatal: '<2>', error: '<3>', warn: '<4>', info: '<6>', debug: '<7>', trace: '<7>' };

/** A config whose run logs a warning, debug lines and an error with a code; one request waits in the inbox. */
function noisyConfig(dir: string, sandbox: Sandbox): string {
  fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
  dropFile(path.join(dir, 'inbox'), 'requests.csv', requestFile('LOG', 0, 1));
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(
    file,
    `
stateDir: ${dir}/state
platform: { baseUrl: "${sandbox.url}", token: ${TOKEN}, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW.replaceAll('{dir}', dir).replaceAll('{repo}', REPO)}
delivery: { pollIntervalMs: 20 }
webhook: { port: 0, secrets: [short] }
export: { folder: ${dir}/status, mapping: ${REPO}/config/mappings/status-export.yaml }
metrics: { enabled: false }
log: { level: debug }
`,
  );
  return file;
}

/** The environment of the tests' shell, without what would decide the log's form for it. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['JOURNAL_STREAM', 'NO_COLOR', 'FORCE_COLOR']) if (!(name in extra)) delete env[name];
  return env;
}

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

interface Launch {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where the process's stdout goes: a pipe read here (default), or a file descriptor. */
  stdout?: number;
}

/**
 * Run the daemon until it has logged PLATFORM_UNAUTHORIZED, stop it with SIGTERM and return what it
 * wrote (`read` gives stdout when it goes to a file). Whatever happens, nothing is left running.
 */
async function runUntilRefused(dir: string, launch: Launch, read?: () => string): Promise<string> {
  const stdio: StdioOptions = ['ignore', launch.stdout ?? 'pipe', 'pipe'];
  const child: ChildProcess = spawn(launch.command, launch.args, { stdio, env: launch.env ?? cleanEnv() });
  let piped = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (piped += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const output = read ?? (() => piped);
  const pidFile = path.join(dir, 'state', 'connector.pid');
  let daemonPid: number | undefined;
  try {
    await waitUntil(
      () => {
        if (gone) throw new Error(`the daemon exited early:\n${stderr}${output()}`);
        return output().includes('PLATFORM_UNAUTHORIZED') && fs.existsSync(pidFile);
      },
      'the PLATFORM_UNAUTHORIZED error in the log',
      20_000,
    );
    daemonPid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    process.kill(daemonPid, 'SIGTERM');
    expect(await exited, stderr).toBe(0);
    return output();
  } finally {
    if (!gone) {
      if (daemonPid) killQuietly(daemonPid);
      child.kill('SIGKILL');
      await exited;
    }
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The lines of `output` (a pty ends them with CRLF), without empty ones. */
const linesOf = (output: string): string[] => output.split(/\r?\n/).filter((line) => line !== '');

function expectPretty(output: string, colour: boolean): void {
  expect(output).not.toContain('{"level":');
  if (colour) expect(output).toMatch(ANSI);
  else expect(output).not.toMatch(ANSI);
  const lines = linesOf(output.replace(ANSI, ''));
  const stamp = /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\] /;
  // The code first, then the message.
  expect(lines.some((line) => stamp.test(line) && /\] ERROR: PLATFORM_UNAUTHORIZED The platform refused the token of flow requests/.test(line))).toBe(true);
  expect(lines.some((line) => stamp.test(line) && /\] WARN: webhook\.secrets\[0\] is 5 characters long/.test(line))).toBe(true);
  expect(lines.some((line) => stamp.test(line) && /\] INFO: connector started$/.test(line))).toBe(true);
  expect(output).not.toContain(TOKEN);
}

function expectJsonLines(output: string): Record<string, unknown>[] {
  const lines = linesOf(output);
  expect(lines.length).toBeGreaterThan(5);
  const parsed = lines.map((line) => {
    expect(line).toMatch(/^\{"level":"/);
    return JSON.parse(line) as Record<string, unknown>;
  });
  expect(parsed.some((line) => line.level === 'warn' && /webhook\.secrets\[0\] is 5 characters long/.test(String(line.msg)))).toBe(true);
  expect(parsed.some((line) => line.level === 'error' && line.code === 'PLATFORM_UNAUTHORIZED')).toBe(true);
  expect(output).not.toMatch(ANSI);
  expect(output).not.toContain(TOKEN);
  return parsed;
}

/** Run with stdout to a file (whose device and inode a test can name), JOURNAL_STREAM set by `journalStream`. */
async function runToFile(dir: string, config: string, journalStream: (dev: bigint, ino: bigint) => string): Promise<string> {
  const file = path.join(dir, 'stdout.log');
  const fd = fs.openSync(file, 'w');
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    const env = cleanEnv({ JOURNAL_STREAM: journalStream(stat.dev, stat.ino) });
    return await runUntilRefused(dir, { command: process.execPath, args: [built().cli, 'run', '-c', config], env, stdout: fd }, () =>
      fs.readFileSync(file, 'utf8'),
    );
  } finally {
    fs.closeSync(fd);
  }
}

describe('run: the log on a terminal', () => {
  it('is pretty on a pseudo-terminal: colours, local time, the error code before the message', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const command = [process.execPath, built().cli, 'run', '-c', config].map(quote).join(' ');
        const output = await runUntilRefused(dir, { command: 'script', args: ['-q', '-c', command, '/dev/null'] });
        expectPretty(output, true);
      });
    });
  });

  it('is JSON lines on a pseudo-terminal with --no-pretty', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const command = [process.execPath, built().cli, '--no-pretty', 'run', '-c', config].map(quote).join(' ');
        const output = await runUntilRefused(dir, { command: 'script', args: ['-q', '-c', command, '/dev/null'] });
        expectJsonLines(output);
      });
    });
  });
});

describe('run: the log on a pipe', () => {
  it('is one JSON object per line, as before', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const output = await runUntilRefused(dir, { command: process.execPath, args: [built().cli, 'run', '-c', config] });
        const lines = expectJsonLines(output);
        expect(lines.some((line) => line.level === 'debug')).toBe(true);
      });
    });
  });

  it('is pretty with --pretty (after the command name too), without colour codes', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const output = await runUntilRefused(dir, { command: process.execPath, args: [built().cli, 'run', '-c', config, '--pretty'] });
        expectPretty(output, false);
      });
    });
  });
});

describe('run: the log under systemd (JOURNAL_STREAM)', () => {
  it("starts every line with the syslog priority of its level when JOURNAL_STREAM is stdout's device:inode", async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const output = await runToFile(dir, config, (dev, ino) => `${dev}:${ino}`);
        const lines = linesOf(output);
        expect(lines.length).toBeGreaterThan(5);
        const levels = lines.map((line) => {
          const match = /^(<\d>)(\{.*)$/.exec(line);
          expect(match, line).not.toBeNull();
          const level = String((JSON.parse(match![2]!) as { level: string }).level);
          expect(match![1], line).toBe(PRIORITY[level]);
          return level;
        });
        expect(levels).toEqual(expect.arrayContaining(['debug', 'info', 'warn', 'error']));
        expect(lines.some((line) => line.startsWith('<4>{"level":"warn"') && line.includes('is 5 characters long'))).toBe(true);
        expect(lines.some((line) => line.startsWith('<3>{"level":"error"') && line.includes('"code":"PLATFORM_UNAUTHORIZED"'))).toBe(true);
      });
    });
  });

  it('writes plain JSON lines when JOURNAL_STREAM names another stream (inherited, stdout redirected)', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = noisyConfig(dir, sandbox);
        const output = await runToFile(dir, config, (dev, ino) => `${dev}:${ino + 1n}`);
        expectJsonLines(output);
      });
    });
  });
});
