/**
 * Where saxes's last event left the reader, and what has been written since: the places the XML
 * reader's refusals are given at, the same wherever the file was cut into chunks.
 *
 * saxes tells of a construct only once it has read past it (a text at the `<` after it, a comment
 * at its `--`), and of a text outside the root element at the `<` or `&` after it or wherever its
 * chunk ended. Its own position is therefore no place to give an error at. From its last event the
 * reader keeps instead: the mark, where the next markup would start (a start tag, a DOCTYPE and
 * anything still pending are placed there); the first units written after it, to say what saxes is
 * holding; and, outside any element, whether a text has begun since, because that text is the first
 * thing wrong in the file whatever saxes happens to report first.
 */
import type { ConnectorError } from '../../../errors.js';
import { dtdRefused, malformed } from './refusals.js';
import type { SliceMeter } from './slice-meter.js';

/** Where saxes is: `position` in UTF-16 units, `line` from 1, `column` from 0. */
interface SaxesPlace {
  readonly position: number;
  readonly line: number;
  readonly column: number;
}

/** How much of a pending construct is kept to say what it is (`<!--`, `<![CDATA[`, text). */
const HEAD_UNITS = 12;

/** What follows the last event outside any element (`LastEvent.outsideBefore`). */
type OutsideText = 'blank' | 'text' | 'markup';

export class LastEvent {
  /** Where the next `<` would stand (1-based), from saxes's position at its last event. */
  markLine = 1;
  markColumn = 1;
  /** saxes's position (UTF-16 units) at its last event. */
  position = 0;
  /** Whether that event was a text, and what followed it. */
  private wasText = false;
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

  constructor(
    private readonly sax: SaxesPlace,
    private readonly meter: SliceMeter,
  ) {}

  /** After an event: the next markup starts `ahead` characters past where saxes is, on its line. */
  mark(ahead = 0): void {
    this.position = this.sax.position + ahead;
    this.wasText = false;
    this.head = '';
    this.outsideBefore = 'blank';
    this.markLine = this.sax.line;
    this.markColumn = this.sax.column + 1 + ahead;
  }

  /** After a text, saxes has read the `<` that ended it: that `<` is the next markup's start. */
  markText(): void {
    this.textLine = this.markLine;
    this.textColumn = this.markColumn;
    this.position = this.sax.position;
    this.wasText = true;
    this.head = '';
    this.outsideBefore = 'blank';
    this.markLine = this.sax.line;
    this.markColumn = this.sax.column;
  }

  /** The meter's current slice has been written to saxes: keep what it added past the last event. */
  sliceWritten(outsideAnyElement: boolean): void {
    this.extendHead();
    if (this.outsideBefore === 'blank' && outsideAnyElement && !this.wasText) {
      this.outsideBefore = this.outsideTextSince(this.meter.writtenUnits);
    }
  }

  /** The first units of what saxes is holding (`<` included after a text, which saxes reports on reading that `<`). */
  pendingHead(): string {
    return (this.wasText ? '<' : '') + this.head;
  }

  /** saxes's error as the reader's refusal, placed where the file first goes wrong, whatever saxes noticed first. */
  placeMalformed(saxesMessage: string, inStartTag: boolean, outsideAnyElement: boolean): ConnectorError {
    this.extendHead();
    // `<!doctype` in lower case is not a DOCTYPE to saxes, only bad syntax; it is refused as one.
    // Inside a start tag (`<Количество<!DOCTYPE …>`) it is a bad tag name wherever the chunks were
    // cut: the head there starts after the name, and only as much of it as has arrived is known.
    if (!inStartTag && /^\s*<!doctype/i.test(this.pendingHead())) {
      return dtdRefused(this.markLine, this.markColumn);
    }
    if (saxesMessage.endsWith(': text data outside of root node.')) return malformed(saxesMessage, ...this.outsideRootPlace());
    // saxes reports a text outside the root element when the text ends, or where its chunk ended:
    // a file that arrived whole can show it a later error first (a bad character in the next tag's
    // name), one cut inside the text cannot. The text is the first thing wrong either way.
    if (this.textOutsideRootPending(outsideAnyElement)) return malformed('text data outside of root node.', ...this.outsideRootPlace());
    return malformed(saxesMessage, this.sax.line, Math.max(1, this.sax.column));
  }

  private extendHead(): void {
    if (this.head.length < HEAD_UNITS) this.head += this.meter.textAt(this.position + this.head.length, HEAD_UNITS - this.head.length);
  }

  /** Since the last event, outside any element, text that is not all blank: saxes has not reported it yet. */
  private textOutsideRootPending(outsideAnyElement: boolean): boolean {
    if (!outsideAnyElement || this.wasText) return false;
    // The slices before this one as `outsideBefore` kept them, then this one up to where saxes is:
    // the same answer wherever the file was cut.
    if (this.outsideBefore !== 'blank') return this.outsideBefore === 'text';
    return this.outsideTextSince(this.sax.position) === 'text';
  }

  /** What followed the last event in the slice being written, up to position `upTo`, outside any element. */
  private outsideTextSince(upTo: number): OutsideText {
    const from = Math.max(this.position, this.meter.sliceStart);
    const since = this.meter.textAt(from, Math.max(0, upTo - from));
    const markup = since.search(/[<&]/);
    let text = markup < 0 ? since : since.slice(0, markup);
    // A byte order mark just after the last event (the file's first character) is no text.
    if (from === this.position && text.startsWith('\uFEFF')) text = text.slice(1);
    if (/[^ \t\r\n]/.test(text)) return 'text';
    return markup < 0 ? 'blank' : 'markup';
  }

  /**
   * Where a text outside the root element begins. saxes reports one at the `<` or `&` after it, or
   * wherever the chunk it was found in ended, so its own place would depend on how the file was
   * cut; where the text begins does not. A CDATA section there is placed at its `<`.
   */
  private outsideRootPlace(): [number, number] {
    if (this.wasText && !this.head.startsWith('![CDATA[')) return [this.textLine, this.textColumn];
    return [this.markLine, this.markColumn];
  }
}
