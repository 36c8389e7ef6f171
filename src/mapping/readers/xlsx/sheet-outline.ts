/**
 * The first, cheap pass over a sheet: what must be known before its rows stream.
 *
 * - `<dimension ref="A1:C1000">`, at the top of the sheet: a sheet that claims more rows or
 *   columns than a spreadsheet can hold is refused here, before anything else is read.
 * - `<mergeCells>`: the schema puts it after `<sheetData>`, so it is only reached once every row
 *   has inflated. This pass inflates the sheet once and looks for it in the raw bytes (no XML
 *   parsing of the rows: `Buffer.indexOf` over the inflated chunks), then parses only that region.
 *   The text `<mergeCells` cannot occur inside a cell's text (its `<` would be written `&lt;`);
 *   only a comment or CDATA section could hold it, and no spreadsheet writer puts one there.
 *
 * Inflating twice costs less than parsing once: this pass is several times cheaper than the whole
 * read (the figures are in docs/performance.md), and it holds nothing but the merges.
 */
import { ConnectorError } from '../../../errors.js';
import { parseCellRange, rangeFits } from './cell-ref.js';
import { MergedCells } from './merged-cells.js';
import type { WorkbookArchive } from './workbook-archive.js';
import { XmlPart } from './xml-part.js';

const NEEDLE = Buffer.from('mergeCells', 'latin1');
/** Bytes kept from the end of a chunk, so that `<x:mergeCells` split across two chunks is found. */
const OVERLAP = 64;
/** A sheet's head (sheetPr, dimension, views, cols) is small; past this, stop parsing it. */
const MAX_HEAD_BYTES = 4 * 1024 * 1024;

/** Thrown by a handler to stop a parser that has read what it wanted. */
class Enough extends Error {}

export interface SheetOutline {
  merges: MergedCells;
}

export async function readSheetOutline(archive: WorkbookArchive, part: string, signal?: AbortSignal): Promise<SheetOutline> {
  const merges = new MergedCells();
  let headBytes = 0;
  let head: XmlPart | undefined = new XmlPart(part, {
    open(name, attributes) {
      if (name === 'dimension') checkDimension(attributes.ref, part);
      else if (name === 'sheetData') throw new Enough();
    },
    close() {},
  });
  let region: XmlPart | undefined;
  let tail = Buffer.alloc(0);
  for await (const chunk of archive.read(part, signal)) {
    if (head !== undefined) {
      headBytes += chunk.length;
      if (!feed(head, chunk) || headBytes > MAX_HEAD_BYTES) head = undefined;
    }
    if (region !== undefined) {
      if (!feed(region, chunk)) break;
      continue;
    }
    // A tag split across two chunks is looked for in the joint (the last bytes of the one and the
    // first of the next), so no chunk is copied whole.
    const joint = tail.length === 0 ? undefined : Buffer.concat([tail, chunk.subarray(0, OVERLAP)]);
    const inJoint = joint === undefined ? -1 : findMergeCells(joint, tail.length);
    const inChunk = inJoint === -1 ? findMergeCells(chunk, 0) : -1;
    if (inJoint !== -1 || inChunk !== -1) {
      region = new XmlPart(part, {
        open(name, attributes) {
          if (name !== 'mergeCell') return;
          const range = parseCellRange(attributes.ref ?? '');
          if (range === null) return;
          if (!rangeFits(range)) throw outOfBounds(part, `merged range ${attributes.ref}`);
          merges.add(range);
        },
        close(name) {
          if (name === 'mergeCells') throw new Enough();
        },
      });
      const start = inJoint !== -1 ? Buffer.concat([tail.subarray(inJoint), chunk]) : chunk.subarray(inChunk);
      if (!feed(region, start)) break;
      continue;
    }
    tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - OVERLAP)));
  }
  merges.start();
  return { merges };
}

/** Feed a chunk; false once the parser has read what it wanted. */
function feed(xml: XmlPart, chunk: Buffer): boolean {
  try {
    xml.write(chunk);
    return true;
  } catch (error) {
    if (error instanceof Enough) return false;
    throw error;
  }
}

/** Where `<mergeCells` or `<prefix:mergeCells` starts in `hay` (at or before `end`, when given the joint's), or -1. */
function findMergeCells(hay: Buffer, end: number): number {
  for (let at = hay.indexOf(NEEDLE); at !== -1; at = hay.indexOf(NEEDLE, at + 1)) {
    let before = at - 1;
    if (hay[before] === 0x3a /* : */) {
      while (before > 0 && at - before < 32 && isNameByte(hay[before - 1]!)) before--;
      before--;
    }
    if (before >= 0 && hay[before] === 0x3c /* < */ && (end === 0 || before < end)) return before;
  }
  return -1;
}

function isNameByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x5f || byte === 0x2d || byte === 0x2e;
}

/** A `<dimension ref>` past the sheet's bounds refuses the workbook at once. */
function checkDimension(ref: string | undefined, part: string): void {
  const range = parseCellRange(ref ?? '');
  if (range !== null && !rangeFits(range)) throw outOfBounds(part, `dimension ${ref}`);
}

export function outOfBounds(part: string, what: string): ConnectorError {
  return new ConnectorError(
    'WORKBOOK_LIMIT_EXCEEDED',
    `declares ${what} in ${part}, past a sheet's 1,048,576 rows or 16,384 columns (XFD): refused as a damaged or hostile workbook`,
    { text: { key: 'workbookLimit', params: { said: `${part}: ${what}` } } },
  );
}
