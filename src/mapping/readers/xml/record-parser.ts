/**
 * Text in, records out: saxes under the limits a hostile file could otherwise break.
 *
 * Only the elements inside a record (`record:`, matched on local names from the root) are built,
 * as small `XmlNode`s; everything else is streamed past. A record whose path carries a condition
 * (`Документ[ХозОперация='Заказ товара']`) is built whole, then kept or dropped. Records do not
 * nest: an element inside a record is part of it, whatever else it matches.
 *
 * Limits, each refused the moment it is crossed (`XML_LIMIT_EXCEEDED`, with the place):
 *
 * - **depth**: elements nested deeper than `maxDepth`, anywhere in the document;
 * - **text**: one text, CDATA section or attribute value (or all text of one kept element, or all
 *   attributes of one start tag) past `maxTextBytes` UTF-8 bytes. saxes gathers a text whole
 *   before it hands it over, so the text is also watched while it grows: text is fed in slices,
 *   and when more than `maxTextBytes` characters have gone in since saxes last reported anything,
 *   whatever it is holding (a text, a comment, a start tag) is refused before the rest is read.
 *   A character is at least one UTF-8 byte, so that test refuses only what is past the limit as
 *   written: an entity counts as written (`&amp;` is five), the one place it is stricter;
 * - **record**: one record past `maxRecordBytes` UTF-8 bytes, from its start tag's `<` to its end tag's `>`.
 *
 * A DOCTYPE of any kind is refused (`XML_DTD_REFUSED`) as soon as it is seen: saxes never fetches
 * or expands entities, and nothing of the declaration reaches a message. A file cut short is
 * `XML_MALFORMED` naming the element it ends inside. Other malformed files are placed from saxes's
 * last event, not where saxes noticed, so that a cut between chunks cannot move them: see `last-event.ts`.
 */
import { SaxesParser } from 'saxes';
import type { XmlPath, XmlStep } from '../../../config/xml-path.js';
import { ConnectorError, type MessageText } from '../../../errors.js';
import { LastEvent } from './last-event.js';
import { cutShort, describe, dtdRefused, limitExceeded, pendingConstruct, type OpenedAt } from './refusals.js';
import { SliceMeter } from './slice-meter.js';
import { matches, type XmlNode } from './xml-node.js';

export interface RecordParserOptions {
  /** The `record:` path (parsed with the `record` role: element steps, a condition on the last only). */
  record: XmlPath;
  maxDepth: number;
  maxTextBytes: number;
  maxRecordBytes: number;
}

interface OpenElement extends OpenedAt {
  /** Built when the element is inside a record. */
  node: XmlNode | undefined;
  textBytes: number;
}

interface Building {
  depth: number;
  /** The last steps of the record alternatives whose names matched: one of their conditions must hold. */
  candidates: (XmlStep & { kind: 'element' })[];
  node: XmlNode | undefined;
  startBytes: number;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

export class XmlRecordParser {
  private readonly sax = new SaxesParser({ xmlns: false, position: true });
  private readonly stack: OpenElement[] = [];
  private readonly roots: ReadonlySet<string>;
  private readonly recordDepths: ReadonlySet<number>;
  private building: Building | undefined;
  private completed: XmlNode[] = [];
  /** Where the last record was completed (`sax.position`), to take it back if that very tag is an error. */
  private completedAt = -1;
  private rootSeen = false;
  private inStartTag = false;
  private startTagBytes = 0;

  private readonly meter = new SliceMeter();
  /** Where saxes's last event left off and what has arrived since, to place refusals (`last-event.ts`). */
  private readonly lastEvent = new LastEvent(this.sax, this.meter);

  constructor(private readonly options: RecordParserOptions) {
    const steps = options.record.alternatives;
    this.roots = new Set(steps.map((alternative) => alternative[0]!.name));
    this.recordDepths = new Set(steps.map((alternative) => alternative.length));
    const sax = this.sax;
    sax.on('error', (error) => {
      // saxes closes the elements a wrong close tag skips (`</КИ>` inside an open `<Документ>`)
      // before it reports the tag: a record "completed" by that is no record.
      if (this.completedAt === sax.position) this.completed.pop();
      throw this.lastEvent.placeMalformed(error.message, this.inStartTag, this.stack.length === 0);
    });
    sax.on('doctype', () => {
      throw dtdRefused(this.lastEvent.markLine, this.lastEvent.markColumn);
    });
    sax.on('xmldecl', () => this.lastEvent.mark());
    // saxes tells of a comment at its `--`, before the `>` that must follow (else it fails).
    sax.on('comment', () => this.lastEvent.mark(1));
    sax.on('processinginstruction', () => this.lastEvent.mark());
    sax.on('cdata', (text) => {
      this.addText(text);
      this.lastEvent.mark();
    });
    sax.on('text', (text) => {
      this.addText(text);
      this.lastEvent.markText();
    });
    sax.on('opentagstart', (tag) => this.openStart(tag.name));
    sax.on('attribute', (attribute) => this.attribute(attribute.value));
    sax.on('opentag', (tag) => this.open(tag.attributes));
    sax.on('closetag', () => this.close());
  }

  /** The records completed so far, in document order; each is handed out once. */
  takeCompleted(): XmlNode[] {
    const out = this.completed;
    this.completed = [];
    return out;
  }

  write(text: string): void {
    for (const slice of this.meter.slices(text)) this.feed(slice);
  }

  /** The end of the file: a document still open is cut short. */
  end(): void {
    const rest = this.meter.rest();
    if (rest !== '') this.feed(rest);
    const inner = this.stack.at(-1);
    if (inner !== undefined) {
      const record = this.building === undefined ? undefined : this.stack[this.building.depth - 1];
      throw cutShort(inner, record, this.sax.line, this.sax.column + 1);
    }
    this.sax.close();
  }

  private feed(slice: string): void {
    const meter = this.meter;
    meter.begin(slice);
    this.sax.write(slice);
    meter.end();
    this.lastEvent.sliceWritten(this.stack.length === 0);
    if (meter.writtenUnits - this.lastEvent.position > this.options.maxTextBytes) throw this.pendingTooLong();
    const building = this.building;
    if (building !== undefined && meter.writtenBytes - building.startBytes > this.options.maxRecordBytes) {
      throw this.recordTooLarge(this.stack[building.depth - 1]!);
    }
  }

  private openStart(name: string): void {
    const local = localName(name);
    const depth = this.stack.length + 1;
    const { markLine, markColumn } = this.lastEvent;
    if (!this.rootSeen) {
      this.rootSeen = true;
      if (!this.roots.has(local)) {
        const expected = [...this.roots].map((root) => `<${root}>`).join(' or ');
        throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', `has the root element <${local}>, but this flow's mapping reads records under ${expected}`, {
          details: { line: markLine, column: markColumn, rootElement: local },
          text: { key: 'xmlRootElement', params: { root: local, expected } },
        });
      }
    }
    if (depth > this.options.maxDepth) {
      const place = `line ${markLine}, column ${markColumn}`;
      throw limitExceeded(
        `nests elements deeper than xml.maxDepth (${this.options.maxDepth}): <${local}> at ${place} is at depth ${depth}`,
        markLine,
        markColumn,
        { key: 'xmlTooDeep', params: { element: local, depth, setting: 'xml.maxDepth', limit: this.options.maxDepth } },
      );
    }
    this.stack.push({ name: local, line: markLine, column: markColumn, node: undefined, textBytes: 0 });
    this.inStartTag = true;
    this.startTagBytes = 0;
    if (this.building === undefined && this.recordDepths.has(depth)) this.startRecord(depth, name);
    this.lastEvent.mark();
  }

  private startRecord(depth: number, rawName: string): void {
    const candidates: Building['candidates'] = [];
    for (const steps of this.options.record.alternatives) {
      if (steps.length !== depth || !steps.every((step, index) => step.name === this.stack[index]!.name)) continue;
      candidates.push(steps[depth - 1] as XmlStep & { kind: 'element' });
    }
    if (candidates.length === 0) return;
    // saxes has read `<`, the name and the character after it: the record starts at the `<`.
    const startBytes = this.meter.bytesAt(this.sax.position) - 2 - Buffer.byteLength(rawName);
    this.building = { depth, candidates, node: undefined, startBytes };
  }

  private attribute(value: string): void {
    const bytes = Buffer.byteLength(value);
    this.startTagBytes += bytes;
    if (bytes > this.options.maxTextBytes || this.startTagBytes > this.options.maxTextBytes) {
      const top = this.stack.at(-1)!;
      const what = bytes > this.options.maxTextBytes ? 'an attribute value' : 'attributes';
      throw this.limit(`holds ${what} longer than xml.maxTextBytes (${this.options.maxTextBytes} bytes) in ${describe(top)}`, top, this.textTooLong());
    }
    this.lastEvent.mark();
  }

  private open(attributes: Record<string, string>): void {
    this.inStartTag = false;
    const building = this.building;
    if (building !== undefined) {
      const top = this.stack.at(-1)!;
      const node: XmlNode = { name: top.name, attributes: localAttributes(attributes), children: [], text: '', line: top.line, column: top.column };
      top.node = node;
      if (this.stack.length === building.depth) building.node = node;
      else this.stack.at(-2)!.node!.children.push(node);
    }
    this.lastEvent.mark();
  }

  private close(): void {
    const top = this.stack.pop()!;
    const building = this.building;
    if (building !== undefined && this.stack.length + 1 === building.depth) {
      this.building = undefined;
      if (this.meter.bytesAt(this.sax.position) - building.startBytes > this.options.maxRecordBytes) throw this.recordTooLarge(top);
      const node = building.node!;
      if (building.candidates.some((step) => matches(node, step))) {
        this.completed.push(node);
        this.completedAt = this.sax.position;
      }
    }
    this.lastEvent.mark();
  }

  private addText(text: string): void {
    const max = this.options.maxTextBytes;
    const top = this.stack.at(-1);
    const node = top?.node;
    const bytes = node !== undefined || text.length * 3 > max ? Buffer.byteLength(text) : text.length;
    if (bytes > max || (top !== undefined && node !== undefined && top.textBytes + bytes > max)) {
      const where = top === undefined ? 'outside the root element' : `in ${describe(top)}`;
      throw this.limit(`holds a text longer than xml.maxTextBytes (${max} bytes) ${where}`, top, this.textTooLong());
    }
    if (top !== undefined && node !== undefined) {
      top.textBytes += bytes;
      node.text += text;
    }
  }

  private pendingTooLong(): ConnectorError {
    const what = pendingConstruct(this.lastEvent.pendingHead(), this.inStartTag);
    if (what === 'a DOCTYPE') return dtdRefused(this.lastEvent.markLine, this.lastEvent.markColumn);
    const top = this.stack.at(-1);
    const where = top === undefined ? 'outside the root element' : `in ${describe(top)}`;
    return this.limit(`holds ${what} longer than xml.maxTextBytes (${this.options.maxTextBytes} bytes) ${where}`, top, this.textTooLong());
  }

  private textTooLong(): MessageText {
    return { key: 'xmlTextTooLong', params: { setting: 'xml.maxTextBytes', limit: this.options.maxTextBytes } };
  }

  private recordTooLarge(record: OpenElement): ConnectorError {
    return this.limit(`holds a record larger than xml.maxRecordBytes (${this.options.maxRecordBytes} bytes): ${describe(record)}`, record, {
      key: 'xmlRecordTooLarge',
      params: { element: record.name, setting: 'xml.maxRecordBytes', limit: this.options.maxRecordBytes },
    });
  }

  /** A limit crossed, placed at `element` (else where saxes is). */
  private limit(message: string, element: OpenedAt | undefined, text: MessageText): ConnectorError {
    return limitExceeded(message, element?.line ?? this.sax.line, element?.column ?? this.sax.column + 1, text);
  }
}

/** Attributes by local name, without namespace declarations (files come with and without them). */
function localAttributes(attributes: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name in attributes) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const local = localName(name);
    if (!Object.hasOwn(out, local)) out[local] = attributes[name]!;
  }
  return out;
}
