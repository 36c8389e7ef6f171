/**
 * The mapping thread: small files mapped off the event loop, ahead of their turn.
 *
 * A 1C job that writes one file per request leaves thousands of small files after an outage, and
 * the daemon's one event loop takes them one after another beside delivery, the listener and the
 * console. Parsing and mapping a small CSV is about a third of the intake's time per file
 * (docs/performance.md, bench 8); on this thread it runs beside the rest: the intake hands it the
 * next file's bytes as soon as they are hashed (`intake/scan-inbox.ts`), and by the time the
 * file's turn comes its items are there. Claims, recordings and moves stay on the loop, in order.
 *
 * - **The same mapping.** The thread runs `mapFile` itself (`map-thread-entry.ts`) on the bytes
 *   the claim's SHA-256 names; only a whole small CSV goes there (`mapsOnThread`), whose reader
 *   parses exactly those bytes. Items come back as they were yielded, and a fault of the
 *   connector's own is handed on to the caller's `onFault` with its stack.
 * - **Never a file lost to it.** Every way the thread can fail (an exception, an exit, its heap
 *   limit reached, a job past `jobTimeoutMs`) resolves the jobs it held with `null`, and the
 *   caller maps those files on the event loop as it always did. After `MAX_FAILURES_IN_ROW`
 *   failures in a row the thread is given up for the run (logged); until then the next job starts
 *   a new one.
 * - **Only while there is work.** It starts with the first job and ends after `idleMs` without
 *   one (an idle daemon does not keep a second V8 heap), and does not keep the process alive while
 *   it holds no job.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MappingSpec } from '../config/mapping-schema.js';
import type { Logger } from '../log.js';
import { formatOf } from './map-file.js';
import { SMALL_CSV_BYTES } from './readers/csv-reader.js';
import type { MappedItem } from './types.js';

/** What the thread is sent for one file. */
export interface MapJob {
  id: number;
  specId: number;
  /** Sent with the first job that maps with it; the thread keeps it by `specId`. */
  spec?: MappingSpec;
  /** The file's name: its extension picks the format. */
  name: string;
  fileLabel: string;
  bytes: Uint8Array;
  /** The clock, for "desiredDate not in the past" (ms). */
  now: number;
  rejectPastDates: boolean;
}

/** A fault of the connector's own, as the thread saw it. */
export interface ThreadFault {
  name: string;
  message: string;
  stack?: string;
}

export type MapReply = { id: number; items: MappedItem[]; faults: ThreadFault[] } | { id: number; error: string };

/** A file mapped on the thread: every item `mapFile` yielded, and the faults it told `onFault` of. */
export interface MapOutcome {
  items: MappedItem[];
  faults: Error[];
}

/** A file handed to the thread ahead of its turn: what it was mapped with, and the outcome to come (`null`: map it on the loop). */
export interface Premapped {
  spec: MappingSpec;
  fileLabel: string;
  outcome: Promise<MapOutcome | null>;
}

export interface MapThread {
  /** Map a small file's whole bytes on the thread; `null` when the thread could not (the caller maps the file itself). Never rejects. */
  map(file: Omit<MapJob, 'id' | 'specId' | 'spec' | 'bytes'> & { spec: MappingSpec; bytes: Buffer }): Promise<MapOutcome | null>;
  /** Files the thread mapped so far. */
  readonly mapped: number;
  /** A thread runs now (it starts with a job and ends when idle, closed or failed). */
  readonly running: boolean;
  /** End the thread; jobs it still held resolve `null`. */
  close(): Promise<void>;
}

export interface MapThreadOptions {
  logger?: Logger;
  /** Time without a job after which the thread ends. Default 10 s. */
  idleMs?: number;
  /** A job not answered by then ends the thread (a reader looping on a hostile file). Default 30 s. */
  jobTimeoutMs?: number;
}

/**
 * A file that yields more items than this is left to the event loop, which records them as they
 * come: a small file of thousands of one-line rows (or problems) would otherwise be held whole,
 * here and again in the answer.
 */
export const MAX_THREAD_ITEMS = 1_000;

/** Failures in a row after which the thread is given up for the run. */
export const MAX_FAILURES_IN_ROW = 3;

/**
 * The thread's heap: the mapping code and far more than a file of `SMALL_CSV_BYTES` can need (its
 * cells and at most `MAX_THREAD_ITEMS` items), a small part of the daemon's memory budget
 * (docs/reliability.md); a file that took more would end the thread, not the daemon.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/** Is this file mapped on the thread? A whole small CSV: its reader parses the bytes it is given and reads nothing. */
export function mapsOnThread(name: string, spec: MappingSpec, size: number): boolean {
  return size <= SMALL_CSV_BYTES && formatOf(name, spec) === 'csv';
}

/**
 * The thread's worker. The compiled program loads `map-thread-entry.js` beside this file; the tests
 * run the TypeScript sources, and Node 20 does not run TypeScript, so there the thread first
 * registers tsx's loader (a dev dependency, never needed by the compiled program).
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./map-thread-entry.js', here), { resourceLimits: RESOURCE_LIMITS });
  const tsx = path.join(path.dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
  const entry = new URL('./map-thread-entry.ts', here).href;
  const code = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, resourceLimits: RESOURCE_LIMITS });
}

interface Waiting {
  resolve: (outcome: MapOutcome | null) => void;
  timer: NodeJS.Timeout;
}

export function createMapThread(options: MapThreadOptions = {}): MapThread {
  return new MapThreadClient(options);
}

/** The event loop's side of the thread: its jobs by id, the specs it holds, its failures in a row. */
class MapThreadClient implements MapThread {
  readonly #options: MapThreadOptions;
  readonly #idleMs: number;
  readonly #jobTimeoutMs: number;
  readonly #waiting = new Map<number, Waiting>();
  readonly #specIds = new WeakMap<MappingSpec, number>();
  #sentSpecs = new WeakSet<MappingSpec>();
  #worker: Worker | null = null;
  #idle: NodeJS.Timeout | null = null;
  #nextId = 1;
  #nextSpecId = 1;
  #failuresInRow = 0;
  #closed = false;
  #mapped = 0;

  constructor(options: MapThreadOptions) {
    this.#options = options;
    this.#idleMs = options.idleMs ?? 10_000;
    this.#jobTimeoutMs = options.jobTimeoutMs ?? 30_000;
  }

  get mapped(): number {
    return this.#mapped;
  }

  get running(): boolean {
    return this.#worker !== null;
  }

  map(file: Parameters<MapThread['map']>[0]): Promise<MapOutcome | null> {
    if (this.#closed || this.#failuresInRow >= MAX_FAILURES_IN_ROW) return Promise.resolve(null);
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const w = (this.#worker ??= this.#spawn());
    const id = this.#nextId++;
    let specId = this.#specIds.get(file.spec);
    if (specId === undefined) this.#specIds.set(file.spec, (specId = this.#nextSpecId++));
    // A copy of its own, handed over: the hash's buffer may be a slice of a larger one.
    const bytes = new Uint8Array(file.bytes);
    const job: MapJob = { ...file, id, specId, bytes, spec: this.#sentSpecs.has(file.spec) ? undefined : file.spec };
    return new Promise((resolve) => {
      try {
        w.postMessage(job, [bytes.buffer]);
      } catch (error) {
        // A spec that cannot be copied to the thread: every file of it is mapped on the loop.
        this.#options.logger?.warn({ err: error }, 'a mapping could not be handed to the mapping thread; its files are mapped on the event loop');
        resolve(null);
        return;
      }
      this.#sentSpecs.add(file.spec);
      const timer = setTimeout(() => this.#fail(w, `a file was not mapped within ${this.#jobTimeoutMs} ms`), this.#jobTimeoutMs);
      timer.unref();
      this.#waiting.set(id, { resolve, timer });
      w.ref();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#idle !== null) clearTimeout(this.#idle);
    if (this.#worker !== null) this.#end(this.#worker);
  }

  #spawn(): Worker {
    const w = startWorker();
    this.#sentSpecs = new WeakSet();
    w.on('message', (reply: MapReply) => {
      if ('error' in reply) return this.#settle(reply.id, null);
      this.#failuresInRow = 0;
      this.#mapped += 1;
      const faults = reply.faults.map((fault) => Object.assign(new Error(fault.message), fault));
      this.#settle(reply.id, { items: reply.items, faults });
    });
    w.on('error', (error) => this.#fail(w, error.message));
    w.on('exit', (code) => this.#fail(w, `it exited with code ${code}`));
    return w;
  }

  /** A job answered (or given up: `null`); with none left, the thread may idle, and ends after `idleMs`. */
  #settle(id: number, outcome: MapOutcome | null): void {
    const job = this.#waiting.get(id);
    if (job === undefined) return;
    this.#waiting.delete(id);
    clearTimeout(job.timer);
    job.resolve(outcome);
    const w = this.#worker;
    if (this.#waiting.size > 0 || w === null) return;
    w.unref();
    this.#idle = setTimeout(() => this.#end(w), this.#idleMs);
    this.#idle.unref();
  }

  /** End `w` without counting a failure (idle, closed); its jobs resolve `null`. */
  #end(w: Worker): void {
    if (w === this.#worker) this.#worker = null;
    for (const job of this.#waiting.values()) {
      clearTimeout(job.timer);
      job.resolve(null);
    }
    this.#waiting.clear();
    void w.terminate();
  }

  #fail(w: Worker, reason: string): void {
    if (w !== this.#worker) return;
    this.#end(w);
    this.#failuresInRow += 1;
    const givenUp = this.#failuresInRow >= MAX_FAILURES_IN_ROW;
    this.#options.logger?.warn(
      { code: 'MAP_THREAD_FAILED', failuresInRow: this.#failuresInRow },
      givenUp
        ? `the mapping thread failed ${this.#failuresInRow} times in a row (${reason}): small files are mapped on the event loop for the rest of this run`
        : `the mapping thread failed (${reason}): its files are mapped on the event loop, and the next file starts a new thread`,
    );
  }
}
