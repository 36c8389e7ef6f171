/**
 * An XML file's bytes to text, streaming, in the encoding the file names or the mapping sets.
 *
 * `xml.encoding: auto` follows the XML rules, narrowed to what 1C and ERPs write: a UTF-8 byte
 * order mark means UTF-8; else the declaration's `encoding=` (`windows-1251`/`cp1251` or
 * `utf-8`, any case); else UTF-8. A file that says one thing and holds another is refused
 * (`XML_ENCODING_MISMATCH`, naming the byte), never decoded into mojibake: invalid UTF-8 under a
 * UTF-8 reading, UTF-8 bytes under a windows-1251 declaration, a UTF-8 mark before a
 * windows-1251 declaration. UTF-16 and other encodings are `FILE_FORMAT_UNSUPPORTED`.
 *
 * An explicit `xml.encoding` overrides the declaration: the setting is for the exporter whose
 * declaration is wrong, so a declaration that disagrees with it is not an error (the bytes must
 * still be valid in the set encoding, and a UTF-8 byte order mark still contradicts windows-1251).
 */
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { ConnectorError } from '../../../errors.js';

export type XmlEncodingSetting = 'auto' | 'utf-8' | 'windows-1251';
export type XmlEncoding = 'utf-8' | 'windows-1251';

/** Why an encoding was chosen: it words the message when the bytes disagree. */
export type EncodingSource = 'setting' | 'bom' | 'declaration' | 'default';

export interface EncodingChoice {
  encoding: XmlEncoding;
  source: EncodingSource;
  /** Length of the byte order mark to skip (3 or 0). */
  bomBytes: number;
}

/** How much of the file is looked at for the byte order mark and the declaration. */
export const HEAD_BYTES = 1024;
/** How far past the first non-ASCII byte a windows-1251 declaration is checked against UTF-8. */
const UTF8_LOOK_BYTES = 4096;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DECLARATION = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])[^"']*\1[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"']*)\2/;
const NAMES: Readonly<Record<string, XmlEncoding>> = { 'utf-8': 'utf-8', utf8: 'utf-8', 'windows-1251': 'windows-1251', cp1251: 'windows-1251' };

const SAVE_AS = 'save it as UTF-8 or windows-1251';

/** The encoding of a file from its first bytes (`head`, at most `HEAD_BYTES`). Throws when it cannot be read. */
export function chooseXmlEncoding(head: Buffer, setting: XmlEncodingSetting): EncodingChoice {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', `is UTF-16 (it starts with a UTF-16 byte order mark): ${SAVE_AS}`, { text: { key: 'xmlUtf16' } });
  }
  if ((head[0] === 0x3c && head[1] === 0x00) || (head[0] === 0x00 && head[1] === 0x3c)) {
    throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', `is UTF-16 (every other byte of its start is zero): ${SAVE_AS}`, { text: { key: 'xmlUtf16' } });
  }
  const bomBytes = head.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  const declared = declaredEncoding(head.subarray(bomBytes));
  if (setting !== 'auto') {
    if (bomBytes > 0 && setting === 'windows-1251') {
      throw new ConnectorError(
        'XML_ENCODING_MISMATCH',
        'starts with a UTF-8 byte order mark, but xml.encoding is windows-1251: it is UTF-8 (remove the setting)',
        { details: { byte: 0 }, text: { key: 'xmlBomVsSetting', params: { setting: 'xml.encoding' } } },
      );
    }
    return { encoding: setting, source: 'setting', bomBytes };
  }
  const known = declared === undefined ? undefined : NAMES[declared.toLowerCase()];
  if (bomBytes > 0) {
    if (declared !== undefined && known !== 'utf-8') {
      throw new ConnectorError('XML_ENCODING_MISMATCH', `starts with a UTF-8 byte order mark, but its declaration says encoding="${declared}"`, {
        details: { byte: 0 },
        text: { key: 'xmlBomVsDeclared', params: { declared } },
      });
    }
    return { encoding: 'utf-8', source: 'bom', bomBytes };
  }
  if (declared === undefined) return { encoding: 'utf-8', source: 'default', bomBytes };
  if (known === undefined) {
    throw new ConnectorError(
      'FILE_FORMAT_UNSUPPORTED',
      `declares encoding="${declared}", which is not read: ${SAVE_AS} (or, if the declaration is wrong, set xml.encoding in the mapping)`,
      { text: { key: 'xmlEncodingNotRead', params: { declared, setting: 'xml.encoding' } } },
    );
  }
  return { encoding: known, source: 'declaration', bomBytes };
}

/** The declaration's `encoding=` value, read as ASCII (it is in both encodings read here). */
function declaredEncoding(head: Buffer): string | undefined {
  return DECLARATION.exec(head.toString('latin1'))?.[3];
}

/** Bytes in, text out, chunk by chunk; throws `XML_ENCODING_MISMATCH` naming the first bad byte. */
export class XmlDecoder {
  choice: EncodingChoice | undefined;
  private head: Buffer[] = [];
  private headBytes = 0;
  /** File offset of the next byte to decode (the byte order mark counts). */
  private offset = 0;
  private carry: Buffer | undefined;
  private win1251: ReturnType<typeof iconv.getDecoder> | undefined;
  /** A windows-1251 declaration not yet checked against UTF-8 bytes (no non-ASCII byte seen yet). */
  private checkUtf8Look = false;

  constructor(private readonly setting: XmlEncodingSetting) {}

  /**
   * A mismatch found in a chunk: the text before it was handed out, and the error is thrown at the
   * next write (or the end). So the parser reads everything before the bad byte first, and a fault
   * there (a wrong root, a broken tag) wins over it, as it comes first in the file: what is
   * reported does not depend on where the reads happened to cut the file.
   */
  private pending: ConnectorError | undefined;

  write(chunk: Buffer): string {
    if (this.pending) throw this.pending;
    if (this.choice === undefined) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes < HEAD_BYTES) return '';
      return this.begin();
    }
    return this.decode(chunk);
  }

  /** Throw a mismatch found by `end()`, once the text before it was parsed. */
  close(): void {
    if (this.pending) throw this.pending;
  }

  end(): string {
    if (this.pending) throw this.pending;
    const text = this.choice === undefined ? this.begin() : '';
    if (this.pending) return text;
    if (this.win1251 !== undefined) {
      const rest = this.heldBytes > 0 ? this.decideLook(true) : '';
      if (this.pending) return text + rest;
      return text + rest + (this.win1251.end() ?? '');
    }
    if (this.carry !== undefined) throw this.mismatch(this.offset, 'the file ends inside a character');
    return text;
  }

  private begin(): string {
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    const choice = chooseXmlEncoding(head.subarray(0, HEAD_BYTES), this.setting);
    this.choice = choice;
    if (choice.encoding === 'windows-1251') this.win1251 = iconv.getDecoder('win1251');
    this.checkUtf8Look = choice.encoding === 'windows-1251' && choice.source === 'declaration';
    this.offset = choice.bomBytes;
    return this.decode(head.subarray(choice.bomBytes));
  }

  private decode(chunk: Buffer): string {
    if (this.win1251 !== undefined) {
      if (this.checkUtf8Look) return this.lookForUtf8(chunk);
      this.offset += chunk.length;
      return this.win1251.write(chunk);
    }
    const bytes = this.carry === undefined ? chunk : Buffer.concat([this.carry, chunk]);
    const complete = completeUtf8Length(bytes);
    const body = bytes.subarray(0, complete);
    if (!isUtf8(body)) {
      const at = firstInvalidUtf8(body);
      this.pending = this.mismatch(this.offset + at, 'an invalid UTF-8 sequence');
      return body.subarray(0, at).toString('utf8');
    }
    this.offset += complete;
    this.carry = complete < bytes.length ? Buffer.from(bytes.subarray(complete)) : undefined;
    return body.toString('utf8');
  }

  /** Bytes from the first non-ASCII byte of a windows-1251 file on, held until they say whether they are UTF-8. */
  private held: Buffer[] = [];
  private heldBytes = 0;

  /**
   * A windows-1251 declaration over UTF-8 bytes: decoding would turn every letter into two. The
   * first `UTF8_LOOK_BYTES` from the first non-ASCII byte decide, gathered across reads (so the
   * verdict does not depend on where a read cut them); the ASCII text before them goes on at once.
   */
  private lookForUtf8(chunk: Buffer): string {
    if (this.heldBytes === 0) {
      const first = chunk.findIndex((byte) => byte >= 0x80);
      if (first === -1) {
        this.offset += chunk.length;
        return this.win1251!.write(chunk);
      }
      this.offset += first;
      this.held.push(chunk.subarray(first));
      this.heldBytes = chunk.length - first;
      return this.win1251!.write(chunk.subarray(0, first)) + this.decideLook(false);
    }
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    return this.decideLook(false);
  }

  private decideLook(atEnd: boolean): string {
    if (!atEnd && this.heldBytes < UTF8_LOOK_BYTES) return '';
    const bytes = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.checkUtf8Look = false;
    const look = bytes.subarray(0, UTF8_LOOK_BYTES);
    const valid = look.subarray(0, completeUtf8Length(look));
    if (valid.length >= 2 && isUtf8(valid)) {
      this.pending = new ConnectorError(
        'XML_ENCODING_MISMATCH',
        `declares encoding="windows-1251", but its bytes are UTF-8 (from byte ${this.offset}): fix the declaration, or set xml.encoding: utf-8`,
        { details: { byte: this.offset }, text: { key: 'xmlDeclared1251', params: { byte: this.offset, setting: 'xml.encoding' } } },
      );
      return '';
    }
    this.offset += bytes.length;
    return this.win1251!.write(bytes);
  }

  private mismatch(byte: number, what: string): ConnectorError {
    const said = {
      setting: 'xml.encoding is utf-8',
      bom: 'it starts with a UTF-8 byte order mark',
      declaration: 'its declaration says UTF-8',
      default: 'it declares no encoding, so it is read as UTF-8',
    }[this.choice!.source];
    return new ConnectorError(
      'XML_ENCODING_MISMATCH',
      `is not valid UTF-8 (${what} at byte ${byte}), but ${said}: save it as UTF-8, or declare encoding="windows-1251" if that is what it is`,
      { details: { byte }, text: { key: 'xmlNotUtf8', params: { byte } } },
    );
  }
}

/** Length of the prefix of `bytes` that does not end inside a multi-byte UTF-8 sequence. */
function completeUtf8Length(bytes: Buffer): number {
  const length = bytes.length;
  for (let i = length - 1; i >= 0 && i >= length - 4; i -= 1) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length - i < need ? i : length;
  }
  return length;
}

/** Where the first invalid UTF-8 sequence of `bytes` starts (RFC 3629: no overlongs, surrogates or values past U+10FFFF). */
export function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const need = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (need === 0 || i + need >= bytes.length) return i;
    const second = bytes[i + 1]!;
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return i;
    for (let k = 1; k <= need; k += 1) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return bytes.length;
}
