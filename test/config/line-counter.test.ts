/** `items.lineId: { counter: true }`: line numbers generated per request, for exports without one. */
import { describe, expect, it } from 'vitest';
import { parseMappingSpec } from '../../src/config/load-mapping.js';
import { requestCsv, requestMapping, requestRow } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { specOf, split, writeInput } from '../helpers/mapping-fixtures.js';

const counterMapping = (items: Record<string, unknown> = {}) => {
  const base = requestMapping();
  return { ...base, items: { ...(base.items as Record<string, unknown>), lineId: { counter: true }, ...items } };
};

describe('lineId counter', () => {
  it('numbers the lines of each CSV request 1, 2, 3…, restarting with each request', async () => {
    await withTempDir(async (dir) => {
      // The "Строка" column says 7, 7, 9: a counter ignores it and numbers by position.
      const file = writeInput(dir, 'r.csv', requestCsv([requestRow('R-1', '7'), requestRow('R-1', '7'), requestRow('R-1', '9'), requestRow('R-2', '7')]));
      const { submissions, problems } = await split(file, specOf(counterMapping()));
      expect(problems).toEqual([]);
      expect(submissions.map((s) => [s.externalId, s.payload.items.map((item) => item.lineId)])).toEqual([
        ['R-1', ['1', '2', '3']],
        ['R-2', ['1']],
      ]);
    });
  });

  it('numbers the lines of each JSON record by their position in the array', async () => {
    await withTempDir(async (dir) => {
      const record = (id: string, lines: number) => ({
        id,
        customer: { inn: '7707083893', name: 'ООО Ромашка' },
        contact: { name: 'Иванов', email: 'i@example.ru' },
        delivery: { city: 'Москва', address: 'ул. Ленина, 1', date: '2099-03-15' },
        lines: Array.from({ length: lines }, (_, i) => ({ name: `Товар ${i}`, qty: 1, unit: 'шт' })),
      });
      const file = writeInput(dir, 'r.json', JSON.stringify([record('J-1', 2), record('J-2', 3)]));
      const spec = specOf({
        kind: 'requests',
        format: 'json',
        request: {
          externalId: { path: 'id' },
          'customer.inn': { path: 'customer.inn' },
          'customer.name': { path: 'customer.name' },
          'contact.name': { path: 'contact.name' },
          'contact.email': { path: 'contact.email' },
          'delivery.city': { path: 'delivery.city' },
          'delivery.address': { path: 'delivery.address' },
          'delivery.desiredDate': { path: 'delivery.date' },
        },
        items: { path: 'lines', lineId: { counter: true }, name: { path: 'name' }, quantity: { path: 'qty' }, unit: { path: 'unit' } },
      });
      const { submissions, problems } = await split(file, spec);
      expect(problems).toEqual([]);
      expect(submissions.map((s) => s.payload.items.map((item) => item.lineId))).toEqual([
        ['1', '2'],
        ['1', '2', '3'],
      ]);
    });
  });

  it('is refused anywhere but items.lineId, and next to another source', () => {
    const onExternalId = requestMapping({ request: { ...(requestMapping().request as Record<string, unknown>), externalId: { counter: true } } });
    expect(() => parseMappingSpec(onExternalId, 'm.yaml')).toThrow(/request\.externalId\.counter: only items\.lineId can be a counter/);
    expect(() => parseMappingSpec(counterMapping({ lineId: { counter: true, column: 'Строка' } }), 'm.yaml')).toThrow(
      /items\.lineId: needs exactly one of column, path, const, template, parts or counter \(has column, counter\)/,
    );
    expect(() => parseMappingSpec(counterMapping({ lineId: { counter: false } }), 'm.yaml')).toThrow(/items\.lineId\.counter/);
  });
});
