import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MAX_PROBLEM_MESSAGE_CHARS, MAX_PROBLEM_VALUE_CHARS, boundProblem, cutText } from '../../src/mapping/bound-problem.js';
import { MAX_LISTED_PROBLEMS } from '../../src/mapping/collect-problems.js';
import type { MappingProblem } from '../../src/shared/types.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';

const problem = (change: Partial<MappingProblem> = {}): MappingProblem => ({
  row: 3,
  field: 'customer.inn',
  code: 'INN_INVALID',
  message: 'Row 3 of requests.csv: customer.inn "7707083894" fails the INN check digit',
  externalId: 'R-3',
  value: '7707083894',
  ...change,
});

describe('cutText', () => {
  it.each([
    ['short text', 'abc', 5, 'abc'],
    ['exactly the bound', 'abcde', 5, 'abcde'],
    ['past the bound: the head and the length', 'abcdefgh', 5, 'abcde… (8 characters)'],
    ['Cyrillic', 'Ж'.repeat(10), 4, 'ЖЖЖЖ… (10 characters)'],
    ['never half of a surrogate pair', 'ab😀cd', 3, 'ab… (6 characters)'],
  ])('%s', (_what, text, max, expected) => {
    expect(cutText(text, max)).toBe(expected);
  });
});

describe('boundProblem', () => {
  it('returns a problem whose texts are within their bounds as it is', () => {
    const short = problem({ text: { key: 'innInvalid', params: { value: '7707083894', n: 3 } } });
    expect(boundProblem(short)).toBe(short);
  });

  it('cuts each long text to its bound and keeps the rest of the problem', () => {
    const key = `R-${'Ж'.repeat(10_000)}`;
    const long = problem({
      message: `Row 3 of requests.csv: ${'x'.repeat(5_000)}`,
      field: 'f'.repeat(300),
      cell: `${'S'.repeat(300)}!C7`,
      externalId: key,
      value: 'v'.repeat(300),
      text: { key: 'groupDisagrees', params: { row: 2, value: key, column: 'Номер' } },
    });
    const bounded = boundProblem(long);
    expect(bounded).toMatchObject({ row: 3, code: 'INN_INVALID', text: { key: 'groupDisagrees', params: { row: 2, column: 'Номер' } } });
    expect(bounded.message).toBe(cutText(long.message, MAX_PROBLEM_MESSAGE_CHARS));
    expect(bounded.message.startsWith('Row 3 of requests.csv: xxx')).toBe(true);
    for (const text of [bounded.field, bounded.cell, bounded.externalId, bounded.value, bounded.text!.params!.value]) {
      expect(String(text).length).toBeLessThanOrEqual(MAX_PROBLEM_VALUE_CHARS + ' (10002 characters)…'.length);
    }
    expect(bounded.externalId).toBe(`${key.slice(0, MAX_PROBLEM_VALUE_CHARS)}… (10002 characters)`);
    expect(long.externalId).toBe(key);
  });

  it('keeps a file-level problem without a field', () => {
    const fileLevel = problem({ row: null, field: null, message: `requests.csv: ${'y'.repeat(2_000)}` });
    expect(boundProblem(fileLevel)).toMatchObject({ row: null, field: null });
    expect(boundProblem(fileLevel).message.length).toBeLessThan(MAX_PROBLEM_MESSAGE_CHARS + 30);
  });
});

describe('intake: a report of problems whose rows hold huge values', () => {
  it('stays small: every listed problem is cut, whatever its row held', async () => {
    await withIntake(NO_WAIT, async (f) => {
      // Each bad request's key is 20,000 characters, and every problem names its key.
      const rows = Array.from({ length: MAX_LISTED_PROBLEMS + 5 }, (_, i) => requestRow(`B-${i}-${'Ж'.repeat(20_000)}`, '1', { ИНН: '7707083894' }));
      await dropFile(f.inbox, 'wide.csv', requestCsv(rows));
      await f.intake.start();
      const report = await f.rejectedReport('wide.csv');
      expect(report.problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
      expect(report.problems[0]).toMatchObject({ row: 2, code: 'INN_INVALID', externalId: expect.stringMatching(/^B-0-Ж+… \(20004 characters\)$/) });
      for (const p of report.problems) expect(JSON.stringify(p).length).toBeLessThan(2 * MAX_PROBLEM_MESSAGE_CHARS);
      // Unbounded, this report was about 40 MB of JSON (a thousand keys of 20,000 characters, twice each).
      const rejected = (await f.list('rejected')).find((name) => name.endsWith('wide.csv.errors.json'))!;
      expect((await fs.stat(`${f.inbox}/rejected/${rejected}`)).size).toBeLessThan(2 * 1024 * 1024);
    });
  });
});
