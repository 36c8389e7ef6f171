/**
 * Tables as reports write them: blank and totals rows skipped (`skipRows:`), and fill-down of the
 * group and request-level columns (`fillDown:`), on CSV (the same code path reads XLSX).
 */
import { describe, expect, it } from 'vitest';
import { HEADER, requestMapping, requestRow, toCsv } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

/** The request-level columns of the shared header: everything before the line number. */
const REQUEST_COLUMNS = HEADER.slice(0, HEADER.indexOf('Строка'));

/** A line row of a grouped report: the request columns blank. */
function lineRow(line: string): string[] {
  return requestRow('', line, Object.fromEntries(REQUEST_COLUMNS.map((name) => [name, ''])));
}

/** A heading row: the request columns set, the line columns blank. */
function headingRow(id: string): string[] {
  return requestRow(id, '', { Товар: '', 'Кол-во': '', Ед: '' });
}

const blank = () => HEADER.map(() => '');

describe('skipRows', () => {
  it('skips blank rows and totals rows by default, and reports them when switched off', async () => {
    await withTempDir(async (dir) => {
      const totals = blank();
      totals[0] = 'Итого:';
      totals[11] = '20';
      const rows = [HEADER, requestRow('R-1', '1'), blank(), requestRow('R-1', '2'), totals];
      const file = writeInput(dir, 'a.csv', toCsv(rows));

      const skipped = await split(file, specOf(requestMapping()));
      expect(skipped.problems).toEqual([]);
      expect(skipped.submissions.map((s) => s.payload.items.length)).toEqual([2]);

      const kept = await split(file, specOf(requestMapping({ skipRows: { blank: false, totals: [] } })));
      // The blank row splits R-1 (its key is empty), the totals row is a request of its own.
      expect(kept.problems.map((p) => [p.row, p.code])).toContainEqual([3, 'FIELD_REQUIRED']);
      expect(kept.problems.some((p) => p.externalId === 'Итого:')).toBe(true);
    });
  });

  it('takes a totals word only as a word: "Итоговая" is data', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'a.csv', toCsv([HEADER, requestRow('Итоговая-1', '1'), requestRow('ВСЕГО 2 заявки', '1')]));
      const { submissions } = await split(file, specOf(requestMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['Итоговая-1']);
    });
  });
});

describe('fillDown', () => {
  it('reads a grouped report: the number and request columns once, above their lines', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, headingRow('R-1'), lineRow('1'), lineRow('2'), headingRow('R-2'), lineRow('1')]));
      const { submissions, problems } = await split(file, specOf(requestMapping({ fillDown: true })));
      expect(problems).toEqual([]);
      expect(submissions.map((s) => [s.externalId, s.firstRow, s.payload.items.map((i) => i.lineId)])).toEqual([
        ['R-1', 2, ['1', '2']],
        ['R-2', 5, ['1']],
      ]);
      expect(submissions[1]!.payload).toMatchObject({ customer: { inn: '7707083893' } });
    });
  });

  it('also reads the number on the first line itself, and request values from a later row of the same request', async () => {
    await withTempDir(async (dir) => {
      const first = requestRow('R-1', '1', { Город: '' });
      const second = requestRow('', '2', { ИНН: '', Покупатель: '', Город: 'Казань' });
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, first, second]));
      const { submissions, problems } = await split(file, specOf(requestMapping({ fillDown: true })));
      expect(problems).toEqual([]);
      expect(submissions[0]!.payload).toMatchObject({ delivery: { city: 'Казань' } });
      expect(submissions[0]!.payload.items).toHaveLength(2);
    });
  });

  it('never carries a value into the next request', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, requestRow('R-1', '1'), requestRow('R-2', '1', { Город: '' })]));
      const { submissions, problems } = await split(file, specOf(requestMapping({ fillDown: true })));
      expect(submissions.map((s) => s.externalId)).toEqual(['R-1']);
      expect(problems.map((p) => [p.externalId, p.field, p.code])).toEqual([['R-2', 'delivery.city', 'FIELD_REQUIRED']]);
    });
  });

  it('still refuses two different values of one request', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, requestRow('R-1', '1'), requestRow('', '2', { Город: 'Казань' })]));
      const { submissions, problems } = await split(file, specOf(requestMapping({ fillDown: true })));
      expect(submissions).toEqual([]);
      expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([[3, 'delivery.city', 'FIELD_INVALID']]);
    });
  });

  it('fills only the columns listed', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, requestRow('R-1', '1'), requestRow('', '2')]));
      const listed = await split(file, specOf(requestMapping({ fillDown: ['Заявка'] })));
      expect(listed.submissions.map((s) => s.payload.items.length)).toEqual([2]);
      const off = await split(file, specOf(requestMapping()));
      expect(off.problems.map((p) => [p.row, p.code])).toEqual([[3, 'FIELD_REQUIRED']]);
    });
  });

  it('a blank number before any request is still FIELD_REQUIRED', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'r.csv', toCsv([HEADER, lineRow('1'), requestRow('R-1', '1')]));
      const { submissions, problems } = await split(file, specOf(requestMapping({ fillDown: true })));
      expect(submissions.map((s) => s.externalId)).toEqual(['R-1']);
      expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([[2, 'externalId', 'FIELD_REQUIRED']]);
    });
  });

  it('is refused at load for a line column, and for a table-less format', () => {
    expect(() => specOf(requestMapping({ fillDown: ['Товар'] }))).toThrow(/fillDown\.0: "Товар" is not the group column or a request-level column/);
    expect(() => specOf(requestMapping({ fillDown: ['Нет такой'] }))).toThrow(/fillDown\.0/);
    const asPaths = JSON.parse(JSON.stringify(requestMapping({ format: 'json', fillDown: true })).replaceAll('"column":', '"path":')) as Record<
      string,
      unknown
    >;
    delete asPaths.groupBy;
    delete asPaths.csv;
    expect(() => specOf(asPaths)).toThrow(/fillDown: only applies to tables/);
  });
});
