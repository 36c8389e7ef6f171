/**
 * The reader streams: rows come as the sheet inflates, no faster than they are taken; return()
 * and an abort release the archive and stop inflating; the caller's FileHandle stays open.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TableInput } from '../../../../src/mapping/readers/types.js';
import { openWorkbook, type InflateMeter } from '../../../../src/mapping/readers/xlsx-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { workbookParts, worksheet, zipOf, XLSX_OPTIONS } from '../../../helpers/xlsx/workbook-builder.js';

const ROWS = 100_000;
const KiB = 1024;

function bigSheet(): { bytes: Buffer; sheetBytes: number } {
  const rows = Array.from(
    { length: ROWS },
    (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i % 3}</v></c><c r="B${i + 1}"><v>${i}</v></c></row>`,
  ).join('');
  const sheet = worksheet(rows);
  return {
    bytes: zipOf(workbookParts({ sheets: [{ name: 'S', xml: sheet }], sharedStrings: ['ЗК-1', 'ЗК-2', 'ЗК-3'] })),
    sheetBytes: Buffer.byteLength(sheet),
  };
}

async function withBigWorkbook<T>(
  fn: (open: (signal?: AbortSignal) => { input: TableInput; meter: InflateMeter; handle: fs.FileHandle }, sheetBytes: number) => Promise<T>,
) {
  const { bytes, sheetBytes } = bigSheet();
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'big.xlsx');
    await fs.writeFile(file, bytes);
    const handle = await fs.open(file);
    try {
      return await fn((signal) => {
        const meter: InflateMeter = { inflatedBytes: 0, opened: [] };
        return { input: openWorkbook(handle, XLSX_OPTIONS, signal, meter), meter, handle };
      }, sheetBytes);
    } finally {
      await handle.close();
    }
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('xlsx reader: streaming', () => {
  it('inflates the rows pass no further ahead than the rows taken (back-pressure)', async () => {
    await withBigWorkbook(async (open, sheetBytes) => {
      const { input, meter } = open();
      const first = await input.rows.next();
      expect(first.value).toEqual({ row: 1, cells: ['ЗК-1', 0] });
      // The first pass (merges) inflated the sheet once; the rows pass has just begun.
      const atFirstRow = meter.inflatedBytes;
      expect(atFirstRow).toBeLessThan(sheetBytes + 64 * KiB);
      for (let i = 0; i < 100; i++) await input.rows.next();
      await settle();
      const ahead = meter.inflatedBytes - atFirstRow;
      expect(ahead).toBeLessThan(64 * KiB);
      expect(sheetBytes).toBeGreaterThan(5_000 * KiB);
      await input.rows.return(undefined);
    });
  });

  it('reads every row of a 100,000-row sheet, in order', async () => {
    await withBigWorkbook(async (open) => {
      const { input, meter } = open();
      let count = 0;
      let last = 0;
      for await (const { row, cells } of input.rows) {
        count++;
        expect(row).toBe(last + 1);
        last = row;
        if (row === ROWS) expect(cells).toEqual(['ЗК-1', ROWS - 1]);
      }
      expect(count).toBe(ROWS);
      expect(meter).toMatchObject({ openStreams: 0, closed: true });
    });
  });

  it('return() closes the archive and stops inflating; the FileHandle stays open', async () => {
    await withBigWorkbook(async (open) => {
      const { input, meter, handle } = open();
      for (let i = 0; i < 5; i++) await input.rows.next();
      expect(meter.openStreams).toBe(1);
      await input.rows.return(undefined);
      expect(meter).toMatchObject({ openStreams: 0, closed: true });
      const after = meter.inflatedBytes;
      await settle();
      expect(meter.inflatedBytes).toBe(after);
      expect((await handle.stat()).size).toBeGreaterThan(0);
      // The same handle reads again from byte 0.
      const again = open();
      expect((await again.input.rows.next()).value).toEqual({ row: 1, cells: ['ЗК-1', 0] });
      await again.input.rows.return(undefined);
    });
  });

  it('an abort stops the rows with the signal reason and releases the archive', async () => {
    await withBigWorkbook(async (open) => {
      const controller = new AbortController();
      const { input, meter } = open(controller.signal);
      for (let i = 0; i < 3; i++) await input.rows.next();
      const reason = new Error('stopping');
      controller.abort(reason);
      await expect(input.rows.next()).rejects.toBe(reason);
      expect(meter).toMatchObject({ openStreams: 0, closed: true });
    });
  });

  it('an abort before the first row stops the read', async () => {
    await withBigWorkbook(async (open) => {
      const controller = new AbortController();
      const { input, meter } = open(controller.signal);
      const pending = input.rows.next();
      controller.abort(new Error('early'));
      await expect(pending).rejects.toThrow('early');
      expect(meter.openStreams ?? 0).toBe(0);
    });
  });
});
