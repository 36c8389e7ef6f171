/** Which sheet is read, and merged cells spread over the cells they cover. */
import { describe, expect, it } from 'vitest';
import type { FileHandle } from 'node:fs/promises';
import { isConnectorError } from '../../../../src/errors.js';
import { openWorkbook } from '../../../../src/mapping/readers/xlsx-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { flat, readRows, workbookParts, worksheet, XLSX_OPTIONS, zipOf, type WorkbookSpec } from '../../../helpers/xlsx/workbook-builder.js';

const one = (text: string) => `<row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c></row>`;

async function readSpec(spec: WorkbookSpec, options = {}) {
  return withTempDir(async (dir) => readRows(dir, zipOf(workbookParts(spec)), options));
}

async function failure(spec: WorkbookSpec, options = {}) {
  try {
    await readSpec(spec, options);
  } catch (error) {
    if (isConnectorError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the workbook was read');
}

describe('xlsx reader: sheet choice', () => {
  // sheet1.xml is the second sheet in workbook order: the file name must not decide.
  const spec: WorkbookSpec = {
    sheets: [
      { name: 'Справочник', xml: one('hidden first'), state: 'hidden', part: 'xl/worksheets/sheet2.xml' },
      { name: 'Заявки', xml: one('requests'), part: 'xl/worksheets/sheet1.xml' },
      { name: 'Итоги 2026', xml: one('totals'), part: 'xl/worksheets/sheet3.xml' },
    ],
  };

  it('defaults to the first sheet in workbook order, hidden or not, found through the relationships', async () => {
    const { rows, label } = await readSpec(spec);
    expect(flat(rows)).toEqual([[1, 'hidden first']]);
    expect(label).toBe('sheet "Справочник" (hidden)');
  });

  it('takes a sheet by name, exactly first and then ignoring case', async () => {
    expect(flat((await readSpec(spec, { sheet: 'Заявки' })).rows)).toEqual([[1, 'requests']]);
    expect(flat((await readSpec(spec, { sheet: 'итоги 2026' })).rows)).toEqual([[1, 'totals']]);
  });

  it('takes a sheet by position, hidden sheets counted', async () => {
    expect(flat((await readSpec(spec, { sheet: 2 })).rows)).toEqual([[1, 'requests']]);
    expect(flat((await readSpec(spec, { sheet: 3 })).rows)).toEqual([[1, 'totals']]);
  });

  it('names the sheets that exist when the asked one does not', async () => {
    expect(await failure(spec, { sheet: 'Orders' })).toEqual({
      code: 'FILE_UNREADABLE',
      message: 'has no sheet "Orders" (xlsx.sheet): its sheets are 1 "Справочник" (hidden), 2 "Заявки", 3 "Итоги 2026"',
    });
    expect((await failure(spec, { sheet: 4 })).code).toBe('FILE_UNREADABLE');
  });

  it('resolves absolute relationship targets', async () => {
    expect(flat((await readSpec({ ...spec, absoluteTargets: true }, { sheet: 'Заявки' })).rows)).toEqual([[1, 'requests']]);
  });
});

describe('xlsx reader: merged cells', () => {
  it('reads every cell of a merged range as its top-left value, merges listed after the rows', async () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Документ</t></is></c><c r="B1" t="inlineStr"><is><t>Товар</t></is></c><c r="D1" t="inlineStr"><is><t>Кол-во</t></is></c></row>' +
      '<row r="2"><c r="B2" t="inlineStr"><is><t>Наименование</t></is></c><c r="C2" t="inlineStr"><is><t>Ед.</t></is></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t>ЗК-1</t></is></c><c r="B3" t="inlineStr"><is><t>Бумага</t></is></c><c r="D3"><v>5</v></c></row>' +
      '<row r="4"><c r="A4" s="0"/><c r="B4" t="inlineStr"><is><t>Ручка</t></is></c><c r="D4"><v>7</v></c></row>' +
      '<row r="5"><c r="A5" t="inlineStr"><is><t>stale value Excel hides</t></is></c><c r="B5" t="inlineStr"><is><t>Скрепки</t></is></c></row>';
    const { rows: read } = await readSpec({ sheets: [{ name: 'S', xml: worksheet(rows, { merges: ['A1:A2', 'B1:C1', 'D1:D2', 'A3:A5'] }) }] });
    expect(flat(read)).toEqual([
      [1, 'Документ', 'Товар', 'Товар', 'Кол-во'],
      [2, 'Документ', 'Наименование', 'Ед.', 'Кол-во'],
      [3, 'ЗК-1', 'Бумага', '', 5],
      [4, 'ЗК-1', 'Ручка', '', 7],
      [5, 'ЗК-1', 'Скрепки'],
    ]);
  });

  it('finds <x:mergeCells> split across inflated chunks, after a large sheetData', async () => {
    const filler = Array.from(
      { length: 3000 },
      (_, i) => `<x:row r="${i + 2}"><x:c r="A${i + 2}"><x:v>${i}</x:v></x:c><x:c r="B${i + 2}"><x:v>${i}</x:v></x:c></x:row>`,
    ).join('');
    const xml = `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>top</x:t></x:is></x:c></x:row>${filler}</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A1:C1"/></x:mergeCells></x:worksheet>`;
    const { rows } = await readSpec({ sheets: [{ name: 'S', xml }] });
    expect(rows[0]!.cells).toEqual(['top', 'top', 'top']);
    expect(rows).toHaveLength(3001);
  });

  // zlib hands out inflated bytes in 16 KiB chunks: put the tag across that boundary at each offset.
  it.each([1, 2, 3, 5, 8, 12])('finds <x:mergeCells> when a chunk ends %i bytes into it', async (into) => {
    const head = `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>top</x:t></x:is></x:c></x:row></x:sheetData>`;
    const pad = ' '.repeat(16 * 1024 - into - Buffer.byteLength(head));
    const xml = `${head}${pad}<x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>`;
    expect(Buffer.byteLength(xml.slice(0, xml.indexOf('<x:mergeCells')))).toBe(16 * 1024 - into);
    const { rows } = await readSpec({ sheets: [{ name: 'S', xml }] });
    expect(rows[0]!.cells).toEqual(['top', 'top']);
  });

  it('refuses a merged range past the sheet bounds', async () => {
    const xml = worksheet(one('x'), { merges: ['A1:A1048577'] });
    expect((await failure({ sheets: [{ name: 'S', xml }] })).code).toBe('WORKBOOK_LIMIT_EXCEEDED');
  });
});

describe('xlsx reader: header rule', () => {
  it('finds the header among xlsx.headerSearchRows by default, or takes a fixed row (and the one below)', () => {
    // Never read: the rule is known before the first row.
    const handle = {} as FileHandle;
    expect(openWorkbook(handle, { ...XLSX_OPTIONS, headerSearchRows: 12 }).header).toEqual({ kind: 'find', within: 12 });
    expect(openWorkbook(handle, { ...XLSX_OPTIONS, headerRow: 4, headerRows: 2 }).header).toEqual({ kind: 'at', row: 4, rows: 2 });
  });
});
