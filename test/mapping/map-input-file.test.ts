/**
 * Reading an input file through one descriptor: intake hands `mapFile` the file it opened (and
 * hashed), and `preview` hands it a path that is opened the same careful way.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapFile } from '../../src/mapping/map-file.js';
import { previewFile } from '../../src/mapping/preview-file.js';
import type { MappedItem } from '../../src/mapping/types.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { HEADER, requestMapping, requestRow, toCsv } from '../helpers/fixtures.js';
import { OPTIONS, specOf, writeInput } from '../helpers/mapping-fixtures.js';

const csvSpec = () => specOf(requestMapping());
const jsonSpec = () =>
  specOf({
    kind: 'requests',
    request: {
      externalId: { path: 'id' },
      'customer.inn': { path: 'inn' },
      'customer.name': { path: 'name' },
      'contact.name': { path: 'name' },
      'contact.email': { path: 'email' },
      'delivery.city': { path: 'city' },
      'delivery.address': { path: 'city' },
      'delivery.desiredDate': { path: 'date', date: 'DD.MM.YYYY' },
    },
    items: { path: 'lines', lineId: { path: 'n' }, name: { path: 'name' }, quantity: { path: 'qty' }, unit: { path: 'unit', default: 'шт' } },
  });
const jsonRecord = (id: string) => ({
  id,
  inn: '7707083893',
  name: 'ООО Ромашка',
  email: 'a@example.ru',
  city: 'Москва',
  date: '15.03.2027',
  lines: [{ n: 1, name: 'Бумага', qty: 5 }],
});

async function collect(items: AsyncIterable<MappedItem>): Promise<MappedItem[]> {
  const out: MappedItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const idsOf = (items: MappedItem[]) =>
  items.map((i) => (i.kind === 'submission' ? i.submission.externalId : i.kind === 'withdrawal' ? `W ${i.withdrawal.documentId}` : `${i.problem.code}`));

describe('mapFile on an opened file', () => {
  it.each([
    ['in.csv', () => toCsv([HEADER, requestRow('R-1', '1')]), csvSpec],
    ['in.json', () => JSON.stringify([jsonRecord('R-1')]), jsonSpec],
    ['in.ndjson', () => `${JSON.stringify(jsonRecord('R-1'))}\n`, jsonSpec],
  ])('%s: reads the descriptor from byte 0, not what the name points to later, and leaves it open', async (name, content, spec) => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, name, content());
      const handle = await fs.promises.open(file, 'r');
      try {
        // The position is at the end (as after hashing), and the name now holds other content.
        await handle.readFile();
        fs.writeFileSync(path.join(dir, 'other'), content().replace(/R-1/g, 'EVIL-1'));
        fs.renameSync(path.join(dir, 'other'), file);

        expect(idsOf(await collect(mapFile({ handle, name }, spec(), OPTIONS)))).toEqual(['R-1']);
        // Still open and readable, a second time as well.
        expect(idsOf(await collect(mapFile({ handle, name }, spec(), OPTIONS)))).toEqual(['R-1']);
        expect((await handle.stat()).size).toBeGreaterThan(0);
      } finally {
        await handle.close();
      }
    });
  });

  it('takes the format from the given name', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'stored-without-extension', JSON.stringify(jsonRecord('J-1')));
      const handle = await fs.promises.open(file, 'r');
      try {
        expect(idsOf(await collect(mapFile({ handle, name: 'from-erp.json' }, jsonSpec(), OPTIONS)))).toEqual(['J-1']);
      } finally {
        await handle.close();
      }
    });
  });
});

describe('mapFile (and preview) on a path', () => {
  it('does not follow a symlink: FILE_NOT_REGULAR, and nothing of the target is read', async () => {
    await withTempDir(async (dir) => {
      const secret = writeInput(dir, 'credential.csv', toCsv([HEADER, requestRow('SECRET-42', '1', { ИНН: 'SECRET-42' })]));
      const link = path.join(dir, 'link.csv');
      fs.symlinkSync(secret, link);
      const result = await previewFile(link, csvSpec(), OPTIONS);
      expect(result.requests).toEqual([]);
      expect(result.problems).toEqual([
        expect.objectContaining({ row: null, code: 'FILE_NOT_REGULAR', message: 'link.csv: is a symbolic link; it was not read' }),
      ]);
      expect(JSON.stringify(result)).not.toContain('SECRET');
    });
  });

  it('does not block on a FIFO: FILE_NOT_REGULAR at once, with no writer', async () => {
    await withTempDir(async (dir) => {
      const fifo = path.join(dir, 'pipe.csv');
      execFileSync('mkfifo', [fifo]);
      let result: MappedItem[] | undefined;
      const mapping = collect(mapFile(fifo, csvSpec(), OPTIONS)).then((items) => (result = items));
      try {
        await waitUntil(() => result !== undefined, 'mapFile to return instead of waiting for a writer');
      } finally {
        // Release an open that blocked (the old behaviour) so that the worker can end.
        if (result === undefined) releaseFifoReader(fifo);
      }
      await mapping;
      expect(result).toEqual([
        { kind: 'problem', problem: expect.objectContaining({ row: null, code: 'FILE_NOT_REGULAR', message: 'pipe.csv: is a FIFO; it was not read' }) },
      ]);
    });
  });
});

/** Open the FIFO for writing without blocking, which lets a reader stuck in open() go on; ENXIO means none waits. */
function releaseFifoReader(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // No reader was waiting.
  }
}
