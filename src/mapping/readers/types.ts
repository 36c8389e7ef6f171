/**
 * The one shape every input format takes. A reader turns an opened file into one of two things, and
 * everything after it (grouping, fill-down, field reading, building, validating) is one code path
 * per shape, whatever the format:
 *
 * - a **table** (CSV, XLSX): rows of cells, each row with the number its format gives it, the
 *   header row among them; `map-table.ts` finds the header, skips blank and totals rows, fills
 *   down and groups adjacent rows into requests;
 * - a **tree** (JSON, NDJSON, XML): records, each one request with its lines, each with where it
 *   stands in the file; `map-tree.ts` builds one request per record.
 *
 * A new format is one reader file and one line in `readers/index.ts`.
 */
import type { InputHandle } from '../../shared/input-file.js';
import type { MappingSpec } from '../../config/mapping-schema.js';
import type { SourceGetter } from '../compile-field.js';

/** One cell as a reader gives it: text, or the number a typed cell held (never guessed from text). */
export type Cell = string | number;

/** Where a value stands in its file, for messages and reports. */
export interface Place {
  /**
   * The row as the operator's program numbers it: a CSV's line in the file (the header is line 1), a
   * sheet's row as Excel numbers it; JSON, XML: the record (1 for the first).
   */
  row: number;
  /** A sheet: the cell reference with its sheet (`Заявки!C7`). */
  cell?: string;
  /** XML: the line and column where the element starts. */
  line?: number;
  column?: number;
}

/** A physical row of a table, header rows included. */
export interface TableRow {
  /** The row's number in messages (see `Place.row`). */
  row: number;
  cells: readonly Cell[];
}

/** Where a table's header is. */
export type HeaderRule =
  /** The first row is the header (CSV). */
  | { kind: 'first' }
  /** A fixed row (and the one below it, for a two-row header). */
  | { kind: 'at'; row: number; rows: 1 | 2 }
  /** Found by the mapped column names among the first `within` rows, in one row or two. */
  | { kind: 'find'; within: number };

export interface TableInput {
  /** The rows, in order; `return()` on it releases the file. */
  rows: AsyncGenerator<TableRow>;
  header: HeaderRule;
  /** A cell's reference for messages (`Заявки!C7`); absent where a format has none (CSV). */
  cellRef?: (row: number, column: number) => string;
  /** Where the table was read from, for messages (`sheet "Заявки"`). */
  label?: string;
  /** Read text numbers with a decimal comma (`1 234,50`). */
  decimalComma: boolean;
  /**
   * Told, once the header is known, that no cell at column `width` or past it will be read: the
   * reader may leave those out of the rows it hands on from then (a workbook's rows can reach
   * column XFD; a CSV line's fields are all in its bytes, so its reader has none).
   */
  narrow?: (width: number) => void;
}

/** What a reader is told besides the file and its mapping. */
export interface ReadOptions {
  signal?: AbortSignal | undefined;
  /** The password of a zipped file (1C's compressed exchange messages), when it has one. */
  archivePassword?: string | undefined;
  /**
   * A CSV file up to this many bytes is read in one piece and parsed from memory (default
   * `SMALL_CSV_BYTES`); 0 streams every file. Both ways give the same rows and the same first
   * error: the fuzz target reads each input both ways and compares.
   */
  wholeUpTo?: number | undefined;
  /** The whole file, already read from the handle by the caller (`OpenedInput.bytes`): a reader that would read it whole takes it from here. */
  bytes?: Buffer | undefined;
}

export interface TableReader {
  shape: 'table';
  open(handle: InputHandle, spec: MappingSpec, options?: ReadOptions): TableInput;
}

/** One line of a tree record, with its place. */
export interface TreeLine<N> {
  place: Place;
  node: N;
}

/** One record of a tree format: one request (or confirmation) with its lines. */
export interface TreeRecord<N> {
  place: Place;
  node: N;
  /** The lines, or why they cannot be read (`must be an array of lines`), with the field that names them. */
  lines: TreeLine<N>[] | { field: string; reason: string };
  /** A withdrawal of a document (`withdrawals:` of an XML mapping), not a request: it has no lines. */
  withdrawal?: true;
}

export interface TreeInput<N> {
  records: AsyncIterable<TreeRecord<N> | { place: Place; notARecord: string }>;
  /** A getter for one field source (a dotted JSON path, an XML element path). */
  source(ref: string): SourceGetter<N>;
  /** XML: a getter of every value a path reaches (`latest:`); absent where a format has none. */
  sourceAll?: (ref: string) => (record: N) => string[];
  decimalComma: boolean;
}

export interface TreeReader<N = unknown> {
  shape: 'tree';
  open(handle: InputHandle, spec: MappingSpec, options?: ReadOptions): TreeInput<N>;
}

export type Reader = TableReader | TreeReader;
