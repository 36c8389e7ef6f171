/**
 * A fault of the connector's own is not a problem of the data: a reader that throws something
 * other than a `ConnectorError` (a bug) ends the file with `READER_FAULT`, not `MAPPING_FAILED`,
 * the caller is told of the error with its stack, and the intake rejects the file with a report
 * that says to report it, logs the fault at error and counts it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec, mapFile } from '../../src/mapping/index.js';
import type { MappedItem } from '../../src/mapping/types.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';
import { takeFile } from '../../src/intake/take-file.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';

/** A real file's handle whose reads fail the way a bug would (a TypeError, no errno code). */
async function faultyHandle(file: string): Promise<fs.FileHandle> {
  const handle = await fs.open(file, 'r');
  return new Proxy(handle, {
    get(target, key, receiver) {
      if (key === 'read') return () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'length')"));
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('a fault of the connector, not of the file', () => {
  it('is READER_FAULT, told to the caller with its stack, never MAPPING_FAILED', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'orders.xml');
      await fs.writeFile(file, '<КоммерческаяИнформация/>');
      const handle = await faultyHandle(file);
      const faults: unknown[] = [];
      const items: MappedItem[] = [];
      try {
        const spec = loadMappingSpec(path.resolve('config/mappings/commerceml-orders.yaml'));
        for await (const item of mapFile({ handle, name: 'orders.xml' }, spec, {
          now: new Date(),
          rejectPastDates: false,
          onFault: (error) => faults.push(error),
        })) {
          items.push(item);
        }
      } finally {
        await handle.close();
      }
      expect(items).toEqual([
        {
          kind: 'problem',
          problem: expect.objectContaining({
            row: null,
            code: 'READER_FAULT',
            text: { key: 'readerFault' },
            message: expect.stringContaining('report it, with the file'),
          }),
        },
      ]);
      expect(faults).toHaveLength(1);
      expect((faults[0] as Error).stack).toContain('TypeError');
    });
  });

  it('the intake rejects the file with a report saying to report it, logs it at error with its stack, and calls it out', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const faults: string[] = [];
      const ctx = f.context({
        mapItems: async function* (): AsyncGenerator<MappedItem> {
          yield* [];
          throw new RangeError('a bug in a reader');
        },
        onReaderFault: (error, file) => faults.push(`${file}: ${(error as Error).message}`),
      });
      await ensureInboxDirs(ctx.dirs);
      const file = await dropFile(f.inbox, 'requests.csv', requestCsv([requestRow('R-1')]));
      const stat = await fs.stat(file);
      await takeFile(ctx, { path: file, name: 'requests.csv', size: stat.size, mtimeMs: stat.mtimeMs });
      expect(f.files()).toEqual([expect.objectContaining({ state: 'rejected', requestCount: 0 })]);
      expect((await f.rejectedReport()).problems).toEqual([expect.objectContaining({ code: 'READER_FAULT' })]);
      expect(faults).toEqual(['requests.csv: a bug in a reader']);
    });
  });
});
