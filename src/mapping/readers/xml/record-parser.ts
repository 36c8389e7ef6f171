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
 * `XML_MALFORMED` naming the element it ends inside.
 */
import { SaxesParser } from 'saxes';
import type { XmlPath, XmlStep } from '../../../config/xml-path.js';
import { ConnectorError, type MessageText } from '../../../errors.js';
import { cutShort, describe, dtdRefused, limitExceeded, malformed, pendingConstruct, type OpenedAt } from './refusals.js';
import { SliceMeter } from './slice-meter.js';
import { matches, type XmlNode } from './xml-node.js';

export interface RecordParserOptions {
  /** The `record:` path (parsed with the `record` role: element steps, a condition on the last only). */
  record: XmlPath;
  maxDepth: number;
  maxTextBytes: number;
  maxRecordBytes: number;
}

/** How much of a pending construct is kept to say what it is (`<!--`, `<![CDATA[`, text). */
const HEAD_UNITS = 12;

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

/** What follows the last event outside any element (`XmlRecordParser.outsideBefore`). */
type OutsideText = 'blank' | 'text' | 'markup';

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

  /** Where the next `<` would stand (1-based), from saxes's position at its last event. */
  private markLine = 1;
  private markColumn = 1;
  /** saxes's position (UTF-16 units) at its last event, whether that was a text, and what followed it. */
  private lastEvent = 0;
  private lastWasText = false;
  private head = '';
  /**
   * Outside any element, what followed the last event in the slices written before this one: blank
   * so far, a text (a character not blank before any markup), or markup begun. See
   * `textOutsideRootPending`; kept whole, not from the head, whose first units may all be blank.
   */
  private outsideBefore: OutsideText = 'blank';
  /** Where the last text began (the mark before it): see `outsideRootPlace`. */
  private textLine = 1;
  private textColumn = 1;

  private readonly meter = new SliceMeter();

  constructor(private readonly options: RecordParserOptions) {
    const steps = options.record.alternatives;
    this.roots = new Set(steps.map((alternative) => alternative[0]!.name));
    this.recordDepths = new Set(steps.map((alternative) => alternative.length));
    const sax = this.sax;
    sax.on('error', (error) => {
      // saxes closes the elements a wrong close tag skips (`</КИ>` inside an open `<Документ>`)
      // before it reports the tag: a record "completed" by that is no record.
      if (this.completedAt === sax.position) this.completed.pop();
      throw this.malformed(error.message);
    });
    sax.on('doctype', () => {
      throw dtdRefused(this.markLine, this.markColumn);
    });
    sax.on('xmldecl', () => this.mark());
    // saxes tells of a comment at its `--`, before the `>` that must follow (else it fails).
    sax.on('comment', () => this.mark(1));
    sax.on('processinginstruction', () => this.mark());
    sax.on('cdata', (text) => {
      this.addText(text);
      this.mark();
    });
    sax.on('text', (text) => {
      this.addText(text);
      this.markText();
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
    this.extendHead();
    if (this.outsideBefore === 'blank' && this.stack.length === 0 && !this.lastWasText) {
      this.outsideBefore = this.outsideTextSince(meter.writtenUnits);
    }
    if (meter.writtenUnits - this.lastEvent > this.options.maxTextBytes) throw this.pendingTooLong();
    const building = this.building;
    if (building !== undefined && meter.writtenBytes - building.startBytes > this.options.maxRecordBytes) {
      throw this.recordTooLarge(this.stack[building.depth - 1]!);
    }
  }

  /** After an event: the next markup starts `ahead` characters past where saxes is, on its line. */
  private mark(ahead = 0): void {
    this.lastEvent = this.sax.position + ahead;
    this.lastWasText = false;
    this.head = '';
    this.outsideBefore = 'blank';
    this.markLine = this.sax.line;
    this.markColumn = this.sax.column + 1 + ahead;
  }

  /** After a text, saxes has read the `<` that ended it: that `<` is the next markup's start. */
  private markText(): void {
    this.textLine = this.markLine;
    this.textColumn = this.markColumn;
    this.lastEvent = this.sax.position;
    this.lastWasText = true;
    this.head = '';
    this.outsideBefore = 'blank';
    this.markLine = this.sax.line;
    this.markColumn = this.sax.column;
  }

  private extendHead(): void {
    if (this.head.length < HEAD_UNITS) this.head += this.meter.textAt(this.lastEvent + this.head.length, HEAD_UNITS - this.head.length);
  }

  private openStart(name: string): void {
    const local = localName(name);
    const depth = this.stack.length + 1;
    if (!this.rootSeen) {
      this.rootSeen = true;
      if (!this.roots.has(local)) {
        const expected = [...this.roots].map((root) => `<${root}>`).join(' or ');
        throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', `has the root element <${local}>, but this flow's mapping reads records under ${expected}`, {
          details: { line: this.markLine, column: this.markColumn, rootElement: local },
          text: { key: 'xmlRootElement', params: { root: local, expected } },
        });
      }
    }
    if (depth > this.options.maxDepth) {
      const place = `line ${this.markLine}, column ${this.markColumn}`;
      throw limitExceeded(
        `nests elements deeper than xml.maxDepth (${this.options.maxDepth}): <${local}> at ${place} is at depth ${depth}`,
        this.markLine,
        this.markColumn,
        { key: 'xmlTooDeep', params: { element: local, depth, setting: 'xml.maxDepth', limit: this.options.maxDepth } },
      );
    }
    this.stack.push({ name: local, line: this.markLine, column: this.markColumn, node: undefined, textBytes: 0 });
    this.inStartTag = true;
    this.startTagBytes = 0;
    if (this.building === undefined && this.recordDepths.has(depth)) this.startRecord(depth, name);
    this.mark();
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
    this.mark();
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
    this.mark();
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
    this.mark();
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
    const what = pendingConstruct((this.lastWasText ? '<' : '') + this.head, this.inStartTag);
    if (what === 'a DOCTYPE') return dtdRefused(this.markLine, this.markColumn);
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

  private malformed(saxesMessage: string): ConnectorError {
    this.extendHead();
    // `<!doctype` in lower case is not a DOCTYPE to saxes, only bad syntax; it is refused as one.
    // Inside a start tag (`<Количество<!DOCTYPE …>`) it is a bad tag name wherever the chunks were
    // cut: the head there starts after the name, and only as much of it as has arrived is known.
    if (!this.inStartTag && /^\s*<!doctype/i.test((this.lastWasText ? '<' : '') + this.head)) {
      return dtdRefused(this.markLine, this.markColumn);
    }
    if (saxesMessage.endsWith(': text data outside of root node.')) return malformed(saxesMessage, ...this.outsideRootPlace());
    // saxes reports a text outside the root element when the text ends, or where its chunk ended:
    // a file that arrived whole can show it a later error first (a bad character in the next tag's
    // name), one cut inside the text cannot. The text is the first thing wrong either way.
    if (this.textOutsideRootPending()) return malformed('text data outside of root node.', ...this.outsideRootPlace());
    return malformed(saxesMessage, this.sax.line, Math.max(1, this.sax.column));
  }

  /** Since the last event, outside any element, text that is not all blank: saxes has not reported it yet. */
  private textOutsideRootPending(): boolean {
    if (this.stack.length > 0 || this.lastWasText) return false;
    // The slices before this one as `outsideBefore` kept them, then this one up to where saxes is:
    // the same answer wherever the file was cut.
    if (this.outsideBefore !== 'blank') return this.outsideBefore === 'text';
    return this.outsideTextSince(this.sax.position) === 'text';
  }

  /** What followed the last event in the slice being written, up to `position`, outside any element. */
  private outsideTextSince(position: number): OutsideText {
    const from = Math.max(this.lastEvent, this.meter.sliceStart);
    const since = this.meter.textAt(from, Math.max(0, position - from));
    const markup = since.search(/[<&]/);
    let text = markup < 0 ? since : since.slice(0, markup);
    // A byte order mark just after the last event (the file's first character) is no text.
    if (from === this.lastEvent && text.startsWith('\uFEFF')) text = text.slice(1);
    if (/[^ \t\r\n]/.test(text)) return 'text';
    return markup < 0 ? 'blank' : 'markup';
  }

  /**
   * Where a text outside the root element begins. saxes reports one at the `<` or `&` after it, or
   * wherever the chunk it was found in ended, so its own place would depend on how the file was
   * cut; where the text begins does not. A CDATA section there is placed at its `<`.
   */
  private outsideRootPlace(): [number, number] {
    if (this.lastWasText && !this.head.startsWith('![CDATA[')) return [this.textLine, this.textColumn];
    return [this.markLine, this.markColumn];
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
