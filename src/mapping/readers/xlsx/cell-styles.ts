/**
 * The one thing a reader needs from `xl/styles.xml`: for each cell style (`cellXfs`, the `s`
 * attribute of a cell), whether its number format makes a number a date, a time or neither. Fonts,
 * fills and borders are skipped. Held as one byte per style.
 */
import { ConnectorError } from '../../../errors.js';
import type { WorkbookArchive } from './workbook-archive.js';
import { DATE_KIND, builtInDateKind, formatCodeDateKind, type DateKind } from './number-formats.js';
import { parsePart } from './xml-part.js';

/** Excel allows about 64,000 cell formats; far past that is a hostile file. */
const MAX_STYLES = 1_000_000;
const MAX_FORMATS = 100_000;

export interface CellStyles {
  /** The date kind of style `index` (DATE_KIND.none for an unknown index). */
  dateKind(index: number): DateKind;
}

/** Styles of a workbook without a styles part: every number is a number. */
export const NO_STYLES: CellStyles = { dateKind: () => DATE_KIND.none };

export async function readCellStyles(archive: WorkbookArchive, part: string, signal?: AbortSignal): Promise<CellStyles> {
  const customFormats = new Map<number, DateKind>();
  let count = 0;
  let inCellXfs = false;
  let inNumFmts = false;
  const formatIds: number[] = [];
  await parsePart(
    archive,
    part,
    {
      open(name, attributes) {
        if (name === 'numFmts') inNumFmts = true;
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'numFmt' && inNumFmts) {
          if (customFormats.size >= MAX_FORMATS) throw tooMany('number formats', MAX_FORMATS);
          const id = Number(attributes.numFmtId);
          if (Number.isInteger(id)) customFormats.set(id, formatCodeDateKind(attributes.formatCode ?? ''));
        } else if (name === 'xf' && inCellXfs) {
          if (count >= MAX_STYLES) throw tooMany('cell styles', MAX_STYLES);
          formatIds.push(Number(attributes.numFmtId ?? 0));
          count++;
        }
      },
      close(name) {
        if (name === 'numFmts') inNumFmts = false;
        else if (name === 'cellXfs') inCellXfs = false;
      },
    },
    signal,
  );
  // Formats may follow cellXfs in a sloppy writer's output: kinds are resolved once all are read.
  const kinds = new Uint8Array(formatIds.length);
  formatIds.forEach((id, index) => {
    kinds[index] = customFormats.get(id) ?? builtInDateKind(id);
  });
  return { dateKind: (index) => (kinds[index] ?? DATE_KIND.none) as DateKind };
}

function tooMany(what: string, limit: number): ConnectorError {
  return new ConnectorError('WORKBOOK_LIMIT_EXCEEDED', `declares more than ${limit} ${what} in its styles: refused as a damaged or hostile workbook`, {
    text: { key: 'workbookLimit', params: { said: `styles: ${what} > ${limit}` } },
  });
}
