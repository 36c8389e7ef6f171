/** JSON input: a single object, an array, an array at a path, NDJSON; and broken JSON. */
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

const jsonMapping = (patch: Record<string, unknown> = {}) => ({
  kind: 'requests',
  request: {
    externalId: { path: 'id' },
    'customer.inn': { path: 'customer.inn' },
    'customer.name': { path: 'customer.name' },
    'contact.name': { path: 'contact.name' },
    'contact.email': { path: 'contact.email', optional: true },
    'delivery.city': { path: 'delivery.city' },
    'delivery.address': { path: 'delivery.address' },
    'delivery.desiredDate': { path: 'delivery.date', date: 'DD.MM.YYYY' },
  },
  items: { path: 'lines', lineId: { path: 'n' }, name: { path: 'name' }, quantity: { path: 'qty' }, unit: { path: 'unit', default: 'шт' } },
  ...patch,
});

const record = (id: string, patch: Record<string, unknown> = {}) => ({
  id,
  customer: { inn: '7707083893', name: 'ООО Ромашка' },
  contact: { name: 'Иванов', email: 'i@example.ru' },
  delivery: { city: 'Москва', address: 'ул. Ленина, 1', date: '15.03.2027' },
  lines: [
    { n: 1, name: 'Бумага', qty: 5 },
    { n: 2, name: 'Ручки', qty: '1 000', unit: 'уп' },
  ],
  ...patch,
});

const expected = (id: string) => ({
  externalId: id,
  customer: { inn: '7707083893', name: 'ООО Ромашка' },
  contact: { name: 'Иванов', email: 'i@example.ru' },
  delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2027-03-15' },
  items: [
    { lineId: '1', name: 'Бумага', quantity: 5, unit: 'шт' },
    { lineId: '2', name: 'Ручки', quantity: 1000, unit: 'уп' },
  ],
});

describe('mapFile on JSON', () => {
  it('reads a single request object', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'one.json', JSON.stringify(record('J-1')));
      const { submissions, problems } = await split(file, specOf(jsonMapping()));
      expect(problems).toEqual([]);
      expect(submissions).toEqual([{ kind: 'request', externalId: 'J-1', firstRow: 1, payload: expected('J-1') }]);
    });
  });

  it('reads an array, numbering records from 1', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'many.json', JSON.stringify([record('J-1'), record('J-2', { customer: { inn: '1', name: 'x' } })]));
      const { submissions, problems } = await split(file, specOf(jsonMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['J-1']);
      expect(problems.map((p) => [p.row, p.field, p.code])).toEqual([[2, 'customer.inn', 'INN_INVALID']]);
    });
  });

  it('reads the array at a configured path', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'wrapped.json', JSON.stringify({ meta: {}, data: { requests: [record('J-1'), record('J-2')] } }));
      const { submissions } = await split(file, specOf(jsonMapping({ json: { path: 'data.requests' } })));
      expect(submissions.map((s) => s.payload)).toEqual([expected('J-1'), expected('J-2')]);
    });
  });

  it('reads NDJSON by extension, one request per line, blank lines skipped', async () => {
    await withTempDir(async (dir) => {
      const text = `${JSON.stringify(record('J-1'))}\n\n${JSON.stringify(record('J-2'))}\r\n`;
      const file = writeInput(dir, 'stream.ndjson', text);
      const { submissions, problems } = await split(file, specOf(jsonMapping()));
      expect(problems).toEqual([]);
      expect(submissions.map((s) => [s.externalId, s.firstRow])).toEqual([
        ['J-1', 1],
        ['J-2', 2],
      ]);
      expect(submissions[1]!.payload).toEqual(expected('J-2'));
    });
  });

  it('broken JSON is a file-level FILE_UNREADABLE', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'broken.json', '{"id": "J-1", "lines": [');
      const { items } = await split(file, specOf(jsonMapping()));
      expect(items).toEqual([{ kind: 'problem', problem: expect.objectContaining({ row: null, code: 'FILE_UNREADABLE' }) }]);
      expect((items[0] as { problem: { message: string } }).problem.message).toMatch(/^broken\.json: is not valid JSON/);
    });
  });

  it('invalid UTF-8 is FILE_UNREADABLE naming the byte, counted from the start of the file (a BOM included)', async () => {
    await withTempDir(async (dir) => {
      const bytes = (bom: boolean) =>
        Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from('{"id": "'), Buffer.from([0xff]), Buffer.from('"}')]);
      for (const [name, bom, at] of [
        ['plain.json', false, 8],
        ['bom.json', true, 11],
      ] as const) {
        const { problems } = await split(writeInput(dir, name, bytes(bom)), specOf(jsonMapping()));
        expect(problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_UNREADABLE' })]);
        expect(problems[0]!.message).toBe(`${name}: is not valid UTF-8: invalid byte sequence at byte ${at}`);
      }
    });
  });

  it('a broken NDJSON line ends the stream with FILE_UNREADABLE naming the line', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 's.ndjson', `${JSON.stringify(record('J-1'))}\n{"id": "J-2", "lin\n`);
      const { submissions, problems } = await split(file, specOf(jsonMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['J-1']);
      expect(problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_UNREADABLE' })]);
      expect(problems[0]!.message).toMatch(/line 2 is not valid JSON/);
    });
  });

  it('nothing at the configured path is FILE_UNREADABLE; a record without lines is LINES_MISSING', async () => {
    await withTempDir(async (dir) => {
      const nothing = await split(writeInput(dir, 'a.json', '{"data": {}}'), specOf(jsonMapping({ json: { path: 'data.requests' } })));
      expect(nothing.problems.map((p) => [p.row, p.code])).toEqual([[null, 'FILE_UNREADABLE']]);
      const noLines = await split(writeInput(dir, 'b.json', JSON.stringify(record('J-1', { lines: [] }))), specOf(jsonMapping()));
      expect(noLines.problems.map((p) => [p.row, p.field, p.code])).toEqual([[1, 'items', 'LINES_MISSING']]);
      const notArray = await split(writeInput(dir, 'c.json', JSON.stringify(record('J-1', { lines: 'x' }))), specOf(jsonMapping()));
      expect(notArray.problems.map((p) => [p.row, p.field, p.code])).toEqual([[1, 'lines', 'FIELD_INVALID']]);
    });
  });

  it('a record that is not an object is a MAPPING_FAILED problem for that record only', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'mixed.json', JSON.stringify([42, record('J-2')]));
      const { submissions, problems } = await split(file, specOf(jsonMapping()));
      expect(submissions.map((s) => s.externalId)).toEqual(['J-2']);
      expect(problems.map((p) => [p.row, p.code])).toEqual([[1, 'MAPPING_FAILED']]);
    });
  });

  it('a JSON file over the size cap is FILE_UNREADABLE without being parsed', async () => {
    const { MAX_JSON_BYTES } = await import('../../src/mapping/readers/json-reader.js');
    await withTempDir(async (dir) => {
      const fs = await import('node:fs');
      const file = `${dir}/big.json`;
      const handle = fs.openSync(file, 'w');
      fs.ftruncateSync(handle, MAX_JSON_BYTES + 1);
      fs.closeSync(handle);
      const { problems } = await split(file, specOf(jsonMapping()));
      expect(problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_UNREADABLE' })]);
      expect(problems[0]!.message).toMatch(/over 52428800 bytes/);
    });
  });
});
