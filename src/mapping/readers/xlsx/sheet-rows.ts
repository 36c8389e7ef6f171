/**
 * The second pass over a sheet: its rows, parsed as the part inflates and handed on as the
 * consumer takes them. Each inflated chunk (16 KiB) is parsed into the rows it completes, those
 * rows are yielded one by one, and only then is the next chunk inflated: memory holds one chunk's
 * rows, whatever the sheet's size, and nothing inflates faster than rows are mapped.
 *
 * Cells are typed as the sheet types them (see `cellValue`): numbers stay numbers, dates become
 * `YYYY-MM-DD` text by their style, formulas give their cached result and are never evaluated.
 * Rows keep the numbers the sheet gives them (`<row r="7">`); rows the sheet leaves out are not
 * invented, and a row with no value in any cell (`<row r="5"/>`, or only styled empty cells) is
 * skipped here, as the CSV reader skips empty lines. Reading stops at `</sheetData>`.
 *
 * A row is parsed as the cells it has (column and value), and laid out as an array only when it is
 * handed on, up to `window.width` columns: once the table's header is known, its reader narrows the
 * window to the columns the mapping reads, so a row with one cell at column XFD, or a merge across
 * the whole sheet, costs a few cells, not 16,384 (a small file of such rows once took hundreds of MB).
 */
import { ConnectorError } from '../../../errors.js';
import type { Cell, TableRow } from '../types.js';
import { MAX_COLUMNS, MAX_ROWS, parseCellAddress, parseCellRange, rangeFits } from './cell-ref.js';
import type { CellStyles } from './cell-styles.js';
import type { MergedCells } from './merged-cells.js';
import { DATE_KIND } from './number-formats.js';
import { isoCellToText, serialToText } from './serial-date.js';
import { decodeEscapes, RichTextCollector, type SharedStrings } from './shared-strings.js';
import { outOfBounds } from './sheet-outline.js';
import type { WorkbookArchive } from './workbook-archive.js';
import { checkTextLength, XmlPart, type Attributes, type XmlHandlers } from './xml-part.js';

export interface SheetSources {
  part: string;
  strings: SharedStrings | undefined;
  styles: CellStyles;
  date1904: boolean;
  merges: MergedCells;
  /** The columns handed on (0 to `width - 1`); the reader may narrow it between rows. */
  window: ColumnWindow;
}

export interface ColumnWindow {
  width: number;
}

/** A row as parsed: its cells' columns and values, in the order the sheet gives them. */
interface ParsedRow {
  row: number;
  columns: number[];
  values: Cell[];
}

/** Thrown at `</sheetData>`: the rows are done, the rest of the part is not needed. */
class RowsEnd extends Error {}

export async function* readSheetRows(archive: WorkbookArchive, sources: SheetSources, signal?: AbortSignal): AsyncGenerator<TableRow> {
  const rows = new SheetRowParser(sources);
  const xml = new XmlPart(sources.part, rows);
  let ended = false;
  for await (const chunk of archive.read(sources.part, signal)) {
    try {
      xml.write(chunk);
    } catch (error) {
      if (!(error instanceof RowsEnd)) throw error;
      ended = true;
    }
    for (const parsed of rows.take()) {
      // Checked per row: an abort stops the mapping at once, not after the rest of a chunk's rows.
      signal?.throwIfAborted();
      const row = layOut(parsed, sources);
      if (row !== undefined) yield row;
    }
    if (ended) return;
  }
  xml.close();
  for (const parsed of rows.take()) {
    const row = layOut(parsed, sources);
    if (row !== undefined) yield row;
  }
}

/**
 * A parsed row as cells 0 to the window's width (a cell the sheet leaves out is empty), with the
 * merged ranges over it filled; undefined when no cell has a value. Rows must come in order: the
 * merges follow them.
 */
function layOut({ row, columns, values }: ParsedRow, { merges, window }: SheetSources): TableRow | undefined {
  const width = window.width;
  let length = 0;
  for (const column of columns) if (column < width && column >= length) length = column + 1;
  const cells = new Array<Cell>(length).fill('');
  for (let k = 0; k < columns.length; k++) if (columns[k]! < width) cells[columns[k]!] = values[k]!;
  merges.apply(row, cells, width);
  for (const cell of cells) if (cell !== '') return { row, cells };
  return undefined;
}

class SheetRowParser implements XmlHandlers {
  private ready: ParsedRow[] = [];
  private inSheetData = false;
  private inRow = false;
  private lastRow = 0;
  private rowNumber = 0;
  private columns: number[] = [];
  private values: Cell[] = [];
  /** Past the rightmost cell so far: where a cell without a reference goes. */
  private nextColumn = 0;
  // the cell being read
  private column = -1;
  private type: string | undefined;
  private style = 0;
  private inValue = false;
  private value = '';
  private inInline = false;
  private readonly inline = new RichTextCollector();

  constructor(private readonly sources: SheetSources) {}

  /** The rows completed so far, handed over once. */
  take(): ParsedRow[] {
    const ready = this.ready;
    this.ready = [];
    return ready;
  }

  open(name: string, attributes: Attributes): void {
    switch (name) {
      case 'c':
        if (this.inRow) this.startCell(attributes);
        return;
      case 'v':
        this.inValue = true;
        return;
      case 'row':
        if (this.inSheetData) this.startRow(attributes.r);
        return;
      case 'is':
        this.inInline = true;
        this.inline.reset();
        return;
      case 'sheetData':
        this.inSheetData = true;
        return;
      case 'dimension': {
        const range = parseCellRange(attributes.ref ?? '');
        if (range !== null && !rangeFits(range)) throw outOfBounds(this.sources.part, `dimension ${attributes.ref}`);
        return;
      }
      default:
        if (this.inInline) this.inline.open(name);
    }
  }

  close(name: string): void {
    switch (name) {
      case 'v':
        this.inValue = false;
        return;
      case 'c':
        if (this.inRow) this.endCell();
        return;
      case 'row':
        if (this.inRow) this.endRow();
        return;
      case 'is':
        this.inInline = false;
        return;
      case 'sheetData':
        throw new RowsEnd();
      default:
        if (this.inInline) this.inline.close(name);
    }
  }

  text(text: string): void {
    if (this.inValue) {
      this.value += text;
      checkTextLength(this.value);
    } else if (this.inInline) this.inline.add(text);
  }

  private startRow(r: string | undefined): void {
    const number = r === undefined ? this.lastRow + 1 : parseRowNumber(r);
    if (number === undefined) throw this.damaged(`a row numbered "${r}"`);
    if (number > MAX_ROWS) throw outOfBounds(this.sources.part, `row ${r}`);
    if (number <= this.lastRow) throw this.damaged(`row ${number} after row ${this.lastRow}`);
    this.rowNumber = number;
    this.inRow = true;
    this.columns = [];
    this.values = [];
    this.nextColumn = 0;
  }

  private startCell(attributes: Attributes): void {
    const r = attributes.r;
    // A cell without a reference follows the one before it.
    if (r === undefined) this.column = this.nextColumn;
    else {
      const address = parseCellAddress(r);
      if (address?.column === undefined) throw this.damaged(`a cell at "${r}"`);
      if (address.column >= MAX_COLUMNS || (address.row !== undefined && address.row > MAX_ROWS)) throw outOfBounds(this.sources.part, `cell ${r}`);
      this.column = address.column;
    }
    this.type = attributes.t;
    const s = attributes.s;
    this.style = s === undefined ? 0 : Number(s);
    this.value = '';
    this.inValue = false;
    this.inline.reset();
  }

  private endCell(): void {
    this.columns.push(this.column);
    this.values.push(this.cellValue());
    if (this.column >= this.nextColumn) this.nextColumn = this.column + 1;
  }

  /**
   * A cell's value by its type: `n` (or none) a number, a date by its style; `s` a shared string;
   * `inlineStr` its `<is>` text; `str` a formula's text result; `b` TRUE/FALSE; `e` the error
   * (`#N/A`); `d` an ISO date. A formula cell without a cached value is empty.
   */
  private cellValue(): Cell {
    const text = this.value;
    switch (this.type) {
      case undefined:
      case 'n': {
        if (text === '') return '';
        const number = Number(text);
        if (Number.isNaN(number)) return text;
        const kind = this.sources.styles.dateKind(this.style);
        return kind === DATE_KIND.none ? number : serialToText(number, kind, this.sources.date1904);
      }
      case 's': {
        if (text === '') return '';
        const shared = this.sources.strings?.get(Number(text));
        if (shared === undefined) throw this.damaged(`a cell naming shared string ${text}, of ${this.sources.strings?.size ?? 0}`);
        return shared;
      }
      case 'inlineStr':
        return this.inline.result() || text;
      case 'str':
        return decodeEscapes(text);
      case 'b':
        return text === '1' ? 'TRUE' : text === '0' ? 'FALSE' : text;
      case 'd': {
        if (text === '') return '';
        const kind = this.sources.styles.dateKind(this.style);
        return isoCellToText(text, kind === DATE_KIND.none ? DATE_KIND.date : kind);
      }
      default:
        return text;
    }
  }

  private endRow(): void {
    this.inRow = false;
    this.lastRow = this.rowNumber;
    // Laid out when handed on (`layOut`): a row the merges fill is not empty, so none is dropped here.
    this.ready.push({ row: this.rowNumber, columns: this.columns, values: this.values });
  }

  private damaged(what: string): ConnectorError {
    const said = `${this.sources.part} has ${what}`;
    return new ConnectorError('FILE_UNREADABLE', `is a damaged workbook: ${said}`, { text: { key: 'workbookDamaged', params: { said } } });
  }
}

/** `7` → 7; undefined when not a positive whole number. Stops growing past the sheet's bound. */
function parseRowNumber(text: string): number | undefined {
  let number = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return undefined;
    if (number <= MAX_ROWS) number = number * 10 + (code - 48);
  }
  return text.length === 0 || number === 0 ? undefined : number;
}
