/**
 * The JSON and NDJSON readers (trees): one request object, an array of them, or an object with the
 * array at a configured path (`json.path: data.requests`), read whole (with a size cap); NDJSON
 * streamed line by line. Each record is one request, its lines at `items.path` (default `items`);
 * field sources are dotted paths (`customer.inn`, `lines.0.name`). Records are numbered from 1.
 */
import readline from 'node:readline';
import { pipeline } from 'node:stream';
import type { JsonOptions, MappingSpec } from '../../config/mapping-schema.js';
import { ConnectorError, isConnectorError } from '../../errors.js';
import type { SourceGetter } from '../compile-field.js';
import { DecodeStream, decodeBuffer } from '../decode.js';
import { cannotReadFile, readChunks, readStreamOf, type InputHandle } from '../../shared/input-file.js';
import type { TreeInput, TreeReader, TreeRecord } from './types.js';
import { UTF16_HEAD_BYTES, refuseUtf16, utf16Refusal } from './utf16.js';

export const jsonReader: TreeReader = { shape: 'tree', open: (handle, spec, options) => openJson(handle, spec, 'json', options?.signal) };
export const ndjsonReader: TreeReader = { shape: 'tree', open: (handle, spec, options) => openJson(handle, spec, 'ndjson', options?.signal) };

function openJson(handle: InputHandle, spec: MappingSpec, format: 'json' | 'ndjson', signal?: AbortSignal): TreeInput<unknown> {
  return { records: jsonRecords(handle, spec, format, signal), source: jsonPathGetter, decimalComma: spec.json.decimalComma };
}

async function* jsonRecords(handle: InputHandle, spec: MappingSpec, format: 'json' | 'ndjson', signal?: AbortSignal) {
  const linesPath = spec.itemsPath ?? 'items';
  const linesOf = jsonPathGetter(linesPath);
  const values = format === 'json' ? await readJsonRecords(handle, spec.json, signal) : readNdjsonRecords(handle, spec.json, signal);
  let row = 0;
  for await (const node of values) {
    row += 1;
    signal?.throwIfAborted();
    const place = { row };
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      yield { place, notARecord: 'is not a JSON object' };
      continue;
    }
    const lines = linesOf(node);
    const record: TreeRecord<unknown> = {
      place,
      node,
      lines:
        lines !== undefined && !Array.isArray(lines)
          ? { field: linesPath, reason: 'must be an array of lines' }
          : (lines ?? []).map((line: unknown) => ({ place, node: line })),
    };
    yield record;
  }
}

/**
 * A getter for a dotted JSON path (`customer.inn`, `lines.0.name`). Only a record's own keys are
 * read: a path named `constructor` or `__proto__` must not find Object's members where a record
 * has no such key.
 */
export function jsonPathGetter(path: string): SourceGetter<unknown> {
  const parts = path.split('.');
  return (record) => {
    let at: unknown = record;
    for (const part of parts) {
      if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
      at = (at as Record<string, unknown>)[part];
    }
    return at;
  };
}

/** JSON files are read whole; past this size they are refused (`FILE_UNREADABLE`). */
export const MAX_JSON_BYTES = 50 * 1024 * 1024;

function tooLarge(size: number): ConnectorError {
  return new ConnectorError('FILE_UNREADABLE', `is ${size} bytes; JSON files over ${MAX_JSON_BYTES} bytes are not read (use NDJSON)`, {
    text: { key: 'jsonTooLarge', params: { size, max: MAX_JSON_BYTES } },
  });
}

/** The records of a JSON file (from byte 0 of `handle`, which the caller closes), in order. Throws `FILE_UNREADABLE`. */
export async function readJsonRecords(handle: InputHandle, options: JsonOptions, signal?: AbortSignal): Promise<unknown[]> {
  let bytes: Buffer;
  try {
    const stat = await handle.stat();
    if (stat.size > MAX_JSON_BYTES) throw tooLarge(stat.size);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of readChunks(handle, signal)) {
      size += chunk.length;
      // The file may still grow after the stat: the cap holds for what is actually read.
      if (size > MAX_JSON_BYTES) throw tooLarge(size);
      chunks.push(chunk);
    }
    bytes = Buffer.concat(chunks, size);
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw isConnectorError(error) ? error : cannotReadFile(error);
  }
  const utf16 = utf16Refusal(bytes.subarray(0, UTF16_HEAD_BYTES));
  if (utf16) throw utf16;
  const text = decodeBuffer(bytes, options.encoding);
  let root: unknown;
  try {
    root = JSON.parse(text) as unknown;
  } catch (error) {
    const said = (error as Error).message;
    throw new ConnectorError('FILE_UNREADABLE', `is not valid JSON: ${said}`, { cause: error, text: { key: 'jsonInvalid', params: { said } } });
  }
  const at = options.path === undefined ? root : jsonPathGetter(options.path)(root);
  if (Array.isArray(at)) return at;
  if (at !== null && typeof at === 'object') return [at];
  const where = options.path === undefined ? 'the file' : `"${options.path}"`;
  throw new ConnectorError('FILE_UNREADABLE', `holds no request object or array at ${where}`, {
    text: { key: 'jsonNoRecords', params: { path: options.path ?? '—' } },
  });
}

/** The records of an NDJSON file (from byte 0 of `handle`), one per non-empty line, streamed. Throws `FILE_UNREADABLE`. */
export async function* readNdjsonRecords(handle: InputHandle, options: JsonOptions, signal?: AbortSignal): AsyncGenerator<unknown> {
  try {
    await refuseUtf16(handle);
  } catch (error) {
    throw isConnectorError(error) ? error : cannotReadFile(error);
  }
  const source = readStreamOf(handle, signal);
  const decode = new DecodeStream(options.encoding);
  let failure: unknown;
  pipeline(source, decode, (error) => {
    if (error) failure = error;
  });
  const lines = readline.createInterface({ input: decode, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      try {
        yield JSON.parse(line) as unknown;
      } catch (error) {
        const said = (error as Error).message;
        throw new ConnectorError('FILE_UNREADABLE', `line ${lineNumber} is not valid JSON: ${said}`, {
          cause: error,
          text: { key: 'ndjsonLineInvalid', params: { line: lineNumber, said } },
        });
      }
    }
    // readline ends quietly when its input is destroyed; the decode error is kept here.
    await new Promise((resolve) => setImmediate(resolve));
    if (failure) throw failure;
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw isConnectorError(error) ? error : cannotReadFile(error);
  } finally {
    lines.close();
    source.destroy();
  }
}
