/**
 * `mapFile`: the mapping stage's one entry point. Reads an input file as its mapping says, through
 * the reader of its format (`readers/`), and yields a submission for each valid request or
 * confirmation and a problem for each thing wrong. A file-level problem (`row: null`: unreadable,
 * not a regular file, wrong encoding, truncated, missing column, broken JSON) ends the stream.
 *
 * Intake hands in the file it already opened (and hashed, and checked to be the one it moved into
 * `processing/`), so that what is mapped is what was claimed; `preview` hands in a path, which is
 * opened here the same way (never through a symlink, never blocking on a FIFO).
 */
import path from 'node:path';
import type { MappingSpec } from '../config/mapping-schema.js';
import { TABLE_FORMATS } from '../config/mapping-schema.js';
import { formatOfSpec } from '../config/mapping-sources.js';
import { ConnectorError, describeError, isConnectorError } from '../errors.js';
import type { BuildContext } from './build-submission.js';
import { openInputFile, type OpenedInput, type InputHandle } from '../shared/input-file.js';
import { ROW_NUMBERING, type RowNumbering } from '../shared/types.js';
import { mapTable } from './map-table.js';
import { mapTree } from './map-tree.js';
import { makeProblem } from './problems.js';
import { READERS, type InputFormat } from './readers/index.js';
import { describeContainer, sniffContainer, type Container } from './readers/sniff.js';
import type { MappedItem } from './types.js';

/** What `mapFile` reads: a path (opened by `mapFile` itself, the same careful way) or an opened file. */
export type MapInput = string | OpenedInput;

export interface MapOptions {
  /** The clock, for "desiredDate not in the past". */
  now: Date;
  /** Reject requests whose delivery.desiredDate lies before today (local time). */
  rejectPastDates: boolean;
  /** How the file is named in messages. Default: its base name. */
  fileLabel?: string;
  /** Stops reading; the generator then throws the signal's reason. */
  signal?: AbortSignal;
  /** The password of a zipped XML file (1C's compressed exchange messages). */
  archivePassword?: string | undefined;
  /** A CSV file up to this many bytes is parsed from memory (`ReadOptions.wholeUpTo`). */
  wholeUpTo?: number;
  /**
   * Told of a fault of the connector's own (a reader that threw something other than a
   * `ConnectorError`: a bug, not a problem of the data), with the error and its stack, before the
   * file-level `READER_FAULT` problem is yielded. The intake logs it and counts it.
   */
  onFault?: (error: unknown) => void;
}

export type { InputFormat };

const BY_EXTENSION: Readonly<Record<string, InputFormat>> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.xml': 'xml',
};

/**
 * The format of `filePath`: the mapping's `format:`, else by extension (`.json`, `.ndjson`/`.jsonl`,
 * `.xlsx`/`.xlsm`, `.xml`, else CSV).
 */
export function formatOf(filePath: string, spec: MappingSpec): InputFormat {
  if (spec.format !== undefined) return spec.format;
  return BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? 'csv';
}

/** How problems of a file of this format number its rows (`ROW_NUMBERING`). */
export function rowNumberingOf(format: InputFormat): RowNumbering {
  if (format === 'csv') return ROW_NUMBERING.lines;
  return format === 'xlsx' ? ROW_NUMBERING.excel : ROW_NUMBERING.records;
}

/**
 * Map one input file: a path, or a file the caller opened (and closes; it is read from byte 0).
 * Never throws for a bad file (that is a problem); throws only when aborted.
 */
export async function* mapFile(input: MapInput, spec: MappingSpec, options: MapOptions): AsyncGenerator<MappedItem> {
  const name = typeof input === 'string' ? input : input.name;
  const ctx: BuildContext = {
    fileLabel: options.fileLabel ?? path.basename(name),
    now: options.now,
    rejectPastDates: options.rejectPastDates,
  };
  const format = formatOf(name, spec);
  const bytes = typeof input === 'string' ? undefined : input.bytes;
  let opened: InputHandle | undefined;
  try {
    options.signal?.throwIfAborted();
    const handle = typeof input === 'string' ? (opened = await openInputFile(input)) : input.handle;
    const reader = READERS[format];
    if (format !== 'xlsx') {
      const container = await sniffContainer(handle, bytes);
      // An XML file may come zipped (1C compresses its exchange messages): the XML reader opens it.
      if (container !== null && !(format === 'xml' && container === 'zip')) {
        throw new ConnectorError(
          'FILE_FORMAT_UNSUPPORTED',
          `is ${describeContainer(container)}, not ${format.toUpperCase()} as this flow's mapping reads: save the export as ${format.toUpperCase()}, or give the flow a mapping with format: xlsx`,
          { text: { key: CONTAINER_KEYS[container], params: { format: format.toUpperCase() } } },
        );
      }
    }
    const expected = formatOfSpec(spec);
    if (expected !== undefined && TABLE_FORMATS.has(expected) !== (reader.shape === 'table')) {
      const reads = reader.shape === 'table' ? 'paths of a tree (JSON, XML)' : 'columns of a table (CSV, XLSX)';
      throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', `is ${format.toUpperCase()} by its name, but this flow's mapping reads ${reads}`, {
        text: { key: reader.shape === 'table' ? 'readsTree' : 'readsTable', params: { format: format.toUpperCase() } },
      });
    }
    const readOptions = { signal: options.signal, archivePassword: options.archivePassword, wholeUpTo: options.wholeUpTo, bytes };
    if (reader.shape === 'table') yield* mapTable(reader.open(handle, spec, readOptions), spec, ctx, options.signal);
    else yield* mapTree(reader.open(handle, spec, readOptions), spec, ctx, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (!isConnectorError(error)) {
      // A fault of our own is not a problem of the data (MAPPING_FAILED says that): it has its own
      // code, so that operators and the fuzz targets tell them apart, and the file is rejected.
      options.onFault?.(error);
      yield readerFault(ctx.fileLabel, error);
      return;
    }
    yield fileProblem(ctx.fileLabel, error);
  } finally {
    await opened?.close();
  }
}

/** What the console says of a file in a container its flow's mapping does not read (`texts-*.ts`). */
const CONTAINER_KEYS: Readonly<Record<Container, string>> = { zip: 'containerZip', cfb: 'containerCfb', mxl: 'containerMxl' };

/** The file-level problem of a fault of the connector's own, saying to report it. */
export function readerFault(fileLabel: string, error: unknown): MappedItem {
  const reason = `could not be read because of a fault in the connector, not in the file (${describeError(error)}): the file was rejected; report it, with the file, to the connector's maintainers`;
  return { kind: 'problem', problem: { ...makeProblem(fileLabel, { row: null, field: null, code: 'READER_FAULT', reason }), text: { key: 'readerFault' } } };
}

/**
 * A file-level problem from a reader's refusal, with what the console says of it (`error.text`); the
 * error may say where it stopped (`details`: an XML fault's `line` and `column`, a sheet's `cell`).
 * Its message already words the place, so the fields are set on the problem for reports and the
 * console, not put into the message again.
 */
function fileProblem(fileLabel: string, error: ConnectorError): MappedItem {
  const { details } = error;
  const problem = makeProblem(fileLabel, { row: null, field: null, code: error.code, reason: error.message, text: error.text });
  if (typeof details.line === 'number') problem.line = details.line;
  if (typeof details.column === 'number') problem.column = details.column;
  if (typeof details.cell === 'string') problem.cell = details.cell;
  return { kind: 'problem', problem };
}
