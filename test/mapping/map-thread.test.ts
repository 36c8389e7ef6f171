/**
 * The mapping thread (`src/mapping/map-thread.ts`) maps a small CSV exactly as `mapFile` does on
 * the event loop, and every way it can fail leaves the file to the loop (`null`), never lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import { mapFile } from '../../src/mapping/index.js';
import { createMapThread, mapsOnThread, MAX_FAILURES_IN_ROW, MAX_THREAD_ITEMS, type MapThread } from '../../src/mapping/map-thread.js';
import { SMALL_CSV_BYTES } from '../../src/mapping/readers/csv-reader.js';
import type { MappedItem } from '../../src/mapping/types.js';
import { openInputFile } from '../../src/shared/input-file.js';
import { HEADER, requestMapping, requestRow, toCsv } from '../helpers/fixtures.js';
import { NOW, specOf } from '../helpers/mapping-fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const threads: MapThread[] = [];
const thread = (options: Parameters<typeof createMapThread>[0] = {}): MapThread => {
  const t = createMapThread(options);
  threads.push(t);
  return t;
};
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

/** What `mapFile` yields on the event loop for these bytes, named `name`. */
async function onLoop(dir: string, name: string, bytes: Buffer, spec: MappingSpec): Promise<MappedItem[]> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const handle = await openInputFile(file);
  try {
    const items: MappedItem[] = [];
    for await (const item of mapFile({ handle, name, bytes }, spec, { now: NOW, rejectPastDates: true, fileLabel: name })) items.push(item);
    return items;
  } finally {
    await handle.close();
  }
}

const job = (spec: MappingSpec, name: string, bytes: Buffer) => ({ spec, name, fileLabel: name, bytes, now: NOW.getTime(), rejectPastDates: true });

describe('the mapping thread', () => {
  it('maps small CSVs, good and broken, to the very items mapFile yields on the event loop', async () => {
    const spec = specOf(requestMapping());
    const oneC = loadMappingSpec(path.join(REPO, 'config/mappings/1c-requests.yaml'));
    const cases: [string, Buffer, MappingSpec][] = [
      ['good.csv', Buffer.from(toCsv([HEADER, requestRow('R-1', '1'), requestRow('R-1', '2'), requestRow('R-2', '1')])), spec],
      ['bad-inn.csv', Buffer.from(toCsv([HEADER, requestRow('R-1', '1', { ИНН: '7707083894' }), requestRow('R-2', '1')])), spec],
      ['no-header.csv', Buffer.from('just some text\n'), spec],
      ['unclosed.csv', Buffer.from(toCsv([HEADER, requestRow('R-1', '1')]) + '"R-2;open'), spec],
      ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(toCsv([HEADER]), 'utf16le')]), spec],
      ['zip.csv', Buffer.from('PK\x03\x04 not a table'), spec],
      ...['requests-1c-windows1251.csv', 'broken/bad-inn.csv', 'broken/missing-column.csv', 'broken/truncated.csv'].map(
        (sample): [string, Buffer, MappingSpec] => [path.basename(sample), fs.readFileSync(path.join(REPO, 'samples', sample)), oneC],
      ),
    ];
    const t = thread();
    await withTempDir(async (dir) => {
      for (const [name, bytes, caseSpec] of cases) {
        expect(mapsOnThread(name, caseSpec, bytes.length)).toBe(true);
        const outcome = await t.map(job(caseSpec, name, bytes));
        expect(outcome, name).not.toBeNull();
        expect(outcome!.faults, name).toEqual([]);
        expect(outcome!.items, name).toEqual(await onLoop(dir, name, bytes, caseSpec));
      }
    });
    // Several of them mapped problems: the comparison held more than one kind of item.
    expect(t.mapped).toBe(cases.length);
  });

  it('maps the CSV fuzz corpus and hundreds of its mutations as the loop does', async () => {
    const spec = loadMappingSpec(path.join(REPO, 'config/mappings/1c-requests.yaml'));
    const corpus = path.join(REPO, 'test/fuzz/csv');
    const seeds = fs.readdirSync(corpus).map((name) => fs.readFileSync(path.join(corpus, name)));
    // A fixed sequence of mutations (a byte changed, a cut, a slice repeated), so a failure replays.
    let state = 20261130;
    const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % n);
    const mutate = (seed: Buffer): Buffer => {
      const out = Buffer.from(seed);
      const at = next(Math.max(1, out.length));
      if (next(3) === 0) return out.subarray(0, at);
      if (next(2) === 0) return Buffer.concat([out, out.subarray(at, at + 40)]);
      out[at] = [0x22, 0x3b, 0x0a, 0x0d, 0x00, 0xff, 0xd0][next(7)]!;
      return out;
    };
    const inputs = [...seeds, ...Array.from({ length: 300 }, (_, i) => mutate(seeds[i % seeds.length]!))].filter(
      (bytes) => bytes.length > 0 && bytes.length <= SMALL_CSV_BYTES,
    );
    const t = thread();
    await withTempDir(async (dir) => {
      for (const [i, bytes] of inputs.entries()) {
        const outcome = await t.map(job(spec, 'requests.csv', bytes));
        expect(outcome?.items, `input ${i}`).toEqual(await onLoop(dir, 'requests.csv', bytes, spec));
      }
    });
    expect(t.mapped).toBe(inputs.length);
  });

  it('maps with the mapping it is given: a reloaded mapping is sent anew', async () => {
    const t = thread();
    const bytes = Buffer.from(toCsv([HEADER, requestRow('R-1', '1')]));
    const before = await t.map(job(specOf(requestMapping()), 'a.csv', bytes));
    const reloaded = specOf(requestMapping({ request: { ...(requestMapping().request as object), externalId: { column: 'Товар' } } }));
    const after = await t.map(job(reloaded, 'a.csv', bytes));
    const idOf = (items: MappedItem[] | undefined) => items?.flatMap((item) => (item.kind === 'submission' ? [item.submission.externalId] : []));
    expect(idOf(before?.items)).toEqual(['R-1']);
    expect(idOf(after?.items)).toEqual([requestRow('R-1', '1')[HEADER.indexOf('Товар')]]);
  });

  it('maps only a whole small CSV', () => {
    const byName = specOf(requestMapping({ format: undefined }));
    expect(mapsOnThread('a.csv', byName, SMALL_CSV_BYTES)).toBe(true);
    expect(mapsOnThread('a.txt', byName, 100)).toBe(true);
    expect(mapsOnThread('a.csv', byName, SMALL_CSV_BYTES + 1)).toBe(false);
    expect(mapsOnThread('a.json', byName, 100)).toBe(false);
    expect(mapsOnThread('a.xml', byName, 100)).toBe(false);
    // The mapping's own format decides over the name.
    expect(mapsOnThread('a.json', specOf(requestMapping()), 100)).toBe(true);
  });

  it('a job not answered in time ends the thread and leaves its file to the loop; after failures in a row the thread is given up', async () => {
    const warnings: Record<string, unknown>[] = [];
    const logger = { warn: (fields: Record<string, unknown>) => warnings.push(fields) } as unknown as NonNullable<
      Parameters<typeof createMapThread>[0]
    >['logger'];
    const t = thread({ jobTimeoutMs: 0, logger });
    const bytes = Buffer.from(toCsv([HEADER, requestRow('R-1', '1')]));
    for (let i = 0; i < MAX_FAILURES_IN_ROW; i++) expect(await t.map(job(specOf(requestMapping()), 'a.csv', bytes))).toBeNull();
    expect(warnings.map((w) => w.code)).toEqual(Array(MAX_FAILURES_IN_ROW).fill('MAP_THREAD_FAILED'));
    // Given up: answered at once, no thread started again.
    expect(await t.map(job(specOf(requestMapping()), 'a.csv', bytes))).toBeNull();
    expect(warnings).toHaveLength(MAX_FAILURES_IN_ROW);
    expect(t.mapped).toBe(0);
  });

  it('leaves a file of more than MAX_THREAD_ITEMS items to the loop, and goes on', async () => {
    const t = thread();
    const short = { Покупатель: 'x', Контакт: 'x', Телефон: '', Email: '', Город: 'x', Адрес: 'x', Товар: 'x', Ед: 'x' };
    const rows = Array.from({ length: MAX_THREAD_ITEMS + 1 }, (_, i) => requestRow(`R-${i}`, '1', short));
    const many = Buffer.from(toCsv([HEADER, ...rows]));
    const spec = specOf(requestMapping());
    expect(mapsOnThread('many.csv', spec, many.length)).toBe(true);
    expect(await t.map(job(spec, 'many.csv', many))).toBeNull();
    expect(await t.map(job(spec, 'one.csv', Buffer.from(toCsv([HEADER, rows[0]!]))))).not.toBeNull();
    expect(t.mapped).toBe(1);
  });

  it('closing it answers the jobs it held with null, and every later one', async () => {
    const t = thread();
    const bytes = Buffer.from(toCsv([HEADER, requestRow('R-1', '1')]));
    const held = t.map(job(specOf(requestMapping()), 'a.csv', bytes));
    await t.close();
    expect(await held).toBeNull();
    expect(await t.map(job(specOf(requestMapping()), 'a.csv', bytes))).toBeNull();
  });

  it('ends when idle and starts again for the next file', async () => {
    const t = thread({ idleMs: 10 });
    const bytes = Buffer.from(toCsv([HEADER, requestRow('R-1', '1')]));
    expect(t.running).toBe(false);
    expect(await t.map(job(specOf(requestMapping()), 'a.csv', bytes))).not.toBeNull();
    expect(t.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.running).toBe(false);
    expect(await t.map(job(specOf(requestMapping()), 'b.csv', bytes))).not.toBeNull();
    expect(t.mapped).toBe(2);
  });
});
