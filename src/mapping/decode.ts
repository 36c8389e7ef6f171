/**
 * Turning the bytes of an input file into UTF-8, streaming: strict UTF-8 (invalid bytes are an
 * error, never U+FFFD), windows-1251 through iconv-lite, or `auto` (a BOM, else strict UTF-8 if
 * the first 64 KiB are valid UTF-8, else windows-1251). A UTF-8 BOM is always stripped.
 *
 * The output is UTF-8 bytes because csv-parse works on bytes: valid UTF-8 input passes through
 * untouched, so the common case costs one validation pass (simdutf, via `buffer.isUtf8`). For
 * windows-1251, iconv-lite's text is encoded to UTF-8 here and decoded again by csv-parse. That is
 * not a step to save: a string written to csv-parse is encoded to UTF-8 by its writable side all
 * the same, and handing it strings was slower than this round trip (docs/performance.md, "Tried
 * and dropped").
 */
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';
import { ConnectorError } from '../errors.js';
import { firstInvalidUtf8 } from './readers/xml/xml-decoder.js';

export type InputEncoding = 'utf-8' | 'windows-1251' | 'auto';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** How much of the file `auto` looks at before deciding. */
export const AUTO_DETECT_BYTES = 64 * 1024;

/** Length of the prefix of `buf` that does not end inside a multi-byte UTF-8 sequence. */
function completeUtf8Length(buf: Buffer): number {
  const len = buf.length;
  for (let i = len - 1; i >= 0 && i >= len - 4; i--) {
    const byte = buf[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return len - i < need ? i : len;
  }
  return len;
}

function invalidBytes(encoding: string, byte: number, cut = false): ConnectorError {
  const detail = cut ? `the file ends inside a character at byte ${byte}` : `invalid byte sequence at byte ${byte}`;
  return new ConnectorError('FILE_UNREADABLE', `is not valid ${encoding}: ${detail}`, {
    text: { key: cut ? 'encodingCut' : 'encodingInvalid', params: { encoding, byte } },
  });
}

/** Decide the encoding of a file's first bytes (without its BOM) for `auto`. */
export function detectEncoding(head: Buffer, atEnd: boolean): 'utf-8' | 'windows-1251' {
  if (head.subarray(0, 3).equals(BOM)) return 'utf-8';
  const valid = atEnd ? head.length : completeUtf8Length(head);
  return isUtf8(head.subarray(0, valid)) ? 'utf-8' : 'windows-1251';
}

/** A Transform from the file's bytes to UTF-8 bytes; fails with `FILE_UNREADABLE` on invalid input. */
export class DecodeStream extends Transform {
  /** The encoding in use once decided (`auto` resolves after the first 64 KiB). */
  encoding: InputEncoding;
  private head: Buffer[] = [];
  private headBytes = 0;
  private started = false;
  private carry: Buffer | undefined;
  private offset = 0;
  private decoder: ReturnType<typeof iconv.getDecoder> | undefined;
  /**
   * Invalid bytes found in a chunk: the valid text before them was passed on, and the error is
   * raised at the next chunk (or the end). So the parser reads everything before the bad byte
   * first, and whatever it finds there comes first, as in the file, wherever the reads cut it.
   */
  private pending: ConnectorError | undefined;

  constructor(encoding: InputEncoding) {
    super();
    this.encoding = encoding;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    if (this.pending) return callback(this.pending);
    try {
      if (!this.started) {
        this.head.push(chunk);
        this.headBytes += chunk.length;
        const needed = this.encoding === 'auto' ? AUTO_DETECT_BYTES : 3;
        if (this.headBytes < needed) return callback();
        this.begin(false);
        return callback();
      }
      this.decodeChunk(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.pending) return callback(this.pending);
    try {
      if (!this.started) this.begin(true);
      if (this.pending) return callback(this.pending);
      if (this.encoding === 'utf-8') {
        if (this.carry && this.carry.length > 0) throw invalidBytes('UTF-8', this.offset, true);
      } else if (this.decoder) {
        const rest = this.decoder.end();
        if (rest) this.push(Buffer.from(rest, 'utf8'));
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private begin(atEnd: boolean): void {
    this.started = true;
    let head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    if (this.encoding === 'auto') this.encoding = detectEncoding(head, atEnd);
    if (head.subarray(0, 3).equals(BOM)) {
      head = head.subarray(3);
      this.offset = 3;
    }
    if (this.encoding === 'windows-1251') this.decoder = iconv.getDecoder('win1251');
    this.decodeChunk(head);
  }

  private decodeChunk(chunk: Buffer): void {
    if (this.encoding !== 'utf-8') {
      const text = this.decoder!.write(chunk);
      if (text) this.push(Buffer.from(text, 'utf8'));
      return;
    }
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = completeUtf8Length(buf);
    const body = buf.subarray(0, complete);
    if (!isUtf8(body)) {
      const at = firstInvalidUtf8(body);
      if (at > 0) this.push(body.subarray(0, at));
      this.pending = invalidBytes('UTF-8', this.offset + at);
      return;
    }
    this.offset += complete;
    this.carry = complete < buf.length ? Buffer.from(buf.subarray(complete)) : undefined;
    if (body.length > 0) this.push(body);
  }
}

/**
 * A whole small file as a parser that reads UTF-8 bytes takes it: the bytes themselves (without a
 * BOM) when they are valid UTF-8, the text for windows-1251; undefined when they are not valid in
 * the encoding (the caller then streams the file through `DecodeStream`, which says where).
 */
export function utf8OfWhole(buf: Buffer, encoding: InputEncoding): Buffer | string | undefined {
  const resolved = encoding === 'auto' ? detectEncoding(buf, true) : encoding;
  const body = withoutBom(buf);
  if (resolved === 'windows-1251') return iconv.decode(body, 'win1251');
  return isUtf8(body) ? body : undefined;
}

/** Decode a whole (small) buffer the same way, for JSON files; invalid UTF-8 is `FILE_UNREADABLE`, naming the byte. */
export function decodeBuffer(buf: Buffer, encoding: InputEncoding): string {
  const whole = utf8OfWhole(buf, encoding);
  if (whole !== undefined) return typeof whole === 'string' ? whole : whole.toString('utf8');
  const body = withoutBom(buf);
  throw invalidBytes('UTF-8', firstInvalidUtf8(body) + buf.length - body.length);
}

/** `buf` without the UTF-8 BOM it may start with. */
function withoutBom(buf: Buffer): Buffer {
  return buf.subarray(0, 3).equals(BOM) ? buf.subarray(3) : buf;
}
