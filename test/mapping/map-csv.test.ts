/** CSV reading and grouping: encodings, grouping rules, row-level problems, file-level problems. */
import fs from 'node:fs/promises';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { csvReader } from '../../src/mapping/readers/csv-reader.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { HEADER, requestMapping, requestRow, toCsv } from '../helpers/fixtures.js';
import { NOW, specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

/** The reader's own rows (cells untrimmed) and its error, read whole (up to `wholeUpTo` bytes) or streamed. */
async function rawRows(file: string, wholeUpTo: number): Promise<unknown[]> {
  const handle = await fs.open(file);
  const out: unknown[] = [];
  try {
    for await (const row of csvReader.open(handle, specOf(requestMapping()), { wholeUpTo }).rows) out.push(row);
  } catch (error) {
    out.push((error as Error).message);
  } finally {
    await handle.close();
  }
  return out;
}

const valid = () => [HEADER, requestRow('R-1', '1'), requestRow('R-1', '2'), requestRow('R-2', '1')];

describe('mapFile on CSV', () => {
  it('maps a valid file into one submission per group', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'in.csv', toCsv(valid()));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(problems).toEqual([]);
      expect(submissions.map((s) => [s.externalId, s.firstRow])).toEqual([
        ['R-1', 2],
        ['R-2', 4],
      ]);
    });
  });

  it.each([
    ['read whole', 1 << 20],
    ['streamed', 0],
  ])(
    'numbers rows by the line of the file they start on (%s): the header is line 1, a quoted field over lines and an empty line count',
    async (_how, wholeUpTo) => {
      await withTempDir(async (dir) => {
        const file = writeInput(dir, 'lines.csv', 'h1;h2\r\n"a\r\nb";x\r\n\r\nc;"d\ne"\r\nf;g\r\n');
        expect(await rawRows(file, wholeUpTo)).toEqual([
          { row: 1, cells: ['h1', 'h2'] },
          { row: 2, cells: ['a\r\nb', 'x'] },
          { row: 5, cells: ['c', 'd\ne'] },
          { row: 7, cells: ['f', 'g'] },
        ]);
      });
    },
  );

  describe('encoding auto', () => {
    const auto = () => specOf(requestMapping({ csv: { encoding: 'auto', delimiter: ';' } }));
    it('picks windows-1251 for windows-1251 bytes', async () => {
      await withTempDir(async (dir) => {
        const file = writeInput(dir, 'in.csv', toCsv(valid()), 'windows-1251');
        const { submissions, problems } = await split(file, auto());
        expect(problems).toEqual([]);
        expect(submissions[0]!.payload).toMatchObject({ customer: { name: 'ООО Ромашка' }, delivery: { city: 'Москва' } });
      });
    });
    it('picks UTF-8 for a file with a BOM, and strips the BOM from the first header name', async () => {
      await withTempDir(async (dir) => {
        const file = writeInput(dir, 'in.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(toCsv(valid()))]));
        const { submissions, problems } = await split(file, auto());
        expect(problems).toEqual([]);
        expect(submissions[0]!.externalId).toBe('R-1');
      });
    });
    it('picks UTF-8 for valid UTF-8 without a BOM, even when a character spans a 64 KiB chunk boundary', async () => {
      await withTempDir(async (dir) => {
        const rows = [HEADER];
        for (let i = 0; i < 600; i++) rows.push(requestRow(`R-${i}`, '1', { Товар: `Товар «${'ж'.repeat(i % 7)}»` }));
        const file = writeInput(dir, 'in.csv', toCsv(rows));
        const { submissions, problems } = await split(file, auto());
        expect(problems).toEqual([]);
        expect(submissions).toHaveLength(600);
        expect(submissions[599]!.payload.items[0]).toMatchObject({ name: `Товар «${'ж'.repeat(599 % 7)}»` });
      });
    });
  });

  it('a declared windows-1251 file decodes Cyrillic and the NBSP', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER, requestRow('R-1', '1', { 'Кол-во': '1\u00a0500' })];
      const file = writeInput(dir, 'in.csv', iconv.encode(toCsv(rows), 'win1251'));
      const { submissions } = await split(file, specOf(requestMapping({ csv: { encoding: 'windows-1251', delimiter: ';' } })));
      expect(submissions[0]!.payload.items[0]).toMatchObject({ name: 'Товар 1', quantity: 1500 });
    });
  });

  it('invalid UTF-8 in the middle of a large UTF-8 file is FILE_UNREADABLE', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER];
      for (let i = 0; i < 2000; i++) rows.push(requestRow(`R-${i}`, '1'));
      const good = Buffer.from(toCsv(rows));
      const file = writeInput(dir, 'in.csv', Buffer.concat([good, iconv.encode(toCsv([requestRow('R-x', '1')]), 'win1251')]));
      const { items } = await split(file, specOf(requestMapping()));
      expect(items.at(-1)).toMatchObject({ kind: 'problem', problem: { row: null, code: 'FILE_UNREADABLE' } });
    });
  });

  it('a small file, parsed whole from one read, gives what streaming it gives: the same items and the same first error', async () => {
    const rows = toCsv(valid());
    const cases: [string, string | Buffer][] = [
      ['valid', rows],
      ['a quote left open at the end', `${rows}"R-3;1`],
      ['a quote opened inside a field', `${rows}R-3;x"y;1\r\n`],
      ['a BOM and blank lines', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.replace(/\r\n/, '\r\n\r\n'))])],
      ['invalid UTF-8 after good rows', Buffer.concat([Buffer.from(rows), iconv.encode(toCsv([requestRow('R-x', '1')]), 'win1251')])],
      ['a character cut at the end', Buffer.concat([Buffer.from(rows), Buffer.from('ж').subarray(0, 1)])],
      ['LF line ends, a CR inside a field', rows.replace(/\r\n/g, '\n').replace('Товар 1', 'Товар\r1')],
      ['CR line ends', rows.replace(/\r\n/g, '\r')],
      ['a quoted header name holding another line end', `"Номер\n"${rows.slice(rows.indexOf(';'))}`],
      ['blank lines first', `\n\r\n${rows}`],
    ];
    await withTempDir(async (dir) => {
      for (const [name, content] of cases) {
        const file = writeInput(dir, 'in.csv', content);
        const whole = await split(file, specOf(requestMapping()));
        const streamed = await split(file, specOf(requestMapping()), { now: NOW, rejectPastDates: true, wholeUpTo: 0 });
        expect(whole.items, name).toEqual(streamed.items);
        expect(await rawRows(file, 64 * 1024), name).toEqual(await rawRows(file, 0));
        const broken = ['a quote left open at the end', 'a quote opened inside a field', 'invalid UTF-8 after good rows', 'a character cut at the end'];
        expect(
          whole.problems.some((p) => p.code === 'FILE_UNREADABLE'),
          name,
        ).toBe(broken.includes(name));
        if (name === 'CR line ends') expect(whole.problems, name).toEqual([]);
      }
    });
  });

  it('a request with any problem yields only problems: every problem, never a partial payload', async () => {
    await withTempDir(async (dir) => {
      const rows = [
        HEADER,
        requestRow('R-1', '1', { Email: 'not-an-email' }),
        requestRow('R-1', '2', { Email: 'not-an-email', 'Кол-во': '0' }),
        requestRow('R-1', '2', { Email: 'not-an-email', 'Кол-во': '2,5' }),
        requestRow('R-2', '1'),
      ];
      const file = writeInput(dir, 'requests-0612.csv', toCsv(rows));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['R-2']);
      expect(problems.map((p) => [p.row, p.field, p.code, p.externalId])).toEqual([
        [4, 'items[2].quantity', 'FIELD_INVALID', 'R-1'],
        [4, 'items[2].lineId', 'LINE_DUPLICATE', 'R-1'],
        [2, 'contact.email', 'FIELD_INVALID', 'R-1'],
        [3, 'items[1].quantity', 'FIELD_INVALID', 'R-1'],
      ]);
      expect(problems[0]!.message).toBe('Row 4 of requests-0612.csv: items[2].quantity "2,5" is not a whole number');
      expect(problems[3]!.message).toBe('Row 3 of requests-0612.csv: items[1].quantity "0" must be greater than zero');
    });
  });

  it('required empty fields are FIELD_REQUIRED; a past desiredDate is DATE_IN_PAST unless switched off', async () => {
    await withTempDir(async (dir) => {
      const rows = [
        HEADER,
        requestRow('R-1', '1', { Город: '' }),
        requestRow('R-2', '1', { Дата: '11.06.2026' }),
        requestRow('R-3', '1', { Дата: '12.06.2026' }),
      ];
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const strict = await split(file, specOf(requestMapping()));
      expect(strict.problems.map((p) => [p.row, p.field, p.code])).toEqual([
        [2, 'delivery.city', 'FIELD_REQUIRED'],
        [3, 'delivery.desiredDate', 'DATE_IN_PAST'],
      ]);
      expect(strict.submissions.map((s) => s.externalId)).toEqual(['R-3']); // today is fine
      const lenient = await split(file, specOf(requestMapping()), { rejectPastDates: false, now: NOW });
      expect(lenient.submissions.map((s) => s.externalId)).toEqual(['R-2', 'R-3']);
    });
  });

  it('rejects 31.02.2027 as a date', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'in.csv', toCsv([HEADER, requestRow('R-1', '1', { Дата: '31.02.2027' })]));
      const { problems } = await split(file, specOf(requestMapping()));
      expect(problems.map((p) => [p.field, p.code, p.message])).toEqual([
        ['delivery.desiredDate', 'FIELD_INVALID', 'Row 2 of in.csv: delivery.desiredDate "31.02.2027" is not a real date in the form DD.MM.YYYY'],
      ]);
    });
  });

  it('a key that comes back after its request was emitted is a MAPPING_FAILED problem for those rows', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER, requestRow('R-1', '1'), requestRow('R-2', '1'), requestRow('R-1', '2'), requestRow('R-1', '3'), requestRow('R-3', '1')];
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['R-1', 'R-2', 'R-3']);
      expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([
        [4, 'externalId', 'MAPPING_FAILED'],
        [5, 'externalId', 'MAPPING_FAILED'],
      ]);
      expect(problems[0]!.message).toMatch(/must be adjacent/);
    });
  });

  it('a later row that disagrees on a request-level column makes the request a problem', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER, requestRow('R-1', '1'), requestRow('R-1', '2', { Город: 'Казань' }), requestRow('R-2', '1')];
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['R-2']);
      expect(problems).toEqual([expect.objectContaining({ row: 3, field: 'delivery.city', code: 'FIELD_INVALID', value: 'Казань', externalId: 'R-1' })]);
    });
  });

  it('an empty group key is FIELD_REQUIRED for that row', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'in.csv', toCsv([HEADER, requestRow('R-1', '1'), requestRow('', '2')]));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(submissions).toHaveLength(1);
      expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([[3, 'externalId', 'FIELD_REQUIRED']]);
    });
  });

  it('INN problems name the row, the field and the value', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(
        dir,
        'requests-0612.csv',
        toCsv([HEADER, requestRow('R-1', '1', { ИНН: '7707083894' }), requestRow('R-2', '1', { ИНН: '77070838' })]),
      );
      const { problems } = await split(file, specOf(requestMapping()));
      expect(problems.map((p) => p.message)).toEqual([
        'Row 2 of requests-0612.csv: customer.inn "7707083894" fails the INN check digit',
        'Row 3 of requests-0612.csv: customer.inn "77070838" must be 10 or 12 digits (has 8)',
      ]);
      expect(problems.every((p) => p.code === 'INN_INVALID')).toBe(true);
    });
  });

  it('a header-only file yields nothing; a file without a header is FILE_UNREADABLE', async () => {
    await withTempDir(async (dir) => {
      expect((await split(writeInput(dir, 'h.csv', toCsv([HEADER])), specOf(requestMapping()))).items).toEqual([]);
      const { problems } = await split(writeInput(dir, 'e.csv', '\r\n'), specOf(requestMapping()));
      expect(problems.map((p) => [p.row, p.code])).toEqual([[null, 'FILE_UNREADABLE']]);
    });
  });

  it('a missing file is FILE_UNREADABLE, not a throw', async () => {
    await withTempDir(async (dir) => {
      const { problems } = await split(`${dir}/nope.csv`, specOf(requestMapping()));
      expect(problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_UNREADABLE', message: 'nope.csv: cannot be read: ENOENT' })]);
    });
  });

  it('stops when aborted', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER];
      for (let i = 0; i < 5000; i++) rows.push(requestRow(`R-${i}`, '1'));
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const controller = new AbortController();
      const { mapFile } = await import('../../src/mapping/map-file.js');
      let seen = 0;
      const run = async () => {
        for await (const _item of mapFile(file, specOf(requestMapping()), { now: NOW, rejectPastDates: true, signal: controller.signal })) {
          seen += 1;
          if (seen === 10) controller.abort(new Error('stop'));
        }
      };
      await expect(run()).rejects.toThrow('stop');
      expect(seen).toBeLessThan(5000);
    });
  });

  it('reports a key that keeps coming back row by row, as it reads: a file of one returning key never builds its whole list', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER, requestRow('R-1', '1'), requestRow('R-2', '1')];
      for (let i = 0; i < 20_000; i++) rows.push(requestRow('R-1', String(i + 2)));
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const controller = new AbortController();
      const { mapFile } = await import('../../src/mapping/map-file.js');
      let seen = 0;
      const run = async () => {
        for await (const item of mapFile(file, specOf(requestMapping()), { now: NOW, rejectPastDates: true, signal: controller.signal })) {
          seen += 1;
          if (seen === 3) {
            expect(item).toMatchObject({ kind: 'problem', problem: { row: 4, code: 'MAPPING_FAILED' } });
            controller.abort(new Error('stop'));
          }
        }
      };
      // Gathered until the end of the file, the problems would all come out after the last row was read, past every abort check.
      await expect(run()).rejects.toThrow('stop');
      expect(seen).toBeLessThan(2_000);
    });
  });

  it('keeps at most one line more than a request may have of one group: the rest is read, not converted', async () => {
    await withTempDir(async (dir) => {
      const rows = [HEADER];
      for (let i = 1; i <= 3_000; i++) rows.push(requestRow('R-1', String(i), i > 1_500 ? { 'Кол-во': 'много' } : {}));
      const file = writeInput(dir, 'in.csv', toCsv(rows));
      const { submissions, problems } = await split(file, specOf(requestMapping()));
      expect(submissions).toEqual([]);
      expect(problems.some((p) => p.field === 'items' && /1000/.test(p.message))).toBe(true);
      // Rows past the kept ones are never converted, so their bad quantities are not reported one by one.
      expect(problems.filter((p) => p.field?.startsWith('items[')).map((p) => p.row)).toEqual([]);
    });
  });

  it('fileLabel names the file in messages', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'x.csv', toCsv([HEADER, requestRow('R-1', '1', { Город: '' })]));
      const { problems } = await split(file, specOf(requestMapping()), { fileLabel: 'inbox/x.csv' });
      expect(problems[0]!.message).toBe('Row 2 of inbox/x.csv: delivery.city is empty');
    });
  });
});
