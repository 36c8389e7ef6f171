/**
 * The XLSX reader (a table): one sheet of a workbook saved by Excel, 1C or LibreOffice, streamed
 * row by row. Its parts live in `xlsx/`, one concept each.
 *
 * Why not exceljs's streaming `WorkbookReader`, which would be a few lines: it reads the ZIP front
 * to back with unzipper, trusting every entry's size (nothing caps the inflated bytes, so a 1 MB
 * file can inflate for ever); it writes the worksheets that precede `sharedStrings.xml` in the
 * archive to temp files, to replay them once the strings are known; it finds sheets by their
 * `sheetN.xml` file name instead of the workbook's relationships (so "the first sheet" can be the
 * wrong one); and it has no limit on a text node. Here instead:
 *
 * - **yauzl**, random access through the central directory: `xl/workbook.xml`, its relationships,
 *   `styles.xml` and `sharedStrings.xml` are read first whatever their order in the file, entry
 *   counts and declared sizes are checked before anything inflates, and each entry is held to its
 *   declared size while it inflates (`xlsx/workbook-archive.ts`);
 * - **saxes**, a SAX parser: nothing is built but the row at hand; a DOCTYPE refuses the part
 *   (`xlsx/xml-part.ts`).
 *
 * Order of reading: the container's first bytes (an .xls, an encrypted workbook, an .mxl, an
 * Excel 2003 XML or HTML file is named as such, `xlsx/identify-file.ts`), the ZIP directory, the
 * workbook and its relationships (the sheet, `xlsx/choose-sheet.ts`), a first pass over the sheet
 * for its dimension and merged cells (`xlsx/sheet-outline.ts`), the styles (which numbers are dates),
 * the shared strings, then the rows (`xlsx/sheet-rows.ts`). Every error is a `ConnectorError`
 * thrown from the rows generator; `rows.return()` closes the archive and stops any inflation (the
 * FileHandle stays open: it is the caller's).
 */
import type { InputHandle } from '../../shared/input-file.js';
import type { XlsxOptions } from '../../config/mapping-schema.js';
import { ConnectorError } from '../../errors.js';
import type { HeaderRule, TableInput, TableReader, TableRow } from './types.js';
import { formatCellRef, MAX_COLUMNS } from './xlsx/cell-ref.js';
import { NO_STYLES, readCellStyles } from './xlsx/cell-styles.js';
import { chooseSheet, sheetLabel } from './xlsx/choose-sheet.js';
import { locateWorkbook, requireZipContainer } from './xlsx/identify-file.js';
import { readSharedStrings } from './xlsx/shared-strings.js';
import { readSheetOutline } from './xlsx/sheet-outline.js';
import { readSheetRows, type ColumnWindow } from './xlsx/sheet-rows.js';
import { WorkbookArchive, type InflateMeter } from './xlsx/workbook-archive.js';
import { readWorkbookParts, type SheetEntry } from './xlsx/workbook-parts.js';

export type { InflateMeter };

export const xlsxReader: TableReader = {
  shape: 'table',
  open: (handle, spec, options) => openWorkbook(handle, spec.xlsx, options?.signal),
};

/**
 * The table of one sheet of the workbook in `handle`. `meter` counts what was inflated (tests and
 * benchmarks check the limits with it).
 */
export function openWorkbook(
  handle: InputHandle,
  options: XlsxOptions,
  signal?: AbortSignal,
  meter: InflateMeter = { inflatedBytes: 0, opened: [] },
): TableInput {
  let sheet: SheetEntry | undefined;
  const columnWindow: ColumnWindow = { width: MAX_COLUMNS };
  const header: HeaderRule =
    options.headerRow === 'auto' ? { kind: 'find', within: options.headerSearchRows } : { kind: 'at', row: options.headerRow, rows: options.headerRows };
  return {
    rows: workbookRows(handle, options, meter, columnWindow, (chosen) => (sheet = chosen), signal),
    header,
    narrow: (width) => {
      columnWindow.width = Math.min(columnWindow.width, Math.max(1, width));
    },
    // Called only for rows already read, so the sheet is known by then.
    cellRef: (row, column) => formatCellRef(sheet?.name ?? '', row, column),
    get label() {
      return sheet === undefined ? undefined : sheetLabel(sheet);
    },
    decimalComma: options.decimalComma,
  };
}

async function* workbookRows(
  handle: InputHandle,
  options: XlsxOptions,
  meter: InflateMeter,
  window: ColumnWindow,
  chosen: (sheet: SheetEntry) => void,
  signal?: AbortSignal,
): AsyncGenerator<TableRow> {
  signal?.throwIfAborted();
  await requireZipContainer(handle);
  const archive = await WorkbookArchive.open(handle, options, meter);
  try {
    const workbook = await locateWorkbook(archive, signal);
    const parts = await readWorkbookParts(archive, workbook, signal);
    const sheet = chooseSheet(parts.sheets, options.sheet);
    chosen(sheet);
    if (sheet.part === undefined || !archive.has(sheet.part)) {
      throw new ConnectorError('FILE_UNREADABLE', `is not a complete xlsx workbook: the part of sheet "${sheet.name}" is missing`, {
        text: { key: 'workbookNoPart', params: { part: sheet.part ?? `"${sheet.name}"` } },
      });
    }
    const { merges } = await readSheetOutline(archive, sheet.part, signal);
    const styles = parts.styles !== undefined && archive.has(parts.styles) ? await readCellStyles(archive, parts.styles, signal) : NO_STYLES;
    const strings =
      parts.sharedStrings !== undefined && archive.has(parts.sharedStrings) ? await readSharedStrings(archive, parts.sharedStrings, signal) : undefined;
    yield* readSheetRows(archive, { part: sheet.part, strings, styles, date1904: parts.date1904, merges, window }, signal);
  } finally {
    archive.close();
  }
}
