/** Files given to the workbook reader that are not xlsx workbooks are named for what they are; broken XML parts are named by part, line and column. */
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../../../src/errors.js';
import type { InflateMeter } from '../../../../src/mapping/readers/xlsx-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { specOf, split, writeInput } from '../../../helpers/mapping-fixtures.js';
import { buildCfb } from '../../../helpers/xlsx/cfb-builder.js';
import { flat, readRows, workbookParts, worksheet, zipOf, type WorkbookSpec } from '../../../helpers/xlsx/workbook-builder.js';
import { writeZip } from '../../../helpers/xlsx/zip-writer.js';

async function refusal(bytes: Buffer): Promise<{ code: string; message: string; meter: InflateMeter }> {
  const meter: InflateMeter = { inflatedBytes: 0, opened: [] };
  try {
    await withTempDir((dir) => readRows(dir, bytes, {}, meter));
  } catch (error) {
    if (isConnectorError(error)) return { code: error.code, message: error.message, meter };
    throw error;
  }
  throw new Error('the file was read');
}

const SMALL: WorkbookSpec = { sheets: [{ name: 'S', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] };

describe('xlsx reader: what a file is when it is not an xlsx workbook', () => {
  it('an encrypted workbook (an OLE file with EncryptionInfo/EncryptedPackage, found through the FAT chain)', async () => {
    expect(await refusal(buildCfb(['EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces']))).toMatchObject({
      code: 'WORKBOOK_ENCRYPTED',
      message: 'is encrypted (password to open): save it again without a password',
    });
  });

  it('an Excel 97-2003 workbook', async () => {
    expect(await refusal(buildCfb(['Workbook']))).toMatchObject({
      code: 'FILE_FORMAT_UNSUPPORTED',
      message: 'is an Excel 97-2003 workbook (.xls): save it as .xlsx (Excel 2007 or later)',
    });
    expect((await refusal(buildCfb(['Book']))).message).toContain('Excel 97-2003');
  });

  it('another OLE file, or a damaged one', async () => {
    expect((await refusal(buildCfb(['WordDocument']))).message).toMatch(/^is an OLE compound file/);
    const broken = buildCfb(['Workbook']);
    broken.writeUInt16LE(7, 0x1e); // an impossible sector size
    expect((await refusal(broken)).message).toMatch(/^is an OLE compound file/);
  });

  it('a 1C spreadsheet document', async () => {
    expect(await refusal(Buffer.concat([Buffer.from('MOXCEL\0', 'latin1'), Buffer.alloc(100)]))).toMatchObject({
      code: 'FILE_FORMAT_UNSUPPORTED',
      message: 'is a 1C spreadsheet document (.mxl): in 1C, save it as .xlsx',
    });
  });

  it('an OpenDocument spreadsheet, by its mimetype or by content.xml', async () => {
    const ods = writeZip([
      { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), stored: true },
      { name: 'content.xml', data: Buffer.from('<office:document-content/>') },
    ]);
    expect(await refusal(ods)).toMatchObject({
      code: 'FILE_FORMAT_UNSUPPORTED',
      message: 'is an OpenDocument spreadsheet (.ods): save it as .xlsx (Excel 2007 or later)',
    });
    expect((await refusal(writeZip([{ name: 'content.xml', data: Buffer.from('<x/>') }]))).message).toMatch(/OpenDocument/);
  });

  it('a ZIP archive without a workbook, a Word document, a binary workbook', async () => {
    expect(await refusal(writeZip([{ name: 'readme.txt', data: Buffer.from('hello') }]))).toMatchObject({
      code: 'FILE_FORMAT_UNSUPPORTED',
      message: 'is a ZIP archive without a workbook in it (no xl/workbook.xml): save it as .xlsx (Excel 2007 or later)',
    });
    const rels = (target: string) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}"/></Relationships>`;
    const docx = writeZip([
      { name: '_rels/.rels', data: Buffer.from(rels('word/document.xml')) },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]);
    expect((await refusal(docx)).message).toMatch(/^is a Word document/);
    const xlsb = writeZip([
      { name: '_rels/.rels', data: Buffer.from(rels('xl/workbook.bin')) },
      { name: 'xl/workbook.bin', data: Buffer.alloc(10) },
    ]);
    expect((await refusal(xlsb)).message).toMatch(/^is an Excel binary workbook \(\.xlsb\)/);
  });

  it('an Excel 2003 XML spreadsheet, an HTML page, text, an empty file', async () => {
    const excel2003 =
      '<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"></Workbook>';
    expect(await refusal(Buffer.from(excel2003))).toMatchObject({
      code: 'FILE_FORMAT_UNSUPPORTED',
      message: expect.stringMatching(/^is an Excel 2003 XML spreadsheet/),
    });
    expect((await refusal(Buffer.from('\uFEFF<html><body><table></table></body></html>'))).message).toMatch(/^is a web page/);
    expect((await refusal(Buffer.from('Номер;ИНН\n1;2\n'))).message).toMatch(/^is not an xlsx workbook/);
    expect((await refusal(Buffer.alloc(0))).code).toBe('FILE_UNREADABLE');
  });
});

describe('xlsx reader: XML parts', () => {
  it.each(['xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/styles.xml', 'xl/_rels/workbook.xml.rels'])(
    'refuses a DOCTYPE in %s without expanding its entities',
    async (part) => {
      const parts = workbookParts({ ...SMALL, sharedStrings: ['a'], styles: [0] });
      const doctype = '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>';
      parts.set(
        part,
        parts.get(part)!.replace(/^(<\?xml[^>]*\?>)?/, (declaration) => `${declaration}\n${doctype}`),
      );
      const { code, message } = await refusal(zipOf(parts));
      expect(code).toBe('XML_DTD_REFUSED');
      expect(message).toContain(`has a DOCTYPE in ${part} line 2`);
    },
  );

  it('names the part, line and column of malformed XML', async () => {
    const sheet =
      '<?xml version="1.0"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\n<sheetData><row r="1"><c r="A1"><v>1</c></row></sheetData></worksheet>';
    const { code, message } = await refusal(zipOf(workbookParts({ sheets: [{ name: 'S', xml: sheet }] })));
    expect(code).toBe('XML_MALFORMED');
    expect(message).toMatch(/^is not a readable workbook: xl\/worksheets\/sheet1\.xml line 3, column \d+: unexpected close tag/);
  });

  it('names a sheet part that ends too early', async () => {
    const sheet =
      '<?xml version="1.0"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1"><v>1</v></c></row>';
    const { code, message } = await refusal(zipOf(workbookParts({ sheets: [{ name: 'S', xml: sheet }] })));
    expect(code).toBe('XML_MALFORMED');
    expect(message).toContain('xl/worksheets/sheet1.xml line 2');
  });

  it('reads a macro workbook without ever opening xl/vbaProject.bin (here a lying-size entry that would fail if inflated)', async () => {
    const parts: Map<string, string | Buffer> = workbookParts({
      sheets: [
        { name: 'S', xml: worksheet('<row r="1"><c r="A1"><v>5</v></c></row>').replace('<sheetData>', '<sheetProtection sheet="1" objects="1"/><sheetData>') },
      ],
    });
    parts.set('xl/workbook.xml', (parts.get('xl/workbook.xml') as string).replace('<sheets>', '<workbookProtection lockStructure="1"/><sheets>'));
    parts.set(
      '[Content_Types].xml',
      (parts.get('[Content_Types].xml') as string).replace('spreadsheetml.sheet.main+xml', 'ms-excel.sheet.macroEnabled.main+xml'),
    );
    parts.set('xl/vbaProject.bin', Buffer.alloc(100_000, 7));
    const meter: InflateMeter = { inflatedBytes: 0, opened: [] };
    const rows = await withTempDir(async (dir) => (await readRows(dir, zipOf(parts, { 'xl/vbaProject.bin': { declaredSize: 10 } }), {}, meter)).rows);
    expect(flat(rows)).toEqual([[1, 5]]);
    expect(meter.opened).not.toContain('xl/vbaProject.bin');
    expect(meter.opened).toEqual(['_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet1.xml']);
  });

  it('reads the small parts first whatever their order in the archive', async () => {
    const parts = workbookParts({ ...SMALL, sharedStrings: ['a'] });
    parts.set('xl/worksheets/sheet1.xml', worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'));
    const order = ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/workbook.xml', '[Content_Types].xml', 'xl/_rels/workbook.xml.rels', '_rels/.rels'];
    const rows = await withTempDir(async (dir) => (await readRows(dir, zipOf(parts, {}, order))).rows);
    expect(flat(rows)).toEqual([[1, 'a']]);
  });
});

describe('xlsx reader through mapFile: a refused workbook is one file-level problem naming the file', () => {
  const spec = specOf({
    format: 'xlsx',
    groupBy: 'Номер',
    request: {
      externalId: { column: 'Номер' },
      'customer.inn': { const: '7707083893' },
      'customer.name': { const: 'x' },
      'contact.name': { const: 'x' },
      'contact.phone': { const: '+7 495 000-00-00' },
      'delivery.city': { const: 'x' },
      'delivery.address': { const: 'x' },
      'delivery.desiredDate': { const: '2030-01-01' },
    },
    items: { lineId: { counter: true }, name: { const: 'x' }, quantity: { const: 1 }, unit: { const: 'шт' } },
  });

  it.each([
    [
      'an encrypted workbook',
      () => buildCfb(['EncryptionInfo', 'EncryptedPackage']),
      'WORKBOOK_ENCRYPTED',
      'book.xlsx: is encrypted (password to open): save it again without a password',
    ],
    [
      'a sheet with a DOCTYPE',
      () => {
        const parts = workbookParts(SMALL);
        parts.set('xl/worksheets/sheet1.xml', `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n${worksheet('').replace(/^<\?xml[^>]*\?>\n/, '')}`);
        return zipOf(parts);
      },
      'XML_DTD_REFUSED',
      'book.xlsx: has a DOCTYPE in xl/worksheets/sheet1.xml line 2, column 30: a workbook part never has one, and its entities are not expanded; refused',
    ],
  ])('%s', async (_, bytes, code, message) => {
    const problems = await withTempDir(async (dir) => (await split(writeInput(dir, 'book.xlsx', bytes()), spec)).problems);
    expect(problems).toMatchObject([{ row: null, field: null, code, message, text: { key: expect.any(String) } }]);
    expect(Object.keys(problems[0]!).sort()).toEqual(['code', 'field', 'message', 'row', 'text']);
  });
});
