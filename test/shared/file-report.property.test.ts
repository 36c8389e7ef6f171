/**
 * The CSV error report against the intake's CSV reader, fuzzed: problems with random fields,
 * messages, ids and places (the delimiter, quotes, CR, LF, commas, edge spaces, formula starts,
 * Cyrillic, characters 1251 lacks) rendered by `renderCsvReport` and read back from a real file as
 * UTF-8 `;` CSV give the header and every cell, each value cell with the `'` the report puts in
 * front of a formula start.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import { ERROR_CODES } from '../../src/errors.js';
import { csvReader } from '../../src/mapping/readers/csv-reader.js';
import { renderCsvReport } from '../../src/shared/file-report.js';
import { problemPlace, type MappingProblem } from '../../src/shared/types.js';
import { requestMapping } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { specOf } from '../helpers/mapping-fixtures.js';

const NUM_RUNS = 1000;

const PIECES = ['a', 'Z', '7', ' ', ';', ',', '"', "'", '\r', '\n', '\t', '=', '+', '-', '@', 'Я', 'ж', '«»', '€', '😀', 'Заявки!C7'];
const text = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 8 });

const problem: fc.Arbitrary<MappingProblem> = fc
  .record({
    row: fc.option(fc.integer({ min: -3, max: 1_048_576 })),
    field: fc.option(text),
    code: fc.constantFrom(...(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[])),
    message: text,
    externalId: fc.option(text, { nil: undefined }),
    cell: fc.option(text, { nil: undefined }),
    line: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
    column: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
  })
  .map(({ externalId, cell, line, column, ...rest }) => ({
    ...rest,
    ...(externalId === undefined ? {} : { externalId }),
    ...(cell === undefined ? {} : { cell }),
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
  }));

/** The report as the intake reads CSV: UTF-8 (its BOM dropped), `;`. */
const spec: MappingSpec = specOf(requestMapping({ csv: { encoding: 'utf-8', delimiter: ';', decimalComma: false } }));

async function readBack(dir: string, csv: string): Promise<string[][]> {
  const file = path.join(dir, 'report.errors.csv');
  await fs.writeFile(file, csv, 'utf8');
  const handle = await fs.open(file, 'r');
  try {
    const rows: string[][] = [];
    for await (const row of csvReader.open(handle, spec).rows) rows.push(row.cells.map(String));
    return rows;
  } finally {
    await handle.close();
  }
}

const neutralised = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

describe('CSV error report, read back by the CSV reader', () => {
  it('gives back the header and every cell, formula starts neutralised', async () => {
    await withTempDir(async (dir) => {
      await fc.assert(
        fc.asyncProperty(fc.array(problem, { maxLength: 5 }), async (problems) => {
          const csv = renderCsvReport({ file: 'requests.csv', sha256: 'ab'.repeat(32), problems, notes: [] });
          const withPlace = problems.some((p) => problemPlace(p) !== null);
          const header = ['row', 'field', 'code', 'message', 'externalId', ...(withPlace ? ['place'] : [])];
          const rows = problems.map((p) =>
            [p.row === null ? '' : String(p.row), p.field ?? '', p.code, p.message, p.externalId ?? '', ...(withPlace ? [problemPlace(p) ?? ''] : [])].map(
              neutralised,
            ),
          );
          expect(await readBack(dir, csv)).toEqual([header, ...rows]);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  });
});
