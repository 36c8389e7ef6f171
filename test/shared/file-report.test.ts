/**
 * Golden text of the `.errors.csv` report (written beside a file and served by the console): hostile
 * messages and ids, pinned as the writer produced them before it moved to csv-stringify, so the
 * move changed no character a user's Excel opens.
 */
import { describe, expect, it } from 'vitest';
import { renderCsvReport } from '../../src/shared/file-report.js';
import type { FileReport, MappingProblem } from '../../src/shared/types.js';

const report = (problems: MappingProblem[]): FileReport => ({ file: 'requests.csv', sha256: 'ab'.repeat(32), problems, notes: [] });
const problem = (extra: Partial<MappingProblem> = {}): MappingProblem => ({ row: 3, field: 'customer.name', code: 'FIELD_INVALID', message: 'bad', ...extra });

/** The line of one problem whose message and externalId are both `text`. */
const line = (text: string): string => renderCsvReport(report([problem({ message: text, externalId: text })])).split('\r\n')[1]!;

describe('CSV error report cells (golden)', () => {
  // text → its cell: formula starts get a `'`; `;`, `,`, a quote, CR or LF quote the cell; nothing else does
  it.each([
    ['plain text', 'plain', 'plain'],
    ['the delimiter ;', 'a;b', '"a;b"'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a CR', 'a\rb', '"a\rb"'],
    ['an LF', 'a\nb', '"a\nb"'],
    ['a leading =', '=1+1', "'=1+1"],
    ['a leading +', '+7 495', "'+7 495"],
    ['a leading -', '-5', "'-5"],
    ['a leading @', '@SUM(A1)', "'@SUM(A1)"],
    ['a leading tab (neutralised, not quoted)', '\tx', "'\tx"],
    ['a leading CR', '\r=1', `"'\r=1"`],
    ['a leading LF (not a formula start)', '\n=1', '"\n=1"'],
    ['a leading space (not quoted)', ' x', ' x'],
    ['a trailing space (not quoted)', 'x ', 'x '],
    ['an empty string', '', ''],
    ['Cyrillic', 'Болт М8 «ГОСТ» №5', 'Болт М8 «ГОСТ» №5'],
    ['characters windows-1251 lacks (the report is UTF-8)', '€ ✓ 日本', '€ ✓ 日本'],
    ['an already quoted formula', "'=x", "'=x"],
  ])('%s', (_what, text, cell) => {
    expect(line(text)).toBe(`3;customer.name;FIELD_INVALID;${cell};${cell}`);
  });

  it('quotes a CRLF inside a cell, so the record stays one', () => {
    expect(renderCsvReport(report([problem({ message: 'a\r\nb' })]))).toBe(
      '\uFEFFrow;field;code;message;externalId\r\n3;customer.name;FIELD_INVALID;"a\r\nb";\r\n',
    );
  });
});

describe('CSV error report files (golden)', () => {
  it('writes the BOM and the header alone for a report without problems', () => {
    expect(renderCsvReport(report([]))).toBe('\uFEFFrow;field;code;message;externalId\r\n');
  });

  it('leaves the row, field and externalId of a file-level problem empty', () => {
    const text = renderCsvReport(
      report([problem({ row: null, field: null, code: 'FILE_UNREADABLE', message: 'no header row' }), problem({ row: 12, field: '=col', externalId: 'R-1' })]),
    );
    expect(text).toBe("\uFEFFrow;field;code;message;externalId\r\n;;FILE_UNREADABLE;no header row;\r\n12;'=col;FIELD_INVALID;bad;R-1\r\n");
  });

  it('adds a place column when a problem has a cell or a line, empty for the others', () => {
    const text = renderCsvReport(
      report([problem({ cell: 'Заявки!C7' }), problem({ line: 40, column: 7 }), problem({ line: 41 }), problem({ cell: "=Лист'!A1" }), problem()]),
    );
    expect(text).toBe(
      [
        '\uFEFFrow;field;code;message;externalId;place',
        '3;customer.name;FIELD_INVALID;bad;;Заявки!C7',
        '3;customer.name;FIELD_INVALID;bad;;"line 40, column 7"',
        '3;customer.name;FIELD_INVALID;bad;;line 41',
        "3;customer.name;FIELD_INVALID;bad;;'=Лист'!A1",
        '3;customer.name;FIELD_INVALID;bad;;',
        '',
      ].join('\r\n'),
    );
  });
});
