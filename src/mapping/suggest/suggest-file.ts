/**
 * `mapping suggest` on a file, whatever its format: a workbook's first rows are read through the
 * daemon's own XLSX reader (with every limit it keeps: a zip bomb is refused here as in the inbox),
 * an XML file (or a `.zip` holding one, as 1C compresses its exchange messages) is tried as an
 * EnterpriseData message, then as CommerceML, and anything else is suggested from its first bytes.
 */
import path from 'node:path';
import { xlsxOptionsSchema, type MappingKind } from '../../config/mapping-schema.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { openWorkbook } from '../readers/xlsx-reader.js';
import { sniffContainer } from '../readers/sniff.js';
import type { TableRow } from '../readers/types.js';
import { MAX_JSON_BYTES } from '../readers/json-reader.js';
import { readSheetSample } from './read-sheet-sample.js';
import { MAX_CSV_SAMPLE_BYTES } from './read-sample.js';
import { suggestCommerceMl } from './suggest-commerceml.js';
import { suggestEnterpriseData } from './suggest-enterprisedata.js';
import { suggestFromTable, suggestMapping } from './suggest-mapping.js';
import type { MappingSuggestion } from './types.js';
import { phrase } from './summary-words.js';

/** Rows of a sheet the suggestion looks at; the preview still maps the whole workbook. */
export const MAX_SHEET_SAMPLE_ROWS = 2_000;

export interface SuggestFileOptions {
  kind: MappingKind;
  /** The clock, for the preview of an XML preset (CommerceML, EnterpriseData). */
  now: Date;
}

/** Suggest a mapping for the opened sample `input` (read from byte 0; the caller closes it). */
export async function suggestMappingForFile(input: OpenedInput, options: SuggestFileOptions): Promise<MappingSuggestion> {
  const fileName = path.basename(input.name);
  const ext = path.extname(fileName).toLowerCase();
  const container = await sniffContainer(input.handle);
  // A ZIP named .zip is 1C's compressed exchange message (one XML entry), not a workbook.
  const zippedXml = container === 'zip' && ext === '.zip';
  if (!zippedXml && (container !== null || ext === '.xlsx' || ext === '.xlsm')) return suggestFromWorkbook(input, fileName, options.kind);
  if (ext === '.xml' || zippedXml) {
    const xml = (await suggestEnterpriseData(input, fileName, options)) ?? (await suggestCommerceMl(input, fileName, options));
    if (xml !== undefined) return xml;
  }
  const limit = /\.(json|ndjson|jsonl)$/i.test(fileName) ? MAX_JSON_BYTES : MAX_CSV_SAMPLE_BYTES;
  const { bytes, truncated } = await readStart(input, limit);
  return suggestMapping(bytes, fileName, { kind: options.kind, truncated });
}

async function suggestFromWorkbook(input: OpenedInput, fileName: string, kind: MappingKind): Promise<MappingSuggestion> {
  const workbook = openWorkbook(input.handle, xlsxOptionsSchema.parse({}));
  const rows: TableRow[] = [];
  let truncated = false;
  try {
    for await (const row of workbook.rows) {
      if (rows.length >= MAX_SHEET_SAMPLE_ROWS) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
  } finally {
    await workbook.rows.return(undefined);
  }
  const sheet = workbook.label ?? 'the first sheet';
  const part = readSheetSample(rows, sheet);
  if (truncated) part.warnings.push(phrase('summary.warn.cutSheet', { rows: MAX_SHEET_SAMPLE_ROWS, sheet }));
  return suggestFromTable(
    {
      format: 'xlsx',
      encoding: { value: 'utf-8', reason: phrase('summary.why.workbookUnicode') },
      sheet: { value: sheet, reason: phrase('summary.why.firstSheet') },
      ...part,
    },
    fileName,
    { kind },
  );
}

/** The first `limit` bytes of the file (positional reads, so the preview can read it again from byte 0). */
export async function readStart(input: OpenedInput, limit: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const buffer = Buffer.alloc(Math.min(limit + 1, (await input.handle.stat()).size + 1));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await input.handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return { bytes: buffer.subarray(0, Math.min(filled, limit)), truncated: filled > limit };
}
