/**
 * Rendering export records into the bytes of one ERP import file (CSV or JSON in the configured
 * encoding, or an xlsx workbook: `render-xlsx.ts`). Pure: the same records and format give the same
 * bytes, so a file rewritten after a crash is identical to the first one.
 */
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import type { ExportFormat } from '../config/export-format-schema.js';
import { neutraliseFormulaCast } from '../shared/csv-formula.js';
import { formatCell, formatJsonValue, valueToText } from './format-value.js';
import { resolveColumns } from './resolve-columns.js';
import { renderXlsx } from './render-xlsx.js';
import { ConnectorError } from '../errors.js';

export type ExportMode = 'perEvent' | 'batch';

export { resolveColumns };

/** A cell that starts or ends with white space (`\s`: space, tab, no-break space…), which a reader might trim. */
const EDGE_SPACE = /^\s|\s$/;

/**
 * CSV text, written by csv-stringify. A cell is quoted (`"`, a quote inside doubled) when it holds
 * the delimiter, a quote, a CR or an LF anywhere, or starts or ends with white space (RFC 4180, plus
 * the edge spaces an import would otherwise trim); a comma is quoted only when it is the delimiter,
 * and an empty cell is written as nothing. `quote_record_delimiter` is set because csv-stringify,
 * given a line end, otherwise quotes only that line end: a lone LF in a CRLF file (or a CR in an LF
 * one) would go out bare and split the record for a reader. With `csv.escapeFormulas` each value
 * cell that a spreadsheet would run as a formula gets a `'` in front before quoting; header names
 * come from the mapping, not from outside, and are left as written (but quoted by the same rules).
 */
export function renderCsv(records: readonly Record<string, unknown>[], format: ExportFormat): string {
  const { delimiter, header, lineEnding, escapeFormulas } = format.csv;
  const columns = resolveColumns(format, records);
  const rows = records.map((record) => columns.map(([, column]) => formatCell(record, column)));
  return stringify(rows, {
    delimiter,
    record_delimiter: lineEnding === 'crlf' ? 'windows' : 'unix',
    quote_record_delimiter: true,
    quoted_match: EDGE_SPACE,
    header,
    columns: columns.map(([name], index) => ({ key: String(index), header: name })),
    ...(escapeFormulas ? { cast: neutraliseFormulaCast() } : {}),
  });
}

/**
 * JSON: in `perEvent` mode one object per file; in `batch` mode an array of objects (also when
 * the batch holds one record), so the ERP's import reads one shape per channel.
 */
export function renderJson(records: readonly Record<string, unknown>[], format: ExportFormat, mode: ExportMode): string {
  const columns = format.columns ? Object.entries(format.columns) : null;
  const shaped = records.map((record) => (columns ? Object.fromEntries(columns.map(([name, column]) => [name, formatJsonValue(record, column)])) : record));
  const value = mode === 'perEvent' && shaped.length === 1 ? shaped[0] : shaped;
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The file's bytes, in any format: what the exporter writes. Asynchronous because a workbook is
 * zipped through zlib's streams; CSV and JSON are rendered at once (`renderExportFile`).
 */
export async function renderExportBytes(records: readonly Record<string, unknown>[], format: ExportFormat, mode: ExportMode): Promise<Buffer> {
  if (format.format === 'xlsx') return renderXlsx(records, format);
  return renderExportFile(records, format, mode);
}

/**
 * The bytes of a CSV or JSON file, synchronously. Characters windows-1251 cannot hold are written
 * as `?` (iconv-lite's replacement). A workbook cannot be rendered synchronously: for
 * `format: xlsx` this throws, and `renderExportBytes` is the one to call.
 */
export function renderExportFile(records: readonly Record<string, unknown>[], format: ExportFormat, mode: ExportMode): Buffer {
  if (format.format === 'xlsx') throw new ConnectorError('INTERNAL_ERROR', 'an xlsx file is rendered asynchronously: call renderExportBytes');
  if (format.format === 'json') return encode(renderJson(records, format, mode), format.json.encoding);
  return encode(renderCsv(records, format), format.csv.encoding);
}

function encode(text: string, encoding: 'utf-8' | 'utf-8-bom' | 'windows-1251'): Buffer {
  if (encoding === 'windows-1251') return iconv.encode(text, 'win1251');
  if (encoding === 'utf-8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  return Buffer.from(text, 'utf8');
}

export { valueToText };
