/** Cell types, as the sheet XML writes them, read by the XLSX reader. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkbook } from '../../../../src/mapping/readers/xlsx-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { flat, readRows, workbookParts, worksheet, zipOf, MAIN_NS, XLSX_OPTIONS } from '../../../helpers/xlsx/workbook-builder.js';

const read = (spec: Parameters<typeof workbookParts>[0], options = {}) => withTempDir(async (dir) => readRows(dir, zipOf(workbookParts(spec)), options));

describe('xlsx reader: typed cells', () => {
  it('reads numbers, shared strings, inline strings, booleans, errors and formula results by their type', async () => {
    const { rows } = await read({
      sheets: [
        {
          name: 'Data',
          xml:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c><c r="C1" t="n"><v>1.5E-3</v></c><c r="D1" t="inlineStr"><is><t>inline</t></is></c></row>' +
            '<row r="2"><c r="A2" t="b"><v>1</v></c><c r="B2" t="b"><v>0</v></c><c r="C2" t="e"><v>#N/A</v></c><c r="D2" t="str"><f>A1&amp;"!"</f><v>text!</v></c></row>' +
            '<row r="3"><c r="A3"><f>B1*2</f><v>84</v></c><c r="B3"><f>1/0</f></c><c r="C3" t="str"><f>""</f><v></v></c><c r="D3" t="s"><v>1</v></c></row>',
        },
      ],
      sharedStrings: ['Номер заявки', '  spaced  '],
    });
    expect(flat(rows)).toEqual([
      [1, 'Номер заявки', 42, 0.0015, 'inline'],
      [2, 'TRUE', 'FALSE', '#N/A', 'text!'],
      [3, 84, '', '', '  spaced  '],
    ]);
  });

  it('joins rich-text runs, leaves out phonetic runs, keeps whitespace exactly and decodes _xHHHH_ escapes', async () => {
    const { rows } = await read({
      sheets: [
        {
          name: 'S',
          xml: '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is>\n  <r><t>Бумага </t></r>\n  <r><rPr><b/></rPr><t>А4</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh></is></c><c r="C1" t="s"><v>1</v></c></row>',
        },
      ],
      sharedStrings:
        '<si><r><t xml:space="preserve">ООО </t></r><r><rPr><i/></rPr><t>«Ромашка»</t></r><rPh sb="0" eb="3"><t>ロマシカ</t></rPh><phoneticPr fontId="1"/></si>' +
        '<si><t>line one_x000D_\nline two_x005F_x</t></si>',
    });
    expect(flat(rows)).toEqual([[1, 'ООО «Ромашка»', 'Бумага А4', 'line one\r\nline two_x']]);
  });

  it('skips missing rows and cells without inventing them, and skips rows with no value', async () => {
    const { rows } = await read({
      sheets: [
        {
          name: 'S',
          xml: '<row r="2"><c r="C2"><v>1</v></c></row><row r="5"/><row r="6"><c r="A6" s="0"/><c r="B6" t="s"/></row><row r="9"><c r="B9"><v>2</v></c><c r="E9"><v>3</v></c></row>',
        },
      ],
    });
    expect(flat(rows)).toEqual([
      [2, '', '', 1],
      [9, '', 2, '', '', 3],
    ]);
  });

  it('numbers rows and cells that omit their r attribute from the ones before', async () => {
    const { rows } = await read({
      sheets: [{ name: 'S', xml: '<row><c><v>1</v></c><c><v>2</v></c></row><row r="4"><c r="B4"><v>3</v></c><c><v>4</v></c></row><row><c><v>5</v></c></row>' }],
    });
    expect(flat(rows)).toEqual([
      [1, 1, 2],
      [4, '', 3, 4],
      [5, 5],
    ]);
  });

  it('matches elements by local name: x: prefixes and the strict OOXML namespace read the same', async () => {
    const prefixed = `<?xml version="1.0"?><x:worksheet xmlns:x="${MAIN_NS}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>prefixed</x:t></x:is></x:c><x:c r="B1"><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const strict = `<?xml version="1.0"?><worksheet xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>strict</t></is></c></row></sheetData></worksheet>`;
    expect(flat((await read({ sheets: [{ name: 'S', xml: prefixed }] })).rows)).toEqual([[1, 'prefixed', 7]]);
    expect(flat((await read({ sheets: [{ name: 'S', xml: strict }] })).rows)).toEqual([[1, 'strict']]);
  });

  it('names cells with the sheet, quoted as Excel quotes it', async () => {
    const plain = await read({ sheets: [{ name: 'Заявки', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] });
    expect(plain.cellRef(7, 2)).toBe('Заявки!C7');
    expect(plain.label).toBe('sheet "Заявки"');
    const spaced = await read({ sheets: [{ name: "Заявки 2026 O'K", xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] });
    expect(spaced.cellRef(7, 27)).toBe("'Заявки 2026 O''K'!AB7");
  });

  it('reads a sheet that holds no rows as no rows', async () => {
    const { rows } = await read({ sheets: [{ name: 'S', xml: worksheet('') }] });
    expect(rows).toEqual([]);
  });
});

describe('xlsx reader: narrowed to the mapped columns', () => {
  it('after narrow(2), a row lays out only columns A and B: a cell at XFD and a merge across the sheet cost nothing past them', async () => {
    await withTempDir(async (dir) => {
      const xml =
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Номер</t></is></c><c r="B1" t="inlineStr"><is><t>Товар</t></is></c></row>' +
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c><c r="XFD2"><v>3</v></c></row>' +
        '<row r="3"><c r="A3"><v>4</v></c><c r="C3"><v>5</v></c></row>' +
        '<row r="4"><c r="XFD4"><v>6</v></c></row>';
      const file = path.join(dir, 'book.xlsx');
      fs.writeFileSync(file, zipOf(workbookParts({ sheets: [{ name: 'S', xml: worksheet(xml, { merges: ['B3:XFD3'] }) }] })));
      const handle = await fs.promises.open(file);
      try {
        const input = openWorkbook(handle, XLSX_OPTIONS);
        const rows: unknown[][] = [];
        for await (const row of input.rows) {
          rows.push([row.row, ...row.cells]);
          if (row.row === 1) input.narrow!(2);
        }
        // Row 3's merge starts at B (empty: the top-left value is B3's) and is cut at B; row 4 has
        // nothing left in A and B and is passed over as an empty row.
        expect(rows).toEqual([
          [1, 'Номер', 'Товар'],
          [2, 1, 2],
          [3, 4, ''],
        ]);
      } finally {
        await handle.close();
      }
    });
  });

  it('without narrow, the same rows keep every cell (the reader alone does not cut them)', async () => {
    const { rows } = await read({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1"><v>1</v></c><c r="D1"><v>2</v></c></row>' }] });
    expect(flat(rows)).toEqual([[1, 1, '', '', 2]]);
  });
});
