/**
 * The CSV reader (a table): opened file → decode (encoding) → csv-parse, streaming. Memory stays
 * flat whatever the file size; a broken file (unclosed quote at the end, invalid bytes) fails with
 * `FILE_UNREADABLE`, and so does a UTF-16 file, refused before it is decoded (`utf16.ts`). The
 * first record is the header; data rows are numbered from 1 after it, as every CSV message has
 * always counted them.
 */
import { pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';
import { ConnectorError, isConnectorError } from '../../errors.js';
import type { CsvOptions } from '../../config/mapping-schema.js';
import { DecodeStream, utf8OfWhole } from '../decode.js';
import { cannotReadFile, readFully, readStreamOf, type InputHandle } from '../../shared/input-file.js';
import type { TableReader, TableRow } from './types.js';
import { UTF16_HEAD_BYTES, utf16Refusal } from './utf16.js';

/**
 * Bytes per read (256 KiB are read ahead all the same). csv-parse turns what it is given into
 * records at once, and they wait in its buffer while the mapper works through them: from 256 KiB
 * reads, 1,000 records and more, enough of them still alive at each young-generation GC that
 * their strings went to the old generation, which V8 then let grow with the file: small reads keep
 * the peak of a million-row file lower and steadier (docs/performance.md, "Tried and dropped").
 */
const CSV_READ_BYTES = 16 * 1024;

/**
 * A file up to this size is read in one read and parsed from memory: a 1C job that writes one file
 * per request leaves thousands of them, and for each the stream pipeline (a read stream, the
 * decoder's Transform, two more reads) cost more than parsing its few lines.
 */
export const SMALL_CSV_BYTES = 64 * 1024;

/** What a UTF-16 CSV is to be saved as instead: Excel's "Unicode Text" is the usual way to get one. */
export const csvReader: TableReader = {
  shape: 'table',
  open: (handle, spec, options) => ({
    rows: readCsvRows(handle, spec.csv, options?.signal, options?.wholeUpTo ?? SMALL_CSV_BYTES, options?.bytes),
    header: { kind: 'first' },
    decimalComma: spec.csv.decimalComma,
  }),
};

/**
 * Yields the CSV's records as rows of cells, the header row first, each numbered by the line of the
 * file it starts on (`lineNumbers`: the header is line 1, as an editor or Notepad numbers it),
 * read from byte 0 of `handle` (which the caller closes): a file up to `wholeUpTo` bytes in one
 * read (or from `bytes`, when the caller read it already), a larger one streamed. Throws `FILE_UNREADABLE`.
 */
async function* readCsvRows(
  handle: InputHandle,
  options: CsvOptions,
  signal: AbortSignal | undefined,
  wholeUpTo: number,
  bytes: Buffer | undefined,
): AsyncGenerator<TableRow> {
  // A small file's UTF-8 bytes (or windows-1251 text), or undefined: it is streamed.
  let whole: Buffer | string | undefined;
  try {
    const given = bytes !== undefined && bytes.length <= wholeUpTo ? bytes : undefined;
    const head = given ?? Buffer.allocUnsafe(Math.max(wholeUpTo + 1, UTF16_HEAD_BYTES));
    const length = given?.length ?? (await readFully(handle, head, 0, head.length, 0));
    const refusal = utf16Refusal(head.subarray(0, Math.min(length, UTF16_HEAD_BYTES)), true);
    if (refusal) throw refusal;
    if (length <= wholeUpTo) whole = utf8OfWhole(head.subarray(0, length), options.encoding);
  } catch (error) {
    throw toFileError(error, signal);
  }
  if (whole !== undefined) yield* csvRowsOf(whole, options, signal);
  else yield* streamCsvRows(handle, options, signal);
}

/**
 * The rows of a whole small file's text: the same parser and options, so the same rows and the same
 * first error. A file that parses is taken from what the parser returns. Only one that fails is
 * parsed again, record by record (`on_record`), to keep the rows before its error, which the
 * synchronous parser's throw loses: for each record it is given, csv-parse builds a context object,
 * most of what `on_record` costs a small file.
 */
function* csvRowsOf(text: Buffer | string, options: CsvOptions, signal?: AbortSignal): Generator<TableRow> {
  let records: string[][] = [];
  let failure: unknown;
  const lineEnd = firstLineEnd(text, options);
  const parse = { ...parserOptions(options), ...(lineEnd === undefined ? {} : { record_delimiter: lineEnd }) };
  try {
    records = parseWhole(text, parse) as string[][];
  } catch (error) {
    failure = error;
    try {
      parseWhole(text, {
        ...parse,
        on_record: (record: string[]) => {
          records.push(record);
          return null;
        },
      });
    } catch {
      // The same error again; the first is the one reported.
    }
  }
  const lineOf = lineNumbers();
  for (const cells of records) {
    const row = lineOf(cells);
    if (row !== null) yield { row, cells };
  }
  if (failure !== undefined) throw toFileError(failure, signal);
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * The line end csv-parse would find for itself (the first one, `\r\n` before `\r`), told to it
 * when the first line holds no quote, so that it cannot sit inside a quoted field. Finding it
 * costs csv-parse three small buffers per character of the first line: most of a small file's
 * parse. Undefined leaves it to the parser (the stream always does; the fuzz target compares).
 */
function firstLineEnd(text: Buffer | string, options: CsvOptions): string | undefined {
  const quote = options.quote.charCodeAt(0);
  const delimiter = options.delimiter.charCodeAt(0);
  if (quote > 0x7f || [quote, delimiter].some((code) => code === CR || code === LF)) return undefined;
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i];
  for (let i = 0; i < text.length; i += 1) {
    const code = at(i);
    if (code === quote) return undefined;
    if (code === LF) return '\n';
    if (code === CR) return at(i + 1) === LF ? '\r\n' : '\r';
  }
  return undefined;
}

/** Empty lines are handed on (as `['']`) so that `lineNumbers` counts them; it drops them. */
function parserOptions(options: CsvOptions) {
  return { delimiter: options.delimiter, quote: options.quote, bom: true, skip_empty_lines: false, relax_column_count: true } as const;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * A problem names a CSV's row as the operator's program numbers it: the line of the file the
 * record starts on (the header is line 1; a quoted field over several lines counts each of them,
 * an empty line counts too). csv-parse's own line count cannot say it: it counts a CRLF inside a
 * quoted field twice. So each record moves the count on by one line and by the line breaks its
 * cells hold. Returns null for an empty line (no record: skipped, as `skip_empty_lines` did).
 */
function lineNumbers(): (cells: readonly string[]) => number | null {
  let next = 1;
  return (cells) => {
    const line = next;
    next += 1;
    for (const cell of cells) if (cell.includes('\n') || cell.includes('\r')) next += cell.match(LINE_BREAK)!.length;
    return cells.length === 1 && cells[0] === '' ? null : line;
  };
}

/** A larger file's rows, streamed: memory stays one chunk's worth of rows. */
async function* streamCsvRows(handle: InputHandle, options: CsvOptions, signal?: AbortSignal): AsyncGenerator<TableRow> {
  const source = readStreamOf(handle, signal, CSV_READ_BYTES);
  const decode = new DecodeStream(options.encoding);
  // The parser's records are taken as it makes them: flowing, it emits each one as it pushes it,
  // inside the write that made it. Read from its stream's buffer instead, the records made from the
  // same chunk as an error were dropped, so which rows came before a broken line depended on where
  // the reads cut the file. Each chunk is written in only when the rows of the one before are
  // taken, so memory stays one chunk's worth of rows. Not `on_record`: for it, csv-parse builds a
  // context object per record (its counters spread into a new object), and in Node 20 each of
  // those gets a hidden class of its own, which young collections do not free: they piled up in
  // the old generation until a full collection, so the peak grew with the file.
  const records: string[][] = [];
  let failure: unknown;
  const parser = parse(parserOptions(options));
  parser.on('data', (record: string[]) => records.push(record));
  parser.on('error', (error) => (failure ??= error));
  const ended = new Promise<void>((resolve) => parser.once('end', resolve).once('close', resolve));
  // pipeline destroys both stages on error, so the iterator below throws it.
  pipeline(source, decode, () => undefined);
  const lineOf = lineNumbers();
  const taken = function* (): Generator<TableRow> {
    for (const cells of records.splice(0)) {
      const row = lineOf(cells);
      if (row !== null) yield { row, cells };
    }
  };
  try {
    for await (const bytes of decode) {
      parser.write(bytes);
      // A parse error is raised on the next tick: let it land before the next chunk is read.
      await null;
      yield* taken();
      if (failure !== undefined) throw failure;
    }
    parser.end();
    await ended;
    yield* taken();
    if (failure !== undefined) throw failure;
  } catch (error) {
    throw toFileError(error, signal);
  } finally {
    source.destroy();
    parser.destroy();
  }
}

function toFileError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (isConnectorError(error)) return error;
  if (error instanceof CsvError) {
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      return new ConnectorError('FILE_UNREADABLE', 'is not readable CSV: the file ends inside a quoted field (truncated?)', {
        cause: error,
        text: { key: 'csvQuoteNotClosed' },
      });
    }
    return new ConnectorError('FILE_UNREADABLE', `is not readable CSV: ${error.message}`, {
      cause: error,
      text: { key: 'csvInvalid', params: { said: error.message } },
    });
  }
  return cannotReadFile(error);
}
