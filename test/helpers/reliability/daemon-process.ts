/**
 * The daemon as a child process (`node dist/src/cli.js run --config <file>`), the way systemd runs
 * it: started, killed with SIGKILL at any moment, started again on the same state. Its stdout and
 * stderr are appended to files across restarts, so the secrets test can grep every line it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { waitUntil } from '../wait-until.js';

const CLI = path.resolve('dist/src/cli.js');

export interface DaemonProcess {
  /** `http://127.0.0.1:<port>` of the webhook listener (its `/healthz` says the daemon is up). */
  readonly webhookBase: string;
  /** Start (again); resolves once `/healthz` answers 200. */
  start(): Promise<void>;
  /** SIGKILL, no goodbye; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit; returns the exit code. */
  stop(): Promise<number | null>;
  /** Whether the current process is alive (has not exited). */
  alive(): boolean;
  /** How many times it was started, and how many times it died without being asked to. */
  readonly starts: number;
  readonly unexpectedExits: number;
}

export interface DaemonProcessOptions {
  configFile: string;
  webhookPort: number;
  /** stdout and stderr are appended here (`daemon.stdout.log`, `daemon.stderr.log`). */
  logDir: string;
  /** Bound on each wait of a start (`/healthz`, then the start log line). Default 30 s, then 60 s. */
  startTimeoutMs?: number;
}

export function createDaemonProcess(options: DaemonProcessOptions): DaemonProcess {
  const webhookBase = `http://127.0.0.1:${options.webhookPort}`;
  let child: ChildProcess | null = null;
  let exited: Promise<number | null> = Promise.resolve(null);
  let running = false;
  let expectingExit = false;
  let starts = 0;
  let unexpectedExits = 0;

  const healthy = async (): Promise<boolean> => {
    try {
      const res = await request(`${webhookBase}/healthz`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
      await res.body.dump();
      return res.statusCode === 200;
    } catch {
      return false;
    }
  };

  return {
    webhookBase,
    get starts() {
      return starts;
    },
    get unexpectedExits() {
      return unexpectedExits;
    },
    alive: () => running,
    async start() {
      if (running) throw new Error('daemon already running');
      const out = fs.openSync(path.join(options.logDir, 'daemon.stdout.log'), 'a');
      const err = fs.openSync(path.join(options.logDir, 'daemon.stderr.log'), 'a');
      const spawned = spawn(process.execPath, [CLI, 'run', '--config', options.configFile], {
        stdio: ['ignore', out, err],
        env: { ...process.env, NODE_ENV: 'production' },
      });
      fs.closeSync(out);
      fs.closeSync(err);
      child = spawned;
      running = true;
      expectingExit = false;
      starts += 1;
      exited = new Promise((resolve) => {
        spawned.once('exit', (code) => {
          running = false;
          if (!expectingExit) unexpectedExits += 1;
          resolve(code);
        });
      });
      await waitUntil(
        async () => {
          if (!running) throw new Error(`the daemon exited during start: ${lastLines(options.logDir)}`);
          return healthy();
        },
        'the daemon /healthz',
        options.startTimeoutMs ?? 30_000,
      );
      // /healthz answers as soon as the webhook listener is up, before intake recovery and the
      // signal handlers: "up" is the start log line (a SIGTERM before it kills the process outright).
      const stdoutLog = path.join(options.logDir, 'daemon.stdout.log');
      await waitUntil(
        () => {
          if (!running) throw new Error(`the daemon exited during start: ${lastLines(options.logDir)}`);
          return fs.readFileSync(stdoutLog, 'utf8').split('"msg":"connector started"').length - 1 >= starts;
        },
        'the "connector started" log line',
        options.startTimeoutMs ?? 60_000,
      );
    },
    async kill() {
      if (!child || !running) return;
      expectingExit = true;
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!child || !running) return exited;
      expectingExit = true;
      child.kill('SIGTERM');
      const timeout = sleep(40_000).then(() => 'timeout' as const);
      const result = await Promise.race([exited, timeout]);
      if (result === 'timeout') {
        child.kill('SIGKILL');
        await exited;
        throw new Error('the daemon did not stop within 40 s of SIGTERM');
      }
      return result;
    },
  };
}

/** The last lines the daemon wrote to stdout and stderr, for a failure's message (the folder may be gone when it is read). */
function lastLines(logDir: string): string {
  const tail = (name: string) =>
    fs.existsSync(path.join(logDir, name)) ? fs.readFileSync(path.join(logDir, name), 'utf8').trimEnd().split('\n').slice(-3).join('\n') : '';
  return `stdout: ${tail('daemon.stdout.log')}\nstderr: ${tail('daemon.stderr.log')}`;
}

/** Run `fn` with a daemon process that is always killed afterwards (the test may have stopped it). */
export async function withDaemonProcess<T>(options: DaemonProcessOptions, fn: (daemon: DaemonProcess) => Promise<T>): Promise<T> {
  const daemon = createDaemonProcess(options);
  try {
    return await fn(daemon);
  } finally {
    await daemon.kill();
  }
}
