/**
 * The shared strings table (`xl/sharedStrings.xml`): every text a sheet stores by index (`t="s"`).
 * It must be held whole before the first row, since any cell may name any string.
 *
 * Held compactly: one growing UTF-8 Buffer of all the texts and a Uint32Array of where each ends,
 * not a JS array of strings: the buffer takes little more than half the array's memory once
 * trimmed, and it lives outside the V8 heap, so the garbage collector does not walk a million
 * strings again at every major collection while the sheet streams. The price is a decode per
 * read; a small direct-mapped cache of decoded texts (a sheet's units, names and organisations
 * repeat) pays most of it back (figures: docs/performance.md, Workbooks). Small, since a cached
 * text outlives the young collections and is promoted: new texts take the slots in turn, so with
 * thousands of slots every text of a long sheet was promoted and dropped, and the old generation
 * grew with the sheet until a full collection.
 *
 * A text is its `<t>` runs joined (rich text), phonetic runs (`<rPh>`) left out, whitespace kept
 * exactly as written (never trimmed here), and OOXML's `_xHHHH_` escapes (`_x000D_` for a
 * carriage return) decoded.
 */
import type { WorkbookArchive } from './workbook-archive.js';
import { checkTextLength, parsePart } from './xml-part.js';

const CACHE_SIZE = 256;

export class SharedStrings {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private ends = new Uint32Array(1024);
  private count = 0;
  private readonly cacheKeys = new Int32Array(CACHE_SIZE).fill(-1);
  private readonly cacheTexts: string[] = new Array<string>(CACHE_SIZE).fill('');

  get size(): number {
    return this.count;
  }

  add(text: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: room for the worst case, measured only when short of it.
    const room = text.length * 3;
    if (this.used + room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
  }

  /** Drop the growth slack once the table is complete. */
  trim(): void {
    this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.ends = this.ends.slice(0, this.count);
  }

  /** The text at `index`, or undefined past the end. */
  get(index: number): string | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const slot = index & (CACHE_SIZE - 1);
    if (this.cacheKeys[slot] === index) return this.cacheTexts[slot];
    const text = this.bytes.toString('utf8', index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
    this.cacheKeys[slot] = index;
    this.cacheTexts[slot] = text;
    return text;
  }
}

/** Gathers the text of `<si>` or `<is>`: its `<t>` runs, phonetic runs left out, within the text limit. */
export class RichTextCollector {
  private text = '';
  private inText = false;
  private inPhonetic = false;

  reset(): void {
    this.text = '';
    this.inText = false;
    this.inPhonetic = false;
  }

  open(name: string): void {
    if (name === 't') this.inText = !this.inPhonetic;
    else if (name === 'rPh') this.inPhonetic = true;
  }

  close(name: string): void {
    if (name === 't') this.inText = false;
    else if (name === 'rPh') this.inPhonetic = false;
  }

  add(text: string): void {
    if (!this.inText) return;
    this.text += text;
    checkTextLength(this.text);
  }

  /** The gathered text, `_xHHHH_` escapes decoded. */
  result(): string {
    return decodeEscapes(this.text);
  }
}

const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** OOXML's escape for characters XML cannot carry (ECMA-376 ST_Xstring): `_x000D_` → `\r`, `_x005F_` → `_`. */
export function decodeEscapes(text: string): string {
  return text.includes('_x') ? text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

export async function readSharedStrings(archive: WorkbookArchive, part: string, signal?: AbortSignal): Promise<SharedStrings> {
  const strings = new SharedStrings();
  const collector = new RichTextCollector();
  let inItem = false;
  await parsePart(
    archive,
    part,
    {
      open(name) {
        if (name === 'si') {
          inItem = true;
          collector.reset();
        } else if (inItem) collector.open(name);
      },
      close(name) {
        if (name === 'si') {
          inItem = false;
          strings.add(collector.result());
        } else if (inItem) collector.close(name);
      },
      text(text) {
        if (inItem) collector.add(text);
      },
    },
    signal,
  );
  strings.trim();
  return strings;
}
