/**
 * Child-side cases of the XLSX bench. Each runs in its own process (its peak RSS is its own) and
 * reads a small workbook first, so the measured one does not pay for JIT and first opens.
 *
 * - `xlsx-generate`: writes a workbook (bench/generate-xlsx.ts).
 * - `xlsx-exceljs-read`: the ceiling: exceljs's own streaming `WorkbookReader`, every row of the
 *   sheet iterated, nothing else (shared strings cached, as it must to give texts).
 * - `xlsx-reader-read`: our reader alone: every row of the sheet, typed cells, nothing else.
 * - `xlsx-map-file`: `mapFile` with a mapping: header, grouping, field conversion, validation.
 */
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type ExcelJS from 'exceljs';
import { parseMappingSpec } from '../src/config/load-mapping.js';
import type { MappingSpec } from '../src/config/mapping-schema.js';
import { mapFile } from '../src/mapping/index.js';
import { openWorkbook, type InflateMeter } from '../src/mapping/readers/xlsx-reader.js';
import { writeRequestsXlsx, type XlsxSpec } from './generate-xlsx.js';

export interface XlsxArgs {
  warmup: string;
  main: string;
  rows: number;
  requests: number;
}

export interface XlsxRun {
  seconds: number;
  rows: number;
  /** mapFile: submissions; the readers: 0. */
  requests: number;
  /** Our reader: bytes inflated (both passes over the sheet, and the small parts). */
  inflatedBytes?: number;
}

/** The mapping of the generated workbook (bench/generate-xlsx.ts). */
export function benchXlsxMapping(): MappingSpec {
  return parseMappingSpec(
    {
      format: 'xlsx',
      groupBy: 'Номер заявки',
      request: {
        externalId: { column: 'Номер заявки' },
        'customer.inn': { column: 'ИНН' },
        'customer.name': { column: 'Покупатель' },
        'contact.name': { column: 'Контакт' },
        'contact.phone': { column: 'Телефон' },
        'contact.email': { column: 'Email' },
        'delivery.city': { column: 'Город' },
        'delivery.address': { column: 'Адрес' },
        'delivery.desiredDate': { column: 'Дата поставки', date: 'DD.MM.YYYY' },
      },
      items: {
        lineId: { column: 'Строка' },
        name: { column: 'Номенклатура' },
        quantity: { column: 'Количество', integer: true },
        unit: { column: 'Ед. изм.' },
      },
    },
    'bench-xlsx.yaml',
  );
}

async function exceljsCount(file: string): Promise<number> {
  // Imported here, in the exceljs child only: the module alone adds ~27 MB of RSS to a process.
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let rows = 0;
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      void row;
      rows++;
    }
  }
  return rows - 1; // the header
}

async function readerCount(file: string, meter: InflateMeter): Promise<number> {
  const handle = await fs.open(file);
  try {
    const input = openWorkbook(handle, benchXlsxMapping().xlsx, undefined, meter);
    let rows = 0;
    for await (const row of input.rows) {
      void row;
      rows++;
    }
    return rows - 1;
  } finally {
    await handle.close();
  }
}

async function mapCount(file: string): Promise<{ rows: number; requests: number }> {
  const spec = benchXlsxMapping();
  let requests = 0;
  let problem: string | undefined;
  for await (const item of mapFile(file, spec, { now: new Date(), rejectPastDates: true })) {
    if (item.kind === 'submission') requests++;
    else if (item.kind === 'problem') problem ??= item.problem.message;
  }
  if (problem !== undefined) throw new Error(`mapFile reported a problem: ${problem}`);
  return { rows: 0, requests };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - started) / 1000, value };
}

async function xlsxExceljsRead(args: XlsxArgs): Promise<XlsxRun> {
  await exceljsCount(args.warmup);
  const { seconds, value: rows } = await timed(() => exceljsCount(args.main));
  if (rows !== args.rows) throw new Error(`exceljs read ${rows} rows, expected ${args.rows}`);
  return { seconds, rows, requests: 0 };
}

async function xlsxReaderRead(args: XlsxArgs): Promise<XlsxRun> {
  await readerCount(args.warmup, { inflatedBytes: 0, opened: [] });
  const meter: InflateMeter = { inflatedBytes: 0, opened: [] };
  const { seconds, value: rows } = await timed(() => readerCount(args.main, meter));
  if (rows !== args.rows) throw new Error(`the reader read ${rows} rows, expected ${args.rows}`);
  return { seconds, rows, requests: 0, inflatedBytes: meter.inflatedBytes };
}

async function xlsxMapFile(args: XlsxArgs): Promise<XlsxRun> {
  await mapCount(args.warmup);
  const { seconds, value } = await timed(() => mapCount(args.main));
  if (value.requests !== args.requests) throw new Error(`mapFile gave ${value.requests} requests, expected ${args.requests}`);
  return { seconds, rows: args.rows, requests: value.requests };
}

/**
 * Writes a workbook, in a child of its own: the runner must stay small, since Linux counts the
 * parent's RSS at fork into each child's maxRSS (exceljs writing a million rows takes ~500 MB).
 */
async function xlsxGenerate(args: { file: string } & XlsxSpec): Promise<{ rows: number }> {
  return { rows: await writeRequestsXlsx(args.file, args) };
}

export const xlsxCases = {
  'xlsx-generate': xlsxGenerate,
  'xlsx-exceljs-read': xlsxExceljsRead,
  'xlsx-reader-read': xlsxReaderRead,
  'xlsx-map-file': xlsxMapFile,
};
