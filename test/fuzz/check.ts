/**
 * What a fuzz target accepts, as Apache POI's targets accept only POI's own exceptions: the reader
 * finishes, or stops with a `ConnectorError` whose code is in `ERROR_CODES`, and every problem it
 * reports has a catalogue code (not `READER_FAULT`, which is a fault of ours). Anything else is a
 * finding: another exception, a problem without a known code, more than 1 s per MiB of input (plus
 * a second for the fixed costs; CPU time, not the clock, and only when a second run agrees, so that
 * a busy machine is not a finding), more than 256 MB of heap (after a collection),
 * `Object.prototype` changed afterwards, or a different result when the same bytes arrive in other
 * chunks (libxml2's chunked re-parse). Unhandled rejections are caught by the runner.
 */
import { ERROR_CODES, isConnectorError } from '../../src/errors.js';
import type { FuzzTarget, Outcome } from './targets.js';

export const MAX_HEAP_BYTES = 256 * 1024 * 1024;

/** What is wrong with one run of a target on `data`, or null when it is accepted. */
export async function check(target: FuzzTarget, data: Buffer, random: () => number): Promise<string | null> {
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort().join();
  let whole: Outcome;
  let cpuMs: number;
  try {
    [whole, cpuMs] = await timed(() => target.run(data));
  } catch (error) {
    if (isConnectorError(error) && Object.hasOwn(ERROR_CODES, error.code)) return null;
    return `threw ${(error as Error)?.stack ?? String(error)}`;
  }
  const allowedMs = 1_000 + (1_000 * data.length) / (1024 * 1024);
  // A collection or another process may land in one run: slow twice is slow.
  if (cpuMs > allowedMs) cpuMs = Math.min(cpuMs, (await timed(() => target.run(data)))[1]);
  if (cpuMs > allowedMs) return `took ${Math.round(cpuMs)} ms of CPU for ${data.length} bytes (more than 1 s per MiB)`;
  const unknown = whole.codes.filter((code) => !Object.hasOwn(ERROR_CODES, code));
  if (unknown.length > 0) return `reported problems with codes not in the catalogue: ${unknown.join(', ')}`;
  if (whole.codes.includes('READER_FAULT')) return `a reader fault: ${whole.summary.slice(0, 2_000)}`;
  let heap = process.memoryUsage().heapUsed;
  // Garbage is not a finding: what is still held after a collection is (`npm run fuzz` exposes gc).
  if (heap > MAX_HEAP_BYTES && globalThis.gc !== undefined) {
    globalThis.gc();
    heap = process.memoryUsage().heapUsed;
  }
  if (heap > MAX_HEAP_BYTES) return `left ${Math.round(heap / 1024 / 1024)} MB of heap in use (more than 256 MB)`;
  if (Object.getOwnPropertyNames(Object.prototype).sort().join() !== prototypeBefore) return 'changed Object.prototype';
  if (target.streams) {
    let split: Outcome;
    try {
      split = await target.run(data, random);
    } catch (error) {
      return `read in other chunks, threw ${(error as Error)?.stack ?? String(error)}`;
    }
    if (split.summary !== whole.summary)
      return `read in other chunks, gave another result:\n--- whole\n${whole.summary.slice(0, 1_500)}\n--- in chunks\n${split.summary.slice(0, 1_500)}`;
  }
  return null;
}

/** What `run` gives, and the CPU time it took (the process's, every thread). */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const before = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(before);
  return [value, (used.user + used.system) / 1000];
}
