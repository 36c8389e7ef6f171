/**
 * XML reader test helpers: the reader's options, documents as byte chunks (cut anywhere, or made
 * lazily and counted), and collecting records or the error a document ends in.
 */
import { expect } from 'vitest';
import type { XmlOptions } from '../../src/config/mapping-schema.js';
import { ConnectorError, type ErrorCode } from '../../src/errors.js';
import type { TreeRecord } from '../../src/mapping/readers/types.js';
import { readXmlRecords, xmlPathGetter, type XmlReadSpec } from '../../src/mapping/readers/xml-reader.js';

export const XML_DEFAULTS: XmlOptions = {
  encoding: 'auto',
  decimalComma: false,
  maxDepth: 64,
  maxTextBytes: 4 * 1024 * 1024,
  maxRecordBytes: 16 * 1024 * 1024,
  maxUncompressedBytes: 1024 * 1024 * 1024,
};

export function readSpec(record: string, lines = '.', xml: Partial<XmlOptions> = {}): XmlReadSpec {
  return { record, lines, xml: { ...XML_DEFAULTS, ...xml } };
}

/** `content` (UTF-8 text, or bytes) as chunks of `size` bytes: a document cut at every possible place. */
export async function* chunksOf(content: string | Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** A lazily made byte stream that counts what it handed out, and whether the reader let it go. */
export class CountingSource {
  produced = 0;
  finished = false;

  constructor(private readonly parts: () => Iterable<string | Buffer>) {}

  async *chunks(): AsyncGenerator<Buffer> {
    try {
      for (const part of this.parts()) {
        const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
        this.produced += bytes.length;
        yield bytes;
      }
    } finally {
      this.finished = true;
    }
  }
}

/** `count` copies of `piece`, in chunks of about `chunkBytes`, never joined into one string. */
export function* repeated(piece: string, count: number, chunkBytes = 256 * 1024): Generator<string> {
  const perChunk = Math.max(1, Math.floor(chunkBytes / Buffer.byteLength(piece)));
  const chunk = piece.repeat(perChunk);
  let left = count;
  while (left >= perChunk) {
    yield chunk;
    left -= perChunk;
  }
  if (left > 0) yield piece.repeat(left);
}

export async function readAll(chunks: AsyncIterable<Buffer>, spec: XmlReadSpec): Promise<TreeRecord<unknown>[]> {
  const out: TreeRecord<unknown>[] = [];
  for await (const record of readXmlRecords(chunks, spec)) out.push(record);
  return out;
}

/** The `ConnectorError` reading ends in; fails the test if it ends without one, or with another code. */
export async function readError(chunks: AsyncIterable<Buffer>, spec: XmlReadSpec, code: ErrorCode): Promise<ConnectorError> {
  try {
    await readAll(chunks, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe(code);
    return error as ConnectorError;
  }
  throw new Error(`expected ${code}, but the document was read`);
}

/** A field path's value on a record or line node. */
export const read = (path: string, node: unknown): unknown => xmlPathGetter(path)(node);
