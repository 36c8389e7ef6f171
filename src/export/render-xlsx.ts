/**
 * Rendering export records into an xlsx workbook: one sheet, a header row, one row per record,
 * with the columns and values of the CSV file (`resolveColumns`, `formatCellValue`), numbers as
 * numbers, dates as dates (`excel-date.ts`), the rest as inline strings (`xlsx-cell.ts`).
 *
 * Why the SpreadsheetML is written by hand rather than with exceljs: its streaming WorkbookWriter
 * would bring about 60 packages, and a second ZIP library beside yazl/yauzl, into the release for
 * a one-sheet file of inline strings. Five of the six parts are fixed text (the styles vary only by
 * the columns' date formats); the sheet is rows of `<c>` elements. The package is the minimum
 * Excel, LibreOffice and 1C open: `[Content_Types].xml`, `_rels/.rels`, `xl/workbook.xml`,
 * `xl/_rels/workbook.xml.rels`, `xl/styles.xml`, `xl/worksheets/sheet1.xml`.
 *
 * The sheet is generated row by row and streamed into yazl (`addReadStream`), so only its
 * compressed bytes are held, not the whole XML of a 50,000-row batch.
 *
 * Same records, same bytes: every entry has the same fixed time and mode, and the entries go in a
 * fixed order, so a file rewritten after a crash is byte-identical to the first, which the export's
 * `noClobber` rule needs (a file holding exactly our bytes is our own earlier write,
 * `write-file-atomic.ts`). The time is 2000-01-01 00:00, in the DOS fields only
 * (`forceDosTimestamp`): yazl computes them in local time, so a local date gives the same bytes in
 * every time zone, where the extra UTC field would not. (Not 1980-01-01, the first DOS day: yazl
 * clamps to that day's midnight in the zone it was loaded in, which a date on the edge could cross
 * when the zone changes.) The one thing the bytes also depend on is
 * zlib's deflate, which is stable for a given Node build but has changed between versions: only a
 * rewrite after a crash that spans a Node upgrade could differ (it then goes to a fallback name,
 * as with any foreign file).
 */
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ExportFormat } from '../config/export-format-schema.js';
import { excelDateFormat } from './excel-date.js';
import { formatCellValue } from './format-value.js';
import { resolveColumns } from './resolve-columns.js';
import { cellXml, columnLetters, escapeXmlAttribute, textCellXml } from './xlsx-cell.js';
import { ConnectorError } from '../errors.js';

/** A sheet's limits (Excel's, which LibreOffice shares). */
export const MAX_SHEET_ROWS = 1_048_576;
export const MAX_SHEET_COLUMNS = 16_384;

/** Sheet XML is handed to the compressor in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIP_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const RELATIONSHIP_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const CONTENT_TYPES =
  `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const PACKAGE_RELS =
  `${XML_DECLARATION}<Relationships xmlns="${RELATIONSHIP_NS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIP_TYPE}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS =
  `${XML_DECLARATION}<Relationships xmlns="${RELATIONSHIP_NS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIP_TYPE}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${RELATIONSHIP_TYPE}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/**
 * Every entry's time and mode (see the module comment): the same bytes in every zone, every run.
 * Made per file, since the local midnight it names moves with the zone.
 */
const entryOptions = () => ({ mtime: new Date(2000, 0, 1), mode: 0o100644, forceDosTimestamp: true, compress: true });

/** The workbook's bytes: one sheet named `format.xlsx.sheet`, its header row if `format.xlsx.header`. */
export async function renderXlsx(records: readonly Record<string, unknown>[], format: ExportFormat): Promise<Buffer> {
  const { sheet, header } = format.xlsx;
  const columns = resolveColumns(format, records);
  const rows = records.length + (header ? 1 : 0);
  if (columns.length > MAX_SHEET_COLUMNS) {
    throw new ConnectorError('EXPORT_WRITE_FAILED', `${columns.length} columns do not fit in a sheet (at most ${MAX_SHEET_COLUMNS})`);
  }
  if (rows > MAX_SHEET_ROWS) throw new ConnectorError('EXPORT_WRITE_FAILED', `${rows} rows do not fit in a sheet (at most ${MAX_SHEET_ROWS})`);

  // One cell style per distinct date format; style 0 is the default. `dateStyles[i]` is column i's.
  const formatCodes: string[] = [];
  const dateStyles = columns.map(([, column]) => {
    const code = column.date === undefined ? null : excelDateFormat(column.date);
    if (code === null) return null;
    if (!formatCodes.includes(code)) formatCodes.push(code);
    return formatCodes.indexOf(code) + 1;
  });

  const entry = entryOptions();
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml', entry);
  zip.addBuffer(Buffer.from(PACKAGE_RELS), '_rels/.rels', entry);
  zip.addBuffer(Buffer.from(workbookXml(sheet)), 'xl/workbook.xml', entry);
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels', entry);
  zip.addBuffer(Buffer.from(stylesXml(formatCodes)), 'xl/styles.xml', entry);
  const sheetXml = Readable.from(sheetChunks(records, columns, header, dateStyles));
  zip.addReadStream(sheetXml, 'xl/worksheets/sheet1.xml', entry);
  const bytes = collect(zip, sheetXml);
  zip.end();
  return bytes;
}

function workbookXml(sheetName: string): string {
  return (
    `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${RELATIONSHIP_TYPE}">` +
    `<sheets><sheet name="${escapeXmlAttribute(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`
  );
}

/**
 * The styles part: what Excel requires of every workbook (a font, the two reserved fills, a border,
 * the Normal style) and one cell format per date number format (ids from 164, the first free one).
 */
function stylesXml(formatCodes: readonly string[]): string {
  const numFmts =
    formatCodes.length === 0
      ? ''
      : `<numFmts count="${formatCodes.length}">${formatCodes.map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeXmlAttribute(code)}"/>`).join('')}</numFmts>`;
  const dateXfs = formatCodes.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
  return (
    `${XML_DECLARATION}<styleSheet xmlns="${MAIN_NS}">${numFmts}` +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${1 + formatCodes.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${dateXfs}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
}

/** The sheet part, a piece at a time: the header row (column names, as text), then a row per record. */
function* sheetChunks(
  records: readonly Record<string, unknown>[],
  columns: ReturnType<typeof resolveColumns>,
  header: boolean,
  dateStyles: readonly (number | null)[],
): Generator<Buffer> {
  const letters = columns.map((_, i) => columnLetters(i));
  const rows = records.length + (header ? 1 : 0);
  const dimension = rows === 0 || columns.length === 0 ? 'A1' : `A1:${letters[letters.length - 1]!}${rows}`;
  let chunk = `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}"><dimension ref="${dimension}"/><sheetData>`;
  let row = 0;
  if (header) {
    row += 1;
    chunk += `<row r="${row}">${columns.map(([name], i) => textCellXml(`${letters[i]!}${row}`, name)).join('')}</row>`;
  }
  for (const record of records) {
    row += 1;
    const cells = columns.map(([, column], i) => cellXml(`${letters[i]!}${row}`, formatCellValue(record, column), dateStyles[i]!));
    chunk += `<row r="${row}">${cells.join('')}</row>`;
    if (chunk.length >= CHUNK_CHARS) {
      yield Buffer.from(chunk, 'utf8');
      chunk = '';
    }
  }
  yield Buffer.from(`${chunk}</sheetData></worksheet>`, 'utf8');
}

/**
 * The zip's output as one buffer. yazl pipes the sheet stream without forwarding its errors, so
 * they are listened for here too (an error there would otherwise leave the promise pending).
 */
function collect(zip: ZipFile, sheetXml: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.on('error', reject);
    sheetXml.on('error', reject);
    zip.outputStream.on('error', reject);
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
