/**
 * A sample's bytes → text and columns: the format (by extension, else by content), the encoding
 * (a BOM, else valid UTF-8, else windows-1251, as `csv.encoding: auto` decides, but over the whole
 * sample rather than its first 64 KiB), then the CSV or JSON reader.
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import iconv from 'iconv-lite';
import { ConnectorError } from '../../errors.js';
import { MAX_JSON_BYTES } from '../readers/json-reader.js';
import { readCsvSample } from './read-csv-sample.js';
import { readJsonSample } from './read-json-sample.js';
import type { Detected, SampleTable } from './types.js';
import { phrase, type Phrase } from './summary-words.js';

/** How much of a CSV sample is analysed; the preview still reads the whole file. */
export const MAX_CSV_SAMPLE_BYTES = 4 * 1024 * 1024;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CYRILLIC = /[\u0400-\u04ff]/g;
const NON_ASCII = /[\u0080-\uffff]/g;

type Encoding = SampleTable['encoding']['value'];

/** Read `bytes` (the start of the file named `fileName`, or all of it) into a sample table. */
export function readSample(bytes: Buffer, fileName: string, truncated = false): SampleTable {
  if (bytes.length === 0) throw new ConnectorError('FILE_UNREADABLE', `${fileName} is empty: there is nothing to suggest a mapping from`);
  const format = formatOf(bytes, fileName);
  if (format === 'json' && truncated) {
    throw new ConnectorError('FILE_UNREADABLE', `${fileName} is over ${MAX_JSON_BYTES} bytes: JSON files that large are not read (use NDJSON)`);
  }
  const cut = format === 'csv' && bytes.length > MAX_CSV_SAMPLE_BYTES;
  const body = cut ? bytes.subarray(0, MAX_CSV_SAMPLE_BYTES) : bytes;
  const { encoding, text, warnings } = decodeSample(body, truncated || cut);
  if (truncated || cut) warnings.push(phrase('summary.warn.cutSample', { bytes: body.length, file: fileName }));
  const table = format === 'csv' ? readCsvSample(text, truncated || cut) : readJsonSample(text, format);
  return { ...table, format, encoding, warnings: [...warnings, ...table.warnings] };
}

function formatOf(bytes: Buffer, fileName: string): 'csv' | 'json' | 'ndjson' {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  // Another extension (`.txt`, none): JSON if it starts like JSON and parses.
  const text = (bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes).toString('utf8');
  const start = text.trimStart()[0];
  if (start !== '[' && start !== '{') return 'csv';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
    return lines.every((line) => isJson(line)) ? 'ndjson' : 'csv';
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Length of the prefix of `bytes` that does not end inside a UTF-8 character. */
function completeUtf8(bytes: Buffer): Buffer {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - i < need ? bytes.subarray(0, i) : bytes;
  }
  return bytes;
}

function decodeSample(bytes: Buffer, truncated: boolean): { encoding: Detected<Encoding>; text: string; warnings: Phrase[] } {
  const warnings: Phrase[] = [];
  if (bytes.subarray(0, 3).equals(BOM)) {
    return { encoding: { value: 'utf-8', reason: phrase('summary.why.bom') }, text: bytes.subarray(3).toString('utf8'), warnings };
  }
  const body = truncated ? completeUtf8(bytes) : bytes;
  if (!body.some((byte) => byte >= 0x80)) {
    const reason = phrase('summary.why.asciiOnly');
    return { encoding: { value: 'auto', reason }, text: body.toString('latin1'), warnings };
  }
  if (isUtf8(body)) {
    const text = body.toString('utf8');
    return { encoding: { value: 'utf-8', reason: phrase('summary.why.validUtf8', { n: (text.match(NON_ASCII) ?? []).length }) }, text, warnings };
  }
  const text = iconv.decode(bytes, 'win1251');
  const nonAscii = (text.match(NON_ASCII) ?? []).length;
  const cyrillic = (text.match(CYRILLIC) ?? []).length;
  // KOI8-R or CP866 bytes also decode as windows-1251, into other letters: say so instead of guessing on.
  if (cyrillic < nonAscii * 0.8) {
    warnings.push(phrase('summary.warn.notCyrillic', { cyrillic, nonAscii }));
  }
  return { encoding: { value: 'windows-1251', reason: phrase('summary.why.windows1251') }, text, warnings };
}
