/**
 * One hostile shape through `mapFile`, the daemon's one entry point for an input file, and what
 * the connector promises of any file, however hostile:
 *
 * - it finishes: the run is timed, and the time is asserted only against a generous hang guard
 *   (the project's rule is no wall-clock thresholds; speed is measured in `bench/`). The bound of
 *   work is asserted instead where it can be: `bytesRead`, what the reader took from the file;
 * - nothing escapes: every problem has a code of `ERROR_CODES` and a row (or null), and none of
 *   them is a fault of the connector's own (`READER_FAULT`, `INTERNAL_ERROR`, or the older
 *   catch-all `MAPPING_FAILED … could not be mapped`), nor is `onFault` called;
 * - `Object.prototype` (and `Array.prototype`) have the same properties after as before;
 * - memory stays bounded: the heap is sampled while the file maps, its growth above the start kept.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'vitest';
import type { MappingSpec } from '../../../src/config/mapping-schema.js';
import { ERROR_CODES } from '../../../src/errors.js';
import { mapFile, type MapOptions } from '../../../src/mapping/map-file.js';
import type { MappedItem, MappedSubmission } from '../../../src/mapping/types.js';
import type { MappingProblem } from '../../../src/shared/types.js';

export const MiB = 1024 * 1024;

/** 12 June 2026, local noon: every valid input here wants its goods years later. */
export const NOW = new Date(2026, 5, 12, 12, 0, 0);

export interface ShapeRun {
  items: MappedItem[];
  submissions: MappedSubmission[];
  problems: MappingProblem[];
  /** What `onFault` was told: a fault of the connector's own. */
  faults: unknown[];
  inputBytes: number;
  /** Bytes the readers took from the file (positional reads of its handle), all passes together. */
  bytesRead: number;
  /** Wall-clock time of the whole mapping: reported, asserted only as a hang guard. */
  ms: number;
  /** The most the V8 heap stood above its start (after a collection) while the file mapped. */
  heapGrowth: number;
  /** The same for memory outside the heap (Buffers): csv-parse and zlib keep theirs there. */
  externalGrowth: number;
  /** What changed on `Object.prototype` or `Array.prototype`: `+name`, `-name`, `~name`. */
  prototypeChanges: string[];
}

/**
 * `global.gc`, without `--expose-gc` on the command line (the config is not ours to change): the
 * flag set at run time exposes `gc` in contexts created afterwards. A no-op where that fails.
 */
const collectGarbage: () => void = (() => {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return gc as () => void;
  } catch {
    // Measured without a collection first: the growth then reads a little high, never low.
  }
  return () => undefined;
})();

type Snapshot = Map<string, unknown>;

function snapshotOf(target: object, label: string, into: Snapshot): void {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
    into.set(`${label}.${name}`, descriptor.value ?? descriptor.get ?? descriptor.set);
  }
  into.set(`${label}.[[Prototype]]`, Object.getPrototypeOf(target));
}

/** The own properties of the prototypes a pollution would touch, by identity of their values. */
export function prototypeSnapshot(): Snapshot {
  const snapshot: Snapshot = new Map();
  snapshotOf(Object.prototype, 'Object.prototype', snapshot);
  snapshotOf(Array.prototype, 'Array.prototype', snapshot);
  return snapshot;
}

export function prototypeChanges(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  for (const [name, value] of after) {
    if (!before.has(name)) changes.push(`+${name}`);
    else if (before.get(name) !== value) changes.push(`~${name}`);
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push(`-${name}`);
  // A setter or a frozen prototype would hide a key from the descriptors; a plain read shows it.
  const probe: Record<string, unknown> = {};
  for (const key of ['polluted', 'p', 'i', 'yes', 'prototype', 'inn', 'number']) if (probe[key] !== undefined) changes.push(`?${key}`);
  return changes;
}

/**
 * The file's handle, counting what is read through it. The methods run on the real FileHandle
 * (its internals are private to it, so a Proxy cannot be their `this`).
 */
function countingHandle(handle: fs.FileHandle, count: (bytes: number) => void): fs.FileHandle {
  return new Proxy(handle, {
    get(target, key) {
      if (key === 'read') {
        return async (...args: Parameters<fs.FileHandle['read']>) => {
          const result = await (target.read as (...a: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>)(...args);
          count(result.bytesRead);
          return result;
        };
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Map `file` with `spec` as intake does (an opened handle), and measure what it took. */
export async function runShape(file: string, spec: MappingSpec, options: Partial<MapOptions> = {}): Promise<ShapeRun> {
  const inputBytes = (await fs.stat(file)).size;
  const faults: unknown[] = [];
  // `onFault` is passed in a spread, not checked against MapOptions: the option is new.
  const extra = { onFault: (error: unknown) => faults.push(error) };
  const items: MappedItem[] = [];
  let bytesRead = 0;
  const raw = await fs.open(file, 'r');
  const handle = countingHandle(raw, (bytes) => (bytesRead += bytes));
  const before = prototypeSnapshot();
  collectGarbage();
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakExternal = start.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakExternal = Math.max(peakExternal, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 5);
  const began = performance.now();
  try {
    for await (const item of mapFile({ handle, name: path.basename(file) }, spec, { now: NOW, rejectPastDates: true, ...extra, ...options })) {
      sample();
      items.push(item);
    }
  } finally {
    clearInterval(sampler);
    await raw.close();
  }
  const ms = performance.now() - began;
  sample();
  const changes = prototypeChanges(before, prototypeSnapshot());
  return {
    items,
    submissions: items.flatMap((item) => (item.kind === 'submission' ? [item.submission] : [])),
    problems: items.flatMap((item) => (item.kind === 'problem' ? [item.problem] : [])),
    faults,
    inputBytes,
    bytesRead,
    ms,
    heapGrowth: peakHeap - start.heapUsed,
    externalGrowth: peakExternal - start.arrayBuffers,
    prototypeChanges: changes,
  };
}

/**
 * A hang guard, not a speed target: 10 s, plus 1 s per MiB of input, at most 30 s. A shape that
 * is merely slow is for `bench/`; one that never ends fails here instead of stalling the suite.
 */
export function hangGuardMs(inputBytes: number): number {
  return Math.min(30_000, 10_000 + (1_000 * inputBytes) / MiB);
}

/** The codes of a fault of the connector's own rather than of the file (the first is newer than some checkouts). */
const FAULT_CODES: readonly string[] = ['READER_FAULT', 'INTERNAL_ERROR'];

/** What every shape must satisfy, whatever it is refused or read as. */
export function expectContained(run: ShapeRun): void {
  expect(run.faults.map(String)).toEqual([]);
  for (const problem of run.problems) {
    const shown = `${problem.code}: ${problem.message}`;
    expect(Object.hasOwn(ERROR_CODES, problem.code), shown).toBe(true);
    expect(FAULT_CODES.includes(problem.code), shown).toBe(false);
    expect(problem.code === 'MAPPING_FAILED' && problem.row === null && problem.message.includes('could not be mapped:'), shown).toBe(false);
    expect(problem.row === null || (Number.isInteger(problem.row) && problem.row > 0), shown).toBe(true);
    expect(problem.message.length, shown).toBeGreaterThan(0);
  }
  expect(run.prototypeChanges).toEqual([]);
  expect(run.ms).toBeLessThan(hangGuardMs(run.inputBytes));
}

/** The codes of the problems, in order. */
export const codesOf = (run: ShapeRun): string[] => run.problems.map((problem) => problem.code);

/** The one file-level problem a refused file ends in (intake rejects the whole file for it). */
export function refusal(run: ShapeRun): MappingProblem {
  const fileLevel = run.problems.filter((problem) => problem.row === null);
  expect(fileLevel, JSON.stringify(run.problems.slice(0, 5))).toHaveLength(1);
  expect(run.items.at(-1)).toEqual({ kind: 'problem', problem: fileLevel[0] });
  return fileLevel[0]!;
}
