/**
 * Workbooks written part by part from XML text, for the cases a spreadsheet program does not
 * write on request: prefixes, strict OOXML, a DOCTYPE, parts in a chosen order, broken XML, lying
 * sizes. `workbookParts()` makes a valid minimal workbook; each test changes one part of it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { XlsxOptions } from '../../../src/config/mapping-schema.js';
import type { TableRow } from '../../../src/mapping/readers/types.js';
import { openWorkbook, type InflateMeter } from '../../../src/mapping/readers/xlsx-reader.js';
import { writeZip, type ZipEntry } from './zip-writer.js';

export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface SheetSpec {
  name: string;
  /** The `<sheetData>` content (rows), or the whole worksheet XML when it starts with `<?xml` or `<worksheet`. */
  xml: string;
  state?: 'hidden' | 'veryHidden';
  /** The part name; default `xl/worksheets/sheetN.xml`. */
  part?: string;
}

export interface WorkbookSpec {
  sheets: SheetSpec[];
  sharedStrings?: string[] | string;
  /** The whole styles part, or the number format of each style index (`14`, `'dd.mm.yyyy'`). */
  styles?: string | (number | string)[];
  date1904?: boolean | string;
  /** Relationship targets written absolute (`/xl/worksheets/sheet1.xml`). */
  absoluteTargets?: boolean;
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');

/** A worksheet around `sheetData` rows, with merges and a dimension if given. */
export function worksheet(rows: string, options: { dimension?: string; merges?: string[] } = {}): string {
  const dimension = options.dimension === undefined ? '' : `<dimension ref="${options.dimension}"/>`;
  const merges =
    options.merges === undefined
      ? ''
      : `<mergeCells count="${options.merges.length}">${options.merges.map((ref) => `<mergeCell ref="${ref}"/>`).join('')}</mergeCells>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${dimension}<sheetData>${rows}</sheetData>${merges}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
}

/** The parts of a workbook, by name. */
export function workbookParts(spec: WorkbookSpec): Map<string, string> {
  const parts = new Map<string, string>();
  const sheetParts = spec.sheets.map((sheet, index) => sheet.part ?? `xl/worksheets/sheet${index + 1}.xml`);
  const target = (part: string) => (spec.absoluteTargets ? `/${part}` : part.slice('xl/'.length));
  parts.set(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
  );
  parts.set(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_TYPE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  const date1904 = spec.date1904 === undefined ? '' : `<workbookPr date1904="${spec.date1904 === true ? '1' : String(spec.date1904)}"/>`;
  const sheets = spec.sheets
    .map(
      (sheet, index) => `<sheet name="${escape(sheet.name)}" sheetId="${index + 1}"${sheet.state ? ` state="${sheet.state}"` : ''} r:id="rIdS${index + 1}"/>`,
    )
    .join('');
  parts.set(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${date1904}<sheets>${sheets}</sheets></workbook>`,
  );
  const rels = spec.sheets.map((_, index) => `<Relationship Id="rIdS${index + 1}" Type="${REL_TYPE}/worksheet" Target="${target(sheetParts[index]!)}"/>`);
  if (spec.sharedStrings !== undefined) {
    rels.push(`<Relationship Id="rIdSS" Type="${REL_TYPE}/sharedStrings" Target="${target('xl/sharedStrings.xml')}"/>`);
    const items =
      typeof spec.sharedStrings === 'string'
        ? spec.sharedStrings
        : spec.sharedStrings.map((text) => `<si><t xml:space="preserve">${escape(text)}</t></si>`).join('');
    parts.set('xl/sharedStrings.xml', `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN_NS}">${items}</sst>`);
  }
  if (spec.styles !== undefined) {
    rels.push(`<Relationship Id="rIdST" Type="${REL_TYPE}/styles" Target="${target('xl/styles.xml')}"/>`);
    parts.set('xl/styles.xml', typeof spec.styles === 'string' ? spec.styles : stylesXml(spec.styles));
  }
  parts.set('xl/_rels/workbook.xml.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}">${rels.join('')}</Relationships>`);
  spec.sheets.forEach((sheet, index) => {
    const whole = sheet.xml.startsWith('<?xml') || sheet.xml.startsWith('<worksheet') || sheet.xml.startsWith('<x:worksheet');
    parts.set(sheetParts[index]!, whole ? sheet.xml : worksheet(sheet.xml));
  });
  return parts;
}

/** A styles part whose cellXfs use these formats, in order: built-in ids as numbers, custom codes as text. */
export function stylesXml(formats: readonly (number | string)[]): string {
  const custom: string[] = [];
  const xfs = formats.map((format) => {
    let id = format;
    if (typeof format === 'string') {
      id = 164 + custom.length;
      custom.push(`<numFmt numFmtId="${id}" formatCode="${escape(format)}"/>`);
    }
    return `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${MAIN_NS}"><numFmts count="${custom.length}">${custom.join('')}</numFmts><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs></styleSheet>`;
}

/** The parts as a ZIP, in the given order, with per-entry overrides (lying sizes, encryption). */
export function zipOf(parts: Map<string, string | Buffer>, overrides: Record<string, Partial<ZipEntry>> = {}, order?: string[]): Buffer {
  const names = order ?? [...parts.keys()];
  return writeZip(
    names.map((name) => {
      const content = parts.get(name)!;
      return { name, data: typeof content === 'string' ? Buffer.from(content, 'utf8') : content, ...overrides[name] };
    }),
  );
}

export const XLSX_OPTIONS: XlsxOptions = {
  headerRow: 'auto',
  headerRows: 1,
  headerSearchRows: 30,
  decimalComma: false,
  maxUncompressedBytes: 1024 * 1024 * 1024,
};

/** Write `bytes` as `name` in `dir` and read every row through the reader. */
export async function readRows(
  dir: string,
  bytes: Buffer,
  options: Partial<XlsxOptions> = {},
  meter: InflateMeter = { inflatedBytes: 0, opened: [] },
): Promise<{ rows: TableRow[]; label: string | undefined; cellRef: (row: number, column: number) => string }> {
  const file = path.join(dir, `book-${Math.random().toString(36).slice(2)}.xlsx`);
  await fs.writeFile(file, bytes);
  const handle = await fs.open(file);
  try {
    const input = openWorkbook(handle, { ...XLSX_OPTIONS, ...options }, undefined, meter);
    const rows: TableRow[] = [];
    for await (const row of input.rows) rows.push(row);
    return { rows, label: input.label, cellRef: input.cellRef! };
  } finally {
    await handle.close();
  }
}

/** Rows as `[row, ...cells]` arrays, for compact expectations. */
export const flat = (rows: readonly TableRow[]) => rows.map((row) => [row.row, ...row.cells]);
