/**
 * The mapping thread's code (`map-thread.ts`): maps a small file from its bytes with `mapFile`, the
 * same function the event loop runs, and answers with every item it yielded.
 *
 * In: `{ id, specId, spec?, name, fileLabel, bytes, now, rejectPastDates }`; the spec comes with
 * the first job that uses it and is kept by its id (a reload sends the new one once).
 * Out: `{ id, items, faults }` (`faults`: the connector's own errors `onFault` was told of, as
 * name, message and stack), or `{ id, error }` when the mapping itself threw or yielded more than
 * `MAX_THREAD_ITEMS` (the caller maps that file on the event loop).
 */
import { parentPort } from 'node:worker_threads';
import type { MappingSpec } from '../config/mapping-schema.js';
import { describeError } from '../errors.js';
import type { InputHandle } from '../shared/input-file.js';
import { mapFile } from './map-file.js';
import { MAX_THREAD_ITEMS, type MapJob, type MapReply, type ThreadFault } from './map-thread.js';
import type { MappedItem } from './types.js';

/** Specs kept by id: the current one and a few a reload left behind (a job in flight may still name one). */
const KEPT_SPECS = 4;
const specs = new Map<number, MappingSpec>();

/**
 * A file's bytes as an input handle. Only whole small CSV files come here (`mapsOnThread`), and
 * their reader parses `OpenedInput.bytes`; reads are served from the bytes all the same, so that a
 * reader asking for them gets the file, never another one's descriptor.
 */
class BytesHandle implements InputHandle {
  readonly fd = -1;
  constructor(private readonly bytes: Buffer) {}
  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    return { bytesRead: this.bytes.copy(buffer, offset, position, Math.min(this.bytes.length, position + length)) };
  }
  stat(): never {
    throw new Error('a file mapped on the mapping thread has no descriptor to stat');
  }
  async close(): Promise<void> {}
}

async function run(job: MapJob): Promise<MapReply> {
  if (job.spec !== undefined) {
    specs.set(job.specId, job.spec);
    for (const id of specs.keys()) if (specs.size > KEPT_SPECS) specs.delete(id);
  }
  const spec = specs.get(job.specId);
  if (spec === undefined) return { id: job.id, error: `mapping ${job.specId} was not sent` };
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  const items: MappedItem[] = [];
  const faults: ThreadFault[] = [];
  const onFault = (error: unknown): void => {
    const { name, message, stack } = error instanceof Error ? error : new Error(describeError(error));
    faults.push({ name, message, ...(stack === undefined ? {} : { stack }) });
  };
  try {
    const input = { handle: new BytesHandle(bytes), name: job.name, bytes };
    const options = { now: new Date(job.now), rejectPastDates: job.rejectPastDates, fileLabel: job.fileLabel, onFault };
    for await (const item of mapFile(input, spec, options)) {
      if (items.push(item) > MAX_THREAD_ITEMS) return { id: job.id, error: `more than ${MAX_THREAD_ITEMS} items: mapped on the event loop` };
    }
    return { id: job.id, items, faults };
  } catch (error) {
    return { id: job.id, error: describeError(error) };
  }
}

const port = parentPort;
if (port === null) throw new Error('map-thread-entry.ts runs as a worker thread');
port.on('message', (job: MapJob) => {
  void run(job).then((reply) => port.postMessage(reply));
});
