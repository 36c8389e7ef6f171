/** Mapping files: the shipped ones load, and every mistake names the mapping file and the key. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { ConnectorError } from '../../src/errors.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ROOT } from '../helpers/mapping-fixtures.js';

const shipped = ['1c-requests.yaml', 'requests-utf8-bom.yaml', 'requests-json.yaml', 'supplier-confirmations.yaml'];

function loadError(dir: string, yaml: string, name = 'x.yaml'): ConnectorError {
  const file = path.join(dir, name);
  fs.writeFileSync(file, yaml);
  try {
    loadMappingSpec(file);
  } catch (error) {
    if (error instanceof ConnectorError) return error;
    throw error;
  }
  throw new Error('expected the mapping to be refused');
}

const base = `
format: csv
request:
  externalId: { column: "N" }
  customer.inn: { column: "INN" }
  customer.name: { column: "Name" }
  contact.name: { column: "Contact" }
  delivery.city: { column: "City" }
  delivery.address: { column: "Address" }
  delivery.desiredDate: { column: "Date", date: "DD.MM.YYYY" }
items:
  lineId: { column: "Line" }
  name: { column: "Item" }
  quantity: { column: "Qty", integer: true }
  unit: { column: "Unit" }
`;

describe('loadMappingSpec', () => {
  it.each(shipped)('loads config/mappings/%s', (name) => {
    const spec = loadMappingSpec(path.join(ROOT, 'config/mappings', name));
    expect(spec.kind).toBe(name.startsWith('supplier') ? 'confirmations' : 'requests');
    expect(spec.acknowledgements.fileName).toMatch(/^ack-\{externalId\}-\{id\}\.(csv|json)$/);
  });

  it('applies defaults: trim on, auto encoding, acknowledgements in the input encoding and delimiter', () => {
    const spec = loadMappingSpec(path.join(ROOT, 'config/mappings/1c-requests.yaml'));
    expect(spec.header['customer.inn']).toMatchObject({ column: 'ИНН', trim: true, optional: false });
    expect(spec.acknowledgements).toMatchObject({ format: 'csv', csv: { encoding: 'windows-1251', delimiter: ';' }, fileName: 'ack-{externalId}-{id}.csv' });
    const json = loadMappingSpec(path.join(ROOT, 'config/mappings/requests-json.yaml'));
    expect(json.acknowledgements).toMatchObject({ format: 'json', fileName: 'ack-{externalId}-{id}.json' });
  });

  it('tells the kind from the shape, or from kind:', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'm.yaml');
      fs.writeFileSync(file, base);
      expect(loadMappingSpec(file).kind).toBe('requests');
      fs.writeFileSync(file, `kind: requests\n${base}`);
      expect(loadMappingSpec(file).kind).toBe('requests');
      const error = loadError(dir, 'format: csv\nitems: {}\n');
      expect(error.message).toMatch(/kind: cannot tell the kind/);
    });
  });

  it('names the file and the key of an unknown transform', async () => {
    await withTempDir((dir) => {
      const error = loadError(dir, base.replace('integer: true', 'integr: true'), 'x.yaml');
      expect(error.code).toBe('MAPPING_INVALID');
      expect(error.message).toContain(`${path.join(dir, 'x.yaml')} is invalid:`);
      expect(error.message).toMatch(/\n {2}items\.quantity\.integr \(line \d+, column \d+\): unknown key; did you mean integer\?/);
    });
  });

  it('lists every mistake at once', async () => {
    await withTempDir((dir) => {
      const yaml = base
        .replace('customer.name: { column: "Name" }', 'customer.nmae: { column: "Name" }')
        .replace('date: "DD.MM.YYYY"', 'date: "DD.MM"')
        .replace('unit: { column: "Unit" }', 'unit: { column: "Unit", const: "шт" }');
      const error = loadError(dir, yaml);
      const problems = (error.details.problems as { path: string; message: string }[]).map((p) => `${p.path}: ${p.message}`);
      expect(problems).toEqual(
        expect.arrayContaining([
          'request.customer.nmae: unknown key; did you mean customer.name?',
          expect.stringMatching(/^items\.unit: needs exactly one of column, path, const, template, parts or counter/),
        ]),
      );
      // The typo is the one mistake about that key: no "is required" for the key it hid.
      expect(problems).not.toContain('request.customer.name: is required');
    });
  });

  it('checks date formats and sources against the format', async () => {
    await withTempDir((dir) => {
      const error = loadError(dir, base.replace('date: "DD.MM.YYYY"', 'date: "DD.MM"').replace('name: { column: "Item" }', 'name: { path: "item" }'));
      expect(error.message).toContain('request.delivery.desiredDate.date: "DD.MM" needs the tokens DD, MM and YYYY (or YY)');
      expect(error.message).toContain('items.name.path: a CSV mapping reads columns: use column');
    });
  });

  it('validates acknowledgements with the export format schema', async () => {
    await withTempDir((dir) => {
      const error = loadError(dir, `${base}acknowledgements: { format: xml, fileName: "a.csv" }\n`);
      expect(error.message).toMatch(/acknowledgements\.format: /);
    });
  });

  it("checks an XML mapping's element paths when it loads, each refusal naming its key", async () => {
    await withTempDir((dir) => {
      const xml = `
format: xml
record: "КоммерческаяИнформация/Документ"
lines: "Товары/Товар"
request:
  externalId: { path: "Номер" }
  customer.inn: { path: "Контрагенты/Контрагент[Роль='Покупатель']/ИНН" }
  customer.name: { path: "Контрагенты/Контрагент/Наименование" }
  contact.name: { const: "Отдел закупок" }
  delivery.city: { const: "Москва" }
  delivery.address: { path: "Адрес" }
  delivery.desiredDate: { path: "Дата", date: "YYYY-MM-DD" }
items:
  lineId: { counter: true }
  name: { path: "Наименование" }
  quantity: { path: "Количество", number: true }
  unit: { path: "БазоваяЕдиница" }
`;
      const good = path.join(dir, 'good.yaml');
      fs.writeFileSync(good, xml);
      expect(loadMappingSpec(good).kind).toBe('requests');
      const error = loadError(
        dir,
        xml
          .replace('record: "КоммерческаяИнформация/Документ"', 'record: "КоммерческаяИнформация/Документ/@Ид"')
          .replace("Контрагент[Роль='Покупатель']/ИНН", "Контрагент[Роль='Покупатель'/ИНН"),
      );
      expect(error.code).toBe('MAPPING_INVALID');
      const problems = (error.details.problems as { path: string; message: string }[]).map((p) => p.path);
      expect(problems).toEqual(expect.arrayContaining(['record', 'request.customer.inn.path']));
    });
  });

  it('a missing file is CONFIG_NOT_FOUND; broken YAML is MAPPING_INVALID', async () => {
    await withTempDir((dir) => {
      expect(() => loadMappingSpec(path.join(dir, 'none.yaml'))).toThrow(expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }));
      expect(loadError(dir, 'format: [csv\n').code).toBe('MAPPING_INVALID');
    });
  });
});
