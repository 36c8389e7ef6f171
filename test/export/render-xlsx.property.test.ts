/**
 * The export's workbook writer against the intake's workbook reader, fuzzed: sheets of random text
 * (markup characters, CR, LF, tabs, edge spaces, Cyrillic, astral characters, `_x000D_`-like text,
 * characters XML cannot carry), numbers of every size and date columns, written by `renderXlsx`
 * and read back by `openWorkbook` from a real file, give back every cell. What the writer changes
 * on purpose is expected: U+FFFD for a character XML cannot carry; a number has no negative zero;
 * a date reads as the day (and the time its pattern shows), or, before 1 March 1900, stays the
 * text of the CSV file. The reader leaves out empty cells at a row's end and rows with no value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportFormatSchema } from '../../src/config/export-format-schema.js';
import { formatDate } from '../../src/export/format-value.js';
import { renderXlsx } from '../../src/export/render-xlsx.js';
import type { Cell } from '../../src/mapping/readers/types.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { readRows } from '../helpers/xlsx/workbook-builder.js';

/**
 * Fewer runs than the pure parsers' 1,000: each run zips a workbook and reads it back through a
 * real file, which makes this the slowest property of the set by far, and the set as a whole must
 * stay within its time budget on a 2-core machine.
 */
const NUM_RUNS = 300;

/** Pieces of text cells, `_xHHHH_` look-alikes among them (two may share an underscore: `_x0041_x0042_`). */
const PIECES = [
  ...['a', 'Z', '7', ' ', '\t', '\n', '\r', '\r\n', '<', '>', '&', '"', "'", ']]>', '&amp;', '=1+1'],
  ...['Я', 'ё', '«»', '😀', '日本', '\u0085'],
  ...['_x000D_', '_x005F_', '_', 'x0041_', 'x41_', '_x0041_x0042_'],
  ...['\u0001', '\u0000', '\uFFFE', '\uD800', '\uDC00'],
];
const text = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 });

/** What XML 1.0 cannot carry, written here on its own: the writer puts U+FFFD in its place. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const asCell = (t: string) => t.replace(NOT_XML, '\uFFFD');

const MIN_DATE = Date.parse('1800-01-01T00:00:00Z');
const MAX_DATE = Date.parse('9999-12-31T23:59:59Z');
const FIRST_SERIAL_DAY = Date.parse('1900-03-01T00:00:00Z');

type Kind = 'text' | 'number' | 'date' | 'dateTime';
const COLUMN = {
  text: { pattern: undefined },
  number: { pattern: undefined },
  date: { pattern: 'DD.MM.YYYY' },
  dateTime: { pattern: 'YYYY-MM-DD HH:mm:ss' },
} as const;

const value = (kind: Kind): fc.Arbitrary<unknown> => {
  switch (kind) {
    case 'text':
      return text;
    case 'number':
      return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 5e-324, 0.1 + 0.2));
    default:
      return fc.oneof(
        fc.integer({ min: MIN_DATE / 1000, max: MAX_DATE / 1000 }).map((s) => new Date(s * 1000).toISOString()),
        fc.constantFrom('1900-02-28T23:59:59.000Z', '1900-03-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z'),
        fc.constant(''),
      );
  }
};

/** What the reader gives for a value of a column. */
function expected(kind: Kind, v: unknown): Cell {
  if (kind === 'text') return asCell(v as string);
  if (kind === 'number') {
    const n = v as number;
    return Number.isFinite(n) ? (Object.is(n, -0) ? 0 : n) : String(n);
  }
  const iso = v as string;
  if (iso === '') return '';
  const pattern = COLUMN[kind].pattern;
  const ms = Date.parse(iso);
  if (ms < FIRST_SERIAL_DAY) return formatDate(iso, pattern, 'UTC');
  const day = iso.slice(0, 10);
  const time = kind === 'dateTime' ? iso.slice(11, 19) : '00:00:00';
  return time === '00:00:00' ? day : `${day} ${time}`;
}

const sheet = fc
  .record({
    kinds: fc.array(fc.constantFrom<Kind>('text', 'number', 'date', 'dateTime'), { minLength: 1, maxLength: 4 }),
    names: fc.uniqueArray(
      text.filter((t) => t !== ''),
      { minLength: 4, maxLength: 4 },
    ),
  })
  .chain(({ kinds, names }) =>
    fc.record({
      kinds: fc.constant(kinds),
      names: fc.constant(names.slice(0, kinds.length)),
      rows: fc.array(fc.tuple(...kinds.map(value)), { maxLength: 5 }),
    }),
  );

describe('xlsx export, read back by the workbook reader', () => {
  it('gives back the header and every cell', async () => {
    await withTempDir(async (dir) => {
      await fc.assert(
        fc.asyncProperty(sheet, async ({ kinds, names, rows }) => {
          const columns = Object.fromEntries(names.map((name, i) => [name, { field: `f${i}`, timeZone: 'UTC', date: COLUMN[kinds[i]!].pattern }]));
          const format = exportFormatSchema.parse({ format: 'xlsx', fileName: 'x.xlsx', columns });
          const records = rows.map((cells) => Object.fromEntries(cells.map((cell, i) => [`f${i}`, cell])));
          const bytes = await renderXlsx(records, format);

          // The columns go in the object's key order, which puts integer-like names first.
          const order = Object.values(columns).map((column) => Number(column.field.slice(1)));
          const trimEnd = (cells: Cell[]) => {
            while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
            return cells;
          };
          const want = [
            { row: 1, cells: Object.keys(columns).map(asCell) },
            ...rows.map((cells, r) => ({ row: r + 2, cells: trimEnd(order.map((i) => expected(kinds[i]!, cells[i]))) })).filter((row) => row.cells.length > 0),
          ];
          const { rows: read } = await readRows(dir, bytes);
          expect(read.map((row) => ({ row: row.row, cells: [...row.cells] }))).toEqual(want);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  });

  it('two `_xHHHH_` look-alikes sharing an underscore read back as written (found by the property above)', async () => {
    await withTempDir(async (dir) => {
      const format = exportFormatSchema.parse({ format: 'xlsx', fileName: 'x.xlsx', columns: { name: { field: 'f' } } });
      const bytes = await renderXlsx([{ f: '_x0041_x0042_' }, { f: 'a_x0041__x0042_' }], format);
      const { rows } = await readRows(dir, bytes);
      expect(rows.map((row) => [...row.cells])).toEqual([['name'], ['_x0041_x0042_'], ['a_x0041__x0042_']]);
    });
  });
});
