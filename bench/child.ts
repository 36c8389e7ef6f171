/** The runner's side of a bench child: fork `worker.js` for one case, talk to it, collect its result. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FromChild, ToChild } from './case-channel.js';

const noop = (): void => undefined;

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker.js');

export interface CaseOutcome<R> {
  data: R;
  /** Peak resident set size of the child, in MiB. */
  maxRssMb: number;
}

export interface RunningCase<R> {
  /** Resolves with what the case passed to `channel.ready` (server-like cases). */
  ready: Promise<unknown>;
  /** Resolves when the case calls `channel.done()`. */
  done: Promise<void>;
  /** Ask a server-like case to finish. */
  stop(): void;
  /** The case's result; rejects when the case failed, crashed or timed out. */
  result: Promise<CaseOutcome<R>>;
}

/** Start a case in a fresh child process. The child is killed when it exceeds `timeoutMs`. */
export function startCase<R>(name: string, args: object, timeoutMs = 180_000): RunningCase<R> {
  const child: ChildProcess = fork(WORKER, [name, JSON.stringify(args)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_PROF=<folder>: every case writes a CPU profile there (docs/performance.md, "How to reproduce").
    execArgv: process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [],
  });
  let markReady: (info: unknown) => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<unknown>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => undefined); // a case that never calls ready() fails through `result` instead
  let markDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    markDone = resolve;
  });
  const result = new Promise<CaseOutcome<R>>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      failReady(error);
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(new Error(`bench case ${name} took longer than ${timeoutMs} ms; killed`));
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') markReady(message.info);
      else if (message.type === 'done') markDone();
      else if (message.type === 'error') fail(new Error(`bench case ${name} failed: ${message.message}`));
      else if (message.type === 'result' && !settled) {
        settled = true;
        resolve({ data: message.data as R, maxRssMb: message.maxRssKb / 1024 });
      }
    });
    child.on('error', (error) => fail(error));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`bench case ${name} exited (${signal ?? `code ${code}`}) without a result`));
    });
  });
  return {
    ready,
    done,
    stop: () => {
      if (child.connected) child.send({ type: 'stop' } satisfies ToChild);
    },
    result,
  };
}

/** Run a case to completion in its own child. */
export function runCase<R>(name: string, args: object, timeoutMs?: number): Promise<CaseOutcome<R>> {
  return startCase<R>(name, args, timeoutMs).result;
}

/**
 * Run `fn` with a server-like case started; the case is stopped afterwards and its result returned
 * with fn's. `done` resolves when the case says its timed work is over.
 */
export async function withServerCase<I, S, T>(
  name: string,
  args: object,
  fn: (info: I, done: Promise<void>) => Promise<T>,
  timeoutMs?: number,
): Promise<{ value: T; server: CaseOutcome<S> }> {
  const server = startCase<S>(name, args, timeoutMs);
  let value: T;
  try {
    const info = (await Promise.race([server.ready, server.result.then(() => Promise.reject(new Error(`${name} ended before it was ready`)))])) as I;
    // A case that fails before it is done ends the wait too (its result rejects below).
    value = await fn(info, Promise.race([server.done, server.result.then(noop, noop)]));
  } catch (error) {
    server.stop();
    await server.result.catch(() => undefined);
    throw error;
  }
  server.stop();
  return { value, server: await server.result };
}
