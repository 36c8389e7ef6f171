/**
 * Types every layer speaks: a problem found in an input file, a file's report, the clock. They live
 * here, below the stages and the store, so that neither `store/` nor a stage has to import another
 * stage to name them.
 */
import type { ErrorCode, MessageText } from '../errors.js';

/** Where a problem's or a note's console text is defined (`errors.ts`, beside the code it goes with). */
export type { MessageText };

/**
 * Resolves once every commit made before the call is on disk (the store's group commit,
 * `store/durability.ts`). A stage awaits it before an effect outside the store that depends on a
 * commit: answering a webhook, moving a file, writing an export file.
 */
export type WaitDurable = () => Promise<void>;

/** For stores that fsync every commit themselves (`synchronous=FULL`): already durable. */
export const alreadyDurable: WaitDurable = () => Promise.resolve();

/** Current time in epoch milliseconds; times are stored as integers so that they sort and compare cheaply. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** A document's identity in its source system and what the buyer sees of it (`document:` of a mapping). */
export interface DocumentRef {
  /** The identity (1C's `Ссылка`): the request is keyed by it. */
  id: string;
  /** The number the buyer sees, when the mapping reads one. */
  number: string | null;
  /** The document's own date (`YYYY-MM-DD`), when the mapping reads one. */
  date: string | null;
}

/** One problem, by row and field. `row: null` is a file-level problem (unreadable, missing column). */
export interface MappingProblem {
  row: number | null;
  /** Target field (`customer.inn`, `items[2].quantity`) or source column; null when not about a field. */
  field: string | null;
  code: ErrorCode;
  message: string;
  /** A sheet: the cell, with its sheet (`Заявки!C7`); `row` is then the row as the spreadsheet numbers it. */
  cell?: string;
  /** XML: the line and column where the element (or the fault) is. */
  line?: number;
  column?: number;
  /** The request (or order) the row belongs to, when known. */
  externalId?: string;
  /** The document's identity in its source system and its number, when the mapping reads them (`document:`). */
  documentId?: string;
  documentNumber?: string;
  /** The offending source value, when short enough to show. */
  value?: string;
  /** What is wrong, for the console to word (the code's own text when absent). */
  text?: MessageText;
}

/** Where a problem stands beyond its row, in words: the cell (`Заявки!C7`) or `line 40, column 7`; null when only the row is known. */
export function problemPlace(problem: Pick<MappingProblem, 'cell' | 'line' | 'column'>): string | null {
  if (problem.cell !== undefined) return problem.cell;
  if (problem.line === undefined) return null;
  return problem.column === undefined ? `line ${problem.line}` : `line ${problem.line}, column ${problem.column}`;
}

/** Something worth telling the ERP user that is not a problem (a request already recorded earlier). */
export interface ReportNote {
  row: number | null;
  externalId?: string;
  message: string;
  /** The note, for the console to word in its language. */
  text?: MessageText;
}

/**
 * How a file's problems number its rows, as the operator's program numbers them: a CSV by the
 * lines of the file (the header is line 1), a workbook by Excel's rows, JSON and XML by record (the
 * first is 1).
 */
export const ROW_NUMBERING = { lines: 'lines', excel: 'excel', records: 'records' } as const;
export type RowNumbering = (typeof ROW_NUMBERING)[keyof typeof ROW_NUMBERING];

/** The words a report's header says its rows in. */
export const ROW_NUMBERING_WORDS: Readonly<Record<RowNumbering, string>> = {
  lines: 'rows are numbered as lines of the file: the header is line 1',
  excel: 'rows are numbered as Excel rows',
  records: 'rows are numbered by record (the first record is 1)',
};

/** What `files.report` holds (JSON) and what the `<name>.errors.json` report file shows. */
export interface FileReport {
  /** How its rows are numbered (absent in reports written before it was said, and for files refused unread). */
  rows?: RowNumbering;
  /** The file's original name in the inbox. */
  file: string;
  sha256: string;
  problems: MappingProblem[];
  notes: ReportNote[];
}
