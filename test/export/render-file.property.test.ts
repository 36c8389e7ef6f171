/**
 * The export's CSV writer against the intake's CSV reader, fuzzed: a table of random cells (the
 * delimiter, quotes, CR, LF, tabs, edge spaces, Cyrillic, characters 1251 lacks, cells that start
 * like a formula) written by `renderExportFile` with every encoding, delimiter, line ending and
 * `escapeFormulas` setting, then read from a real file by `csvReader` in the matching encoding,
 * gives back the header and every cell. What the writer changes on purpose is expected: a `'` in
 * front of a formula-like value cell, `?` for a character windows-1251 lacks; and the reader skips
 * blank lines, so a one-column row with an empty cell does not come back.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { exportFormatSchema } from '../../src/config/export-format-schema.js';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import { renderExportFile } from '../../src/export/render-file.js';
import { csvReader } from '../../src/mapping/readers/csv-reader.js';
import { requestMapping } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { specOf } from '../helpers/mapping-fixtures.js';

const NUM_RUNS = 1000;

/** Pieces of cells: plain text, everything CSV must quote, formula starts, Cyrillic, and what 1251 cannot hold. */
const PIECES = [
  ...['a', 'Z', '0', '9', '1 234,50', '\\', '\u0001'],
  ...[' ', '\u00a0', ';', ',', '|', '\t', '"', '""', "'", '\r', '\n', '\r\n'],
  ...['=', '+', '-', '@'],
  ...['Я', 'ж', 'Ё', 'ООО «Ромашка»', '№', '—'],
  ...['€', '😀', '日本'],
];
const cellText = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 });

const ENCODINGS = ['utf-8', 'utf-8-bom', 'windows-1251'] as const;
const DELIMITERS = [';', ',', '\t', '|'] as const;

/** The reading side of the same file: windows-1251 as written, UTF-8 with or without BOM as `utf-8` or `auto`. */
function readerEncoding(written: (typeof ENCODINGS)[number], auto: boolean): 'utf-8' | 'windows-1251' | 'auto' {
  if (written === 'windows-1251') return 'windows-1251';
  return auto ? 'auto' : 'utf-8';
}

const specs = new Map<string, MappingSpec>();
/** The mapping the reader is given: the shared request mapping with these CSV options. */
function readSpec(encoding: 'utf-8' | 'windows-1251' | 'auto', delimiter: string): MappingSpec {
  const key = `${encoding} ${delimiter}`;
  if (!specs.has(key)) specs.set(key, specOf(requestMapping({ csv: { encoding, delimiter, decimalComma: false } })));
  return specs.get(key)!;
}

/** Every row the reader yields for `bytes`, read from a real file in `dir`. */
async function readBack(dir: string, bytes: Buffer, spec: MappingSpec): Promise<string[][]> {
  const file = path.join(dir, 'export.csv');
  await fs.writeFile(file, bytes);
  const handle = await fs.open(file, 'r');
  try {
    const rows: string[][] = [];
    for await (const row of csvReader.open(handle, spec).rows) rows.push(row.cells.map(String));
    return rows;
  } finally {
    await handle.close();
  }
}

/** What a text is after a trip through windows-1251 (`?` for what it lacks). */
const through1251 = (text: string) => iconv.decode(iconv.encode(text, 'win1251'), 'win1251');
const FORMULA_START = /^[=+\-@\t\r]/;

const table = fc.integer({ min: 1, max: 4 }).chain((width) =>
  fc.record({
    header: fc.uniqueArray(fc.string({ unit: fc.constantFrom(...PIECES), minLength: 1, maxLength: 4 }), { minLength: width, maxLength: width }),
    rows: fc.array(fc.array(cellText, { minLength: width, maxLength: width }), { maxLength: 5 }),
  }),
);

const settings = fc.record({
  encoding: fc.constantFrom(...ENCODINGS),
  delimiter: fc.constantFrom(...DELIMITERS),
  lineEnding: fc.constantFrom('crlf', 'lf'),
  escapeFormulas: fc.boolean(),
  auto: fc.boolean(),
});

describe('CSV export, read back by the CSV reader', () => {
  it('gives back the header and every cell, as the writer meant them', async () => {
    await withTempDir(async (dir) => {
      await fc.assert(
        fc.asyncProperty(table, settings, async ({ header, rows }, s) => {
          const columns = Object.fromEntries(header.map((name, i) => [name, { field: `f${i}` }]));
          const format = exportFormatSchema.parse({
            fileName: 'x.csv',
            csv: { encoding: s.encoding, delimiter: s.delimiter, lineEnding: s.lineEnding, escapeFormulas: s.escapeFormulas, header: true },
            columns,
          });
          const records = rows.map((cells) => Object.fromEntries(cells.map((cell, i) => [`f${i}`, cell])));
          const bytes = renderExportFile(records, format, 'batch');

          const encode = s.encoding === 'windows-1251' ? through1251 : (text: string) => text;
          const value = (cell: string) => encode(s.escapeFormulas && FORMULA_START.test(cell) ? `'${cell}` : cell);
          // The columns go in the object's key order, which puts integer-like names first.
          const order = Object.values(columns).map((column) => Number(column.field.slice(1)));
          const expected = [
            Object.keys(columns).map(encode),
            ...rows.map((cells) => order.map((i) => value(cells[i]!))).filter((cells) => !(cells.length === 1 && cells[0] === '')),
          ];
          expect(await readBack(dir, bytes, readSpec(readerEncoding(s.encoding, s.auto), s.delimiter))).toEqual(expected);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  });
});
