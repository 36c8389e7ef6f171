/**
 * Hostile and damaged workbooks: refused with the right code, having inflated (measured by the
 * reader's meter) no more than a small bound. What the reader did is measured, not how long.
 */
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../../../src/errors.js';
import type { InflateMeter } from '../../../../src/mapping/readers/xlsx-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { MAIN_NS, readRows, workbookParts, worksheet, zipOf, type WorkbookSpec } from '../../../helpers/xlsx/workbook-builder.js';
import { deflatedSpaces, writeZip, type ZipEntry } from '../../../helpers/xlsx/zip-writer.js';

const MiB = 1024 * 1024;
const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const SMALL: WorkbookSpec = { sheets: [{ name: 'S', xml: `<row r="1">${cell('A1', 'x')}</row>` }] };

async function refusal(bytes: Buffer, options = {}): Promise<{ code: string; message: string; meter: InflateMeter }> {
  const meter: InflateMeter = { inflatedBytes: 0, opened: [] };
  try {
    await withTempDir((dir) => readRows(dir, bytes, options, meter));
  } catch (error) {
    if (isConnectorError(error)) return { code: error.code, message: error.message, meter };
    throw error;
  }
  throw new Error('the workbook was read');
}

/** A valid workbook whose sheet part is replaced by `entry` (raw deflated bytes), plus `extra` directory entries. */
function withSheetEntry(entry: Partial<ZipEntry>, extra: ZipEntry[] = []): Buffer {
  const parts = workbookParts(SMALL);
  const entries: ZipEntry[] = [...parts].map(([name, text]) => ({ name, data: Buffer.from(text), ...(name === 'xl/worksheets/sheet1.xml' ? entry : {}) }));
  return writeZip([...entries, ...extra]);
}

describe('xlsx reader: zip bombs', () => {
  const prefix = `<worksheet xmlns="${MAIN_NS}"><sheetData>`;

  it('refuses, before inflating anything, a 1 MB file whose parts declare 10 GiB (ten entries sharing one 1 GiB stream)', async () => {
    const raw = await deflatedSpaces(prefix, 1024);
    const declaredSize = Buffer.byteLength(prefix) + 1024 * MiB;
    const copies = Array.from({ length: 9 }, (_, i): ZipEntry => ({ name: `xl/media/copy${i}.bin`, sameDataAs: 'xl/worksheets/sheet1.xml', declaredSize }));
    const bytes = withSheetEntry({ raw, declaredSize }, copies);
    expect(bytes.length).toBeLessThan(2 * MiB);
    const { code, meter } = await refusal(bytes);
    expect(code).toBe('WORKBOOK_LIMIT_EXCEEDED');
    expect(meter.inflatedBytes).toBe(0);
    expect(meter.opened).toEqual([]);
  });

  it('refuses the same file when its entries lie about their sizes, having inflated less than 1 MiB', async () => {
    const raw = await deflatedSpaces(prefix, 1024);
    const copies = Array.from({ length: 9 }, (_, i): ZipEntry => ({
      name: `xl/media/copy${i}.bin`,
      sameDataAs: 'xl/worksheets/sheet1.xml',
      declaredSize: 4096,
    }));
    const { code, message, meter } = await refusal(withSheetEntry({ raw, declaredSize: 4096 }, copies));
    expect(code).toBe('WORKBOOK_LIMIT_EXCEEDED');
    expect(message).toContain('inflates past the size it declares (part xl/worksheets/sheet1.xml)');
    expect(meter.inflatedBytes).toBeLessThan(MiB);
  });

  it('holds the declared sizes to xlsx.maxUncompressedBytes', async () => {
    const bytes = zipOf(workbookParts(SMALL));
    expect((await refusal(bytes, { maxUncompressedBytes: 500 })).code).toBe('WORKBOOK_LIMIT_EXCEEDED');
  });

  it('refuses an archive of more than 10,000 entries before inflating', async () => {
    const parts = workbookParts(SMALL);
    const entries: ZipEntry[] = [...parts].map(([name, text]) => ({ name, data: Buffer.from(text) }));
    for (let index = 0; index < 10_001; index++) entries.push({ name: `xl/media/${index}.bin`, data: Buffer.alloc(0), stored: true });
    const { code, meter } = await refusal(writeZip(entries));
    expect(code).toBe('WORKBOOK_LIMIT_EXCEEDED');
    expect(meter.inflatedBytes).toBe(0);
  });
});

describe('xlsx reader: sheet bounds and text limits', () => {
  const bigRows = Array.from({ length: 40_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join('');

  it('refuses <dimension ref="A1:C1000000000"/> at once, without inflating the rest of the sheet', async () => {
    const sheet = worksheet(bigRows, { dimension: 'A1:C1000000000' });
    const { code, message, meter } = await refusal(zipOf(workbookParts({ sheets: [{ name: 'S', xml: sheet }] })));
    expect(code).toBe('WORKBOOK_LIMIT_EXCEEDED');
    expect(message).toContain('dimension A1:C1000000000 in xl/worksheets/sheet1.xml');
    expect(Buffer.byteLength(sheet)).toBeGreaterThan(1 * MiB);
    expect(meter.inflatedBytes).toBeLessThan(128 * 1024);
  });

  it.each([
    ['a row past 1,048,576', '<row r="1048577"><c r="A1048577"><v>1</v></c></row>'],
    ['a cell past XFD', '<row r="1"><c r="XFE1"><v>1</v></c></row>'],
    ['a cell reference past the last row', '<row r="1"><c r="A99999999999"><v>1</v></c></row>'],
  ])('refuses %s', async (_, rows) => {
    expect((await refusal(zipOf(workbookParts({ sheets: [{ name: 'S', xml: rows }] })))).code).toBe('WORKBOOK_LIMIT_EXCEEDED');
  });

  it('reads the last row and column a sheet can have', async () => {
    const rows = await withTempDir(
      async (dir) =>
        (await readRows(dir, zipOf(workbookParts({ sheets: [{ name: 'S', xml: '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>' }] })))).rows,
    );
    expect(rows[0]!.row).toBe(1_048_576);
    expect(rows[0]!.cells).toHaveLength(16_384);
  });

  const long = 'я'.repeat(32_767 * 4 + 1);
  it.each([
    ['a value', { sheets: [{ name: 'S', xml: `<row r="1"><c r="A1" t="str"><v>${long}</v></c></row>` }] }],
    [
      'an inline string of many runs',
      { sheets: [{ name: 'S', xml: `<row r="1"><c r="A1" t="inlineStr"><is>${'<r><t>ЯЯЯЯЯЯЯЯ</t></r>'.repeat(17_000)}</is></c></row>` }] },
    ],
    ['a shared string', { sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }], sharedStrings: [long] }],
    [
      'a shared string of many runs',
      { sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }], sharedStrings: `<si>${'<r><t>ЯЯЯЯЯЯЯЯ</t></r>'.repeat(17_000)}</si>` },
    ],
    ['a text between two tags', { sheets: [{ name: 'S', xml: `<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(200_000)}` }] }],
  ])('refuses %s longer than 32,767 characters × 4', async (_, spec) => {
    const { code, message } = await refusal(zipOf(workbookParts(spec as WorkbookSpec)));
    expect(code).toBe('WORKBOOK_LIMIT_EXCEEDED');
    expect(message).toMatch(/holds a text of more than 131068 characters in xl\/(worksheets\/sheet1|sharedStrings)\.xml line \d+, column \d+/);
  });

  it('reads a text of 32,767 characters', async () => {
    const text = 'я'.repeat(32_767);
    const rows = await withTempDir(
      async (dir) =>
        (await readRows(dir, zipOf(workbookParts({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }], sharedStrings: [text] }))))
          .rows,
    );
    expect(rows[0]!.cells[0]).toBe(text);
  });
});

describe('xlsx reader: damaged archives', () => {
  it('calls a truncated workbook truncated', async () => {
    const bytes = zipOf(workbookParts(SMALL));
    const { code, message } = await refusal(bytes.subarray(0, bytes.length - 30));
    expect(code).toBe('FILE_UNREADABLE');
    expect(message).toMatch(/^is not a complete xlsx workbook \(truncated\?\)/);
  });

  it('calls a corrupt entry unreadable', async () => {
    const { code, message } = await refusal(withSheetEntry({ raw: Buffer.from('this is not deflate data at all, not at all'), declaredSize: 100 }));
    expect(code).toBe('FILE_UNREADABLE');
    expect(message).toContain('(part xl/worksheets/sheet1.xml)');
  });

  it('refuses an archive with an encrypted entry', async () => {
    const parts = workbookParts(SMALL);
    const { code, meter } = await refusal(zipOf(parts, { 'xl/worksheets/sheet1.xml': { encrypted: true } }));
    expect(code).toBe('WORKBOOK_ENCRYPTED');
    expect(meter.inflatedBytes).toBe(0);
  });

  it('rejects a part that appears twice', async () => {
    const parts = workbookParts(SMALL);
    const entries: ZipEntry[] = [...parts].map(([name, text]) => ({ name, data: Buffer.from(text) }));
    entries.push({ name: 'xl/Worksheets/Sheet1.xml', data: Buffer.from(worksheet(`<row r="1">${cell('A1', 'other')}</row>`)) });
    expect((await refusal(writeZip(entries))).code).toBe('FILE_UNREADABLE');
  });
});
