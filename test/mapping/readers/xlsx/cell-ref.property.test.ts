/**
 * Cell references, fuzzed: column letters and numbers round-trip over the whole width of a sheet
 * (A to XFD), every reference inside the grid parses to its row and column (absolute, lower case,
 * as a range), a reference past the grid is refused by `rangeFits` however long its digits, and no
 * text makes the parser throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnLetters } from '../../../../src/export/xlsx-cell.js';
import {
  MAX_COLUMNS,
  MAX_ROWS,
  columnName,
  formatCellRef,
  parseCellAddress,
  parseCellRange,
  quoteSheetName,
  rangeFits,
} from '../../../../src/mapping/readers/xlsx/cell-ref.js';

const NUM_RUNS = 1000;

/** Bijective base 26, written here on its own: 1 → A, 26 → Z, 27 → AA (a 1-based column number). */
function lettersOf(n: number): string {
  let out = '';
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26)) out = String.fromCharCode(65 + ((rest - 1) % 26)) + out;
  return out;
}

const column = fc.integer({ min: 0, max: MAX_COLUMNS - 1 });
const row = fc.integer({ min: 1, max: MAX_ROWS });
/** Both ends of the ranges matter most: the first and last columns and rows are drawn often. */
const edgyColumn = fc.oneof(column, fc.constantFrom(0, 25, 26, 701, 702, MAX_COLUMNS - 1));
const edgyRow = fc.oneof(row, fc.constantFrom(1, 9, 10, MAX_ROWS - 1, MAX_ROWS));

/** A reference as a sheet may write it: `$` on either part, letters in either case. */
const spelling = fc.record({ dollarColumn: fc.boolean(), dollarRow: fc.boolean(), lower: fc.boolean() });
function refOf(c: number, r: number, s: { dollarColumn: boolean; dollarRow: boolean; lower: boolean }): string {
  const letters = s.lower ? columnName(c).toLowerCase() : columnName(c);
  return `${s.dollarColumn ? '$' : ''}${letters}${s.dollarRow ? '$' : ''}${r}`;
}

describe('column letters', () => {
  it('the examples of the edges: A, Z, AA, ZZ, AAA, XFD', () => {
    expect([0, 25, 26, 701, 702, MAX_COLUMNS - 1].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA', 'XFD']);
  });

  it('columnName agrees with bijective base 26, and with the export writer’s columnLetters', () => {
    fc.assert(
      fc.property(edgyColumn, (c) => {
        expect(columnName(c)).toBe(lettersOf(c + 1));
        expect(columnLetters(c)).toBe(columnName(c));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('letters to column and back: A to XFD, one to three capitals', () => {
    fc.assert(
      fc.property(edgyColumn, (c) => {
        const letters = columnName(c);
        expect(letters).toMatch(/^[A-Z]{1,3}$/);
        expect(parseCellAddress(letters)).toEqual({ row: undefined, column: c });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('every one- to three-letter name is a column, inside the grid up to XFD only', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 1, maxLength: 3 }), (letters) => {
        const parsed = parseCellAddress(`${letters}1`);
        expect(parsed).not.toBeNull();
        expect(columnName(parsed!.column!)).toBe(letters);
        const inside = letters.length < 3 || letters <= 'XFD';
        expect(rangeFits(parseCellRange(`${letters}1`)!)).toBe(inside);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('references inside the grid', () => {
  it('XFD1048576, the last cell, parses and fits', () => {
    expect(parseCellAddress('XFD1048576')).toEqual({ row: MAX_ROWS, column: MAX_COLUMNS - 1 });
    expect(rangeFits(parseCellRange('A1:XFD1048576')!)).toBe(true);
  });

  it('a reference parses to its row and column, whatever its spelling', () => {
    fc.assert(
      fc.property(edgyColumn, edgyRow, spelling, (c, r, s) => {
        expect(parseCellAddress(refOf(c, r, s))).toEqual({ row: r, column: c });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a range parses to its corners in order, whichever corner comes first, and fits', () => {
    fc.assert(
      fc.property(edgyColumn, edgyRow, edgyColumn, edgyRow, spelling, spelling, (c1, r1, c2, r2, s1, s2) => {
        const range = parseCellRange(`${refOf(c1, r1, s1)}:${refOf(c2, r2, s2)}`);
        expect(range).toEqual({ top: Math.min(r1, r2), bottom: Math.max(r1, r2), left: Math.min(c1, c2), right: Math.max(c1, c2) });
        expect(rangeFits(range!)).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('formatCellRef ends in the reference, which parses back; the sheet name unquotes to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), edgyColumn, edgyRow, (sheet, c, r) => {
        const ref = formatCellRef(sheet, r, c);
        const bang = ref.lastIndexOf('!');
        expect(parseCellAddress(ref.slice(bang + 1))).toEqual({ row: r, column: c });
        const quoted = quoteSheetName(sheet);
        expect(ref.slice(0, bang)).toBe(quoted);
        const unquoted = quoted.startsWith("'") ? quoted.slice(1, -1).replaceAll("''", "'") : quoted;
        expect(unquoted).toBe(sheet);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('references past the grid', () => {
  /** Digits past the last row, up to far more than a double holds exactly. */
  const hugeRow = fc.oneof(
    fc.integer({ min: MAX_ROWS + 1, max: Number.MAX_SAFE_INTEGER }).map(String),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 16, maxLength: 60 }).map((d) => `9${d}`),
  );
  const hugeColumn = fc.oneof(
    fc.integer({ min: MAX_COLUMNS, max: 10 * MAX_COLUMNS }).map(columnName),
    fc.string({ unit: fc.constantFrom(...'ABCXYZ'), minLength: 4, maxLength: 40 }),
  );

  it('a row past 1,048,576 does not fit, and its number stays a bounded integer', () => {
    fc.assert(
      fc.property(edgyColumn, hugeRow, (c, digits) => {
        const parsed = parseCellAddress(`${columnName(c)}${digits}`);
        expect(parsed?.column).toBe(c);
        expect(Number.isSafeInteger(parsed!.row)).toBe(true);
        expect(parsed!.row!).toBeGreaterThan(MAX_ROWS);
        expect(rangeFits(parseCellRange(`A1:${columnName(c)}${digits}`)!)).toBe(false);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a column past XFD does not fit, and its number stays a bounded integer', () => {
    fc.assert(
      fc.property(hugeColumn, edgyRow, (letters, r) => {
        const parsed = parseCellAddress(`${letters}${r}`);
        expect(parsed?.row).toBe(r);
        expect(Number.isSafeInteger(parsed!.column)).toBe(true);
        expect(parsed!.column!).toBeGreaterThanOrEqual(MAX_COLUMNS);
        expect(rangeFits(parseCellRange(`${letters}${r}:A1`)!)).toBe(false);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('row 0 does not fit', () => {
    fc.assert(
      fc.property(edgyColumn, (c) => {
        expect(rangeFits(parseCellRange(`${columnName(c)}0`)!)).toBe(false);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('any text', () => {
  const refish = fc.string({ unit: fc.constantFrom('A', 'z', 'X', 'F', 'D', '1', '0', '9', '$', ':', '!', ' ', "'", '-', 'Ж'), maxLength: 20 });

  it('never throws: null, or integers where the parts were present', () => {
    fc.assert(
      fc.property(fc.oneof(refish, fc.string({ unit: 'binary' })), (text) => {
        const address = parseCellAddress(text);
        if (address !== null) {
          expect(address.row === undefined || Number.isSafeInteger(address.row)).toBe(true);
          expect(address.column === undefined || Number.isSafeInteger(address.column)).toBe(true);
          expect(address.row !== undefined || address.column !== undefined).toBe(true);
        }
        const range = parseCellRange(text);
        if (range !== null) {
          expect(range.top).toBeLessThanOrEqual(range.bottom);
          expect(range.left).toBeLessThanOrEqual(range.right);
          expect(typeof rangeFits(range)).toBe('boolean');
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
