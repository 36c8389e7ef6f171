/**
 * The real CLI as a child process, for what only a process shows: exit codes, signals, OS locks.
 * `buildCli()` compiles src/ into its own folder under dist/ (so that test files building at the
 * same time, or a developer's `npm run build`, never see half-written files) and removes it after.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { REPO } from './with-daemon.js';
import { waitUntil } from './wait-until.js';

export interface BuiltCli {
  /** `dist/test-cli-XXXXXX/src/cli.js`. */
  readonly cli: string;
  remove(): void;
}

export async function buildCli(): Promise<BuiltCli> {
  fs.mkdirSync(path.join(REPO, 'dist'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(REPO, 'dist', 'test-cli-'));
  const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir, '--sourceMap', 'false'], { cwd: REPO });
  return { cli: path.join(outDir, 'src/cli.js'), remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}

export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** The JSON log lines written so far (stdout). */
  logLines(): Record<string, unknown>[];
  /** Resolves with the exit code and signal once the process is gone. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the `connector started` log line (it carries the listeners' URLs). */
  started(): Promise<Record<string, unknown>>;
  /** SIGKILL unless already gone. */
  kill(): Promise<void>;
}

/** Every process spawned and not yet gone, so that a failed test leaves none behind. */
const running = new Set<CliProcess>();

/** SIGKILL whatever a test left running (call it in afterEach). */
export async function killLeftovers(): Promise<void> {
  await Promise.all([...running].map((cli) => cli.kill()));
}

export function spawnCli(built: BuiltCli, args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [built.cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  let gone = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => {
      gone = true;
      resolve({ code, signal });
    });
  });
  const logLines = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const cli: CliProcess = {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    logLines,
    exited,
    async started() {
      await waitUntil(
        () => {
          if (gone) throw new Error(`the daemon exited during start:\n${err}${out}`);
          return logLines().some((line) => line.msg === 'connector started');
        },
        'the "connector started" log line',
        20_000,
      );
      return logLines().find((line) => line.msg === 'connector started')!;
    },
    async kill() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
  running.add(cli);
  void exited.then(() => running.delete(cli));
  return cli;
}

/**
 * For a test file: build the CLI once before its tests (and remove it after them), and SIGKILL
 * whatever a test left running. Returns the build, to be read inside the tests.
 */
export function useBuiltCli(): () => BuiltCli {
  let built: BuiltCli | undefined;
  beforeAll(async () => {
    built = await buildCli();
  }, 180_000);
  afterEach(killLeftovers);
  afterAll(() => built?.remove());
  return () => {
    if (!built) throw new Error('the CLI is not built yet: call it inside a test');
    return built;
  };
}
