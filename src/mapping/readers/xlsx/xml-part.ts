/**
 * One XML part of a workbook (`xl/workbook.xml`, a sheet, the shared strings), parsed by saxes as
 * its bytes inflate. Every part gets the same guards:
 *
 * - a DOCTYPE refuses the part (`XML_DTD_REFUSED`) the moment saxes reports it: no workbook writer
 *   emits one, and entities are never expanded;
 * - a part that is not well-formed is `XML_MALFORMED`, naming the part, line and column;
 * - no run of text or markup may grow past `MAX_TEXT_CHARS` between two tags. saxes gathers a text
 *   node whole before it reports it, so without this a single 2 GB text node would be gathered in
 *   memory; with it, the gathered text never exceeds the limit by more than one chunk.
 *
 * Namespaces are not resolved (saxes runs with `xmlns: false`, several times faster): elements are
 * matched on their local names, so `x:c` (some writers' prefix) and strict OOXML's namespace
 * (`http://purl.oclc.org/ooxml/spreadsheetml/main`) read the same as transitional files.
 */
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { ConnectorError } from '../../../errors.js';
import type { WorkbookArchive } from './workbook-archive.js';

/** Excel's own limit is 32,767 characters per cell; four times that covers any UTF-16 or markup slack. */
export const MAX_TEXT_CHARS = 32_767 * 4;
/** A tag or a text between two tags: the text limit plus room for the markup around it. */
const MAX_RUN_CHARS = MAX_TEXT_CHARS + 4096;

export type Attributes = Record<string, string>;

/**
 * Thrown by a handler whose gathered text (a cell's runs, a shared string's runs) passed
 * `MAX_TEXT_CHARS`; the part turns it into the limit error naming where it happened.
 */
export class TextTooLong extends Error {}

/** Throws `TextTooLong` when a gathered text is past the limit. */
export function checkTextLength(text: string): void {
  if (text.length > MAX_TEXT_CHARS) throw new TextTooLong();
}

/** What a part's reader does with its elements; names are local names (`c`, not `x:c`). */
export interface XmlHandlers {
  open(name: string, attributes: Attributes): void;
  close(name: string): void;
  text?(text: string): void;
}

/** `x:c` → `c`. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** An attribute by local name (`r:id` answers `id`), for the few attributes that carry a prefix. */
export function attributeByLocalName(attributes: Attributes, name: string): string | undefined {
  if (attributes[name] !== undefined) return attributes[name];
  for (const key in attributes) if (localName(key) === name) return attributes[key];
  return undefined;
}

export class XmlPart {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  private decoder: StringDecoder | undefined;
  /** The parser's position at the last tag. */
  private mark = 0;

  constructor(
    readonly part: string,
    handlers: XmlHandlers,
  ) {
    const parser = this.parser;
    parser.on('doctype', () => {
      throw new ConnectorError(
        'XML_DTD_REFUSED',
        `has a DOCTYPE in ${this.where()}: a workbook part never has one, and its entities are not expanded; refused`,
        { text: { key: 'workbookDamaged', params: { said: `DOCTYPE: ${this.where()}` } } },
      );
    });
    parser.on('error', (error) => {
      const detail = error.message.replace(/^\d+:\d+: /, '');
      const said = `${this.where()}: ${detail}`;
      throw new ConnectorError('XML_MALFORMED', `is not a readable workbook: ${said}`, { cause: error, text: { key: 'workbookDamaged', params: { said } } });
    });
    parser.on('opentag', (node) => {
      this.mark = parser.position;
      handlers.open(localName(node.name), node.attributes as Attributes);
    });
    parser.on('closetag', (node) => {
      this.mark = parser.position;
      handlers.close(localName(node.name));
    });
    const text = handlers.text?.bind(handlers);
    if (text !== undefined) parser.on('text', text);
  }

  /** `xl/worksheets/sheet1.xml line 3, column 17`. */
  where(): string {
    return `${this.part} line ${this.parser.line}, column ${this.parser.column}`;
  }

  /** Feed the next inflated bytes; handlers run before this returns. */
  write(chunk: Buffer): void {
    this.decoder ??= decoderFor(chunk, this.part);
    try {
      this.parser.write(this.decoder.write(chunk));
    } catch (error) {
      if (error instanceof TextTooLong) this.refuseLongText();
      throw error;
    }
    if (this.parser.position - this.mark > MAX_RUN_CHARS) this.refuseLongText();
  }

  /** The part ended: anything left open is `XML_MALFORMED`. */
  close(): void {
    if (this.decoder !== undefined) this.parser.write(this.decoder.end());
    this.parser.close();
  }

  /** A text (a cell, a shared string, a run of them) longer than any cell can hold. */
  private refuseLongText(): never {
    throw new ConnectorError(
      'WORKBOOK_LIMIT_EXCEEDED',
      `holds a text of more than ${MAX_TEXT_CHARS} characters in ${this.where()} (a cell holds at most 32,767): refused as a damaged or hostile workbook`,
      { text: { key: 'workbookLimit', params: { said: `${this.where()}: > ${MAX_TEXT_CHARS}` } } },
    );
  }
}

/** UTF-8 (with or without its BOM), or UTF-16LE by its BOM or its first `<`; Excel writes UTF-8. */
function decoderFor(head: Buffer, part: string): StringDecoder {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0x3c && head[1] === 0x00)) return new StringDecoder('utf16le');
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0x00 && head[1] === 0x3c)) {
    throw new ConnectorError(
      'FILE_UNREADABLE',
      `is not a readable workbook: ${part} is UTF-16BE, which no spreadsheet writes; save the workbook again from Excel`,
      { text: { key: 'workbookDamaged', params: { said: `${part}: UTF-16BE` } } },
    );
  }
  return new StringDecoder('utf8');
}

/** Parse a whole part with `handlers`. */
export async function parsePart(archive: WorkbookArchive, part: string, handlers: XmlHandlers, signal?: AbortSignal): Promise<void> {
  const xml = new XmlPart(part, handlers);
  for await (const chunk of archive.read(part, signal)) xml.write(chunk);
  xml.close();
}
