/**
 * `suggestMapping` over five real-looking exports (samples/suggest/), each checked field by field
 * against the mapping a person wrote for it (`<sample>.mapping.yaml` next to it): the file options,
 * the grouping, the date formats, and the source of every target field. A complete suggestion must
 * then map its sample to exactly the payloads the person's mapping gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec, parseMappingSpec } from '../../../src/config/load-mapping.js';
import type { FieldSpec, MappingSpec } from '../../../src/config/mapping-schema.js';
import { previewFile } from '../../../src/mapping/preview-file.js';
import { suggestMapping } from '../../../src/mapping/suggest/suggest-mapping.js';
import { targetsOf } from '../../../src/mapping/suggest/targets.js';
import type { MappingSuggestion } from '../../../src/mapping/suggest/types.js';
import { NOW, ROOT } from '../../helpers/mapping-fixtures.js';

const DIR = path.join(ROOT, 'samples/suggest');

interface Case {
  sample: string;
  kind: 'requests' | 'confirmations';
  format: 'csv' | 'json';
  encoding: string;
  delimiter?: string;
  decimalComma: boolean;
  groupBy?: string;
  jsonPath?: string;
  itemsPath?: string;
  /** Every date column the sample has, with its format. */
  dates: Record<string, string>;
  /** Target fields left as TODO lines. */
  todo: string[];
  unused: string[];
  complete: boolean;
  submissions: number;
}

const CASES: Case[] = [
  {
    sample: '1c-requests-windows1251.csv',
    kind: 'requests',
    format: 'csv',
    encoding: 'windows-1251',
    delimiter: ';',
    decimalComma: true,
    groupBy: 'Номер',
    dates: { Дата: 'DD.MM.YYYY', Срок: 'DD.MM.YYYY' },
    todo: [],
    unused: ['Дата', 'Сумма', 'Ответственный'],
    complete: true,
    submissions: 4,
  },
  {
    sample: 'excel-requests-utf8-bom.csv',
    kind: 'requests',
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    decimalComma: true,
    groupBy: 'Номер заявки',
    dates: { 'Дата поставки': 'DD/MM/YYYY' },
    todo: ['request.comment'],
    unused: ['Цена'],
    complete: true,
    submissions: 3,
  },
  {
    sample: 'erp-requests.tsv',
    kind: 'requests',
    format: 'csv',
    encoding: 'utf-8',
    delimiter: '\t',
    decimalComma: false,
    groupBy: 'Request ID',
    dates: { 'Need by': 'MM/DD/YYYY' },
    todo: ['request.comment', 'items.unit', 'items.comment'],
    unused: ['Cost center', 'Status'],
    complete: false,
    submissions: 3,
  },
  {
    sample: 'shop-requests.json',
    kind: 'requests',
    format: 'json',
    encoding: 'utf-8',
    decimalComma: false,
    itemsPath: 'positions',
    dates: { dueDate: 'DD.MM.YYYY' },
    todo: [],
    unused: ['createdAt', 'positions[].sku'],
    complete: true,
    submissions: 3,
  },
  {
    sample: 'supplier-confirmations.csv',
    kind: 'confirmations',
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ';',
    decimalComma: true,
    groupBy: 'Заказ площадки',
    dates: { 'Дата отгрузки': 'DD.MM.YYYY' },
    todo: [],
    unused: ['Товар', 'Сумма'],
    complete: true,
    submissions: 2,
  },
];

const personal = (sample: string) => loadMappingSpec(path.join(DIR, sample.replace(/\.[a-z]+$/, '.mapping.yaml')));

/** The spec a person wrote for `key` (`request.customer.inn`, `items.lineId`, `orderId`). */
function specFor(spec: MappingSpec, key: string): FieldSpec | undefined {
  if (key === 'orderId') return spec.kind === 'confirmations' ? spec.orderId : undefined;
  const [section, ...rest] = key.split('.');
  return (section === 'items' ? spec.items : spec.header)[rest.join('.')];
}

function sourceOf(field: FieldSpec | undefined): Record<string, unknown> | undefined {
  if (field === undefined || field.const !== undefined) return undefined;
  if (field.column !== undefined) return { column: field.column };
  if (field.path !== undefined) return { path: field.path };
  if (field.counter) return { counter: true };
  return undefined;
}

function suggest(c: Case): MappingSuggestion {
  return suggestMapping(fs.readFileSync(path.join(DIR, c.sample)), c.sample, { kind: c.kind });
}

describe.each(CASES)('mapping suggest on samples/suggest/$sample', (c) => {
  it('detects the encoding, the delimiter, the header, decimal commas, the grouping and each date column', () => {
    const suggestion = suggest(c);
    expect(suggestion.sample.format).toBe(c.format);
    expect(suggestion.sample.encoding.value).toBe(c.encoding);
    expect(suggestion.sample.delimiter?.value).toBe(c.delimiter);
    if (c.format === 'csv') expect(suggestion.sample.headerLine?.value).toBe(1);
    expect(suggestion.decimalComma.value).toBe(c.decimalComma);
    expect(suggestion.groupBy?.value).toBe(c.groupBy);
    expect(suggestion.sample.jsonPath?.value).toBe(c.jsonPath);
    expect(suggestion.sample.itemsPath?.value).toBe(c.itemsPath);
    expect(Object.fromEntries(Object.entries(suggestion.dates).map(([column, format]) => [column, format.value]))).toEqual(c.dates);
    expect(suggestion.groupCount).toBe(c.submissions);
    expect(suggestion.warnings).toEqual([]);
  });

  it('reads every target field from the column the person chose (or leaves it a TODO where the file has none)', () => {
    const suggestion = suggest(c);
    const person = personal(c.sample);
    // The file options the suggestion writes are the person's.
    const written = suggestion.mapping as { csv?: Record<string, unknown>; json?: Record<string, unknown>; groupBy?: string; items: { path?: string } };
    if (c.format === 'csv') {
      expect(written.csv).toEqual({ encoding: person.csv.encoding, delimiter: person.csv.delimiter, decimalComma: person.csv.decimalComma });
      expect(written.groupBy).toBe(person.groupBy);
    } else {
      expect({ decimalComma: false, ...written.json }).toEqual({
        decimalComma: person.json.decimalComma,
        ...(person.json.path ? { path: person.json.path } : {}),
      });
      expect(written.items.path).toBe(person.itemsPath);
    }
    for (const target of targetsOf(c.kind)) {
      const want = specFor(person, target.key);
      const got = suggestion.fields.find((field) => field.key === target.key)!;
      expect({ key: target.key, source: got.source }).toEqual({ key: target.key, source: sourceOf(want) });
      if (got.source === undefined) continue;
      expect({ key: target.key, date: got.options.date }).toEqual({ key: target.key, date: want?.date });
      expect({ key: target.key, optional: got.options.optional === true }).toEqual({ key: target.key, optional: want?.optional === true });
      expect({ key: target.key, map: got.options.map }).toEqual({ key: target.key, map: want?.map });
    }
    expect(suggestion.fields.filter((field) => field.source === undefined).map((field) => field.key)).toEqual(c.todo);
    expect(suggestion.unusedColumns).toEqual(c.unused);
    expect(suggestion.complete).toBe(c.complete);
  });

  it("maps the sample to the same payloads as the person's mapping, which maps it without a problem", async () => {
    const sample = path.join(DIR, c.sample);
    const reference = await previewFile(sample, personal(c.sample), { now: NOW, rejectPastDates: false });
    expect(reference.problems).toEqual([]);
    expect(reference.requests).toHaveLength(c.submissions);

    let yaml = suggest(c).yaml;
    if (!c.complete) {
      // A partial suggestion does not load until its required TODO lines are filled in.
      expect(() => parseMappingSpec(YAML.parse(yaml), 'suggested.yaml')).toThrow(/items\.unit: is required/);
      expect(yaml).toContain('  # TODO unit: { column: "?" }  # required; no column fits');
      yaml = yaml.replace('# TODO unit: { column: "?" }', 'unit: { const: "шт" }');
    }
    const suggested = await previewFile(sample, parseMappingSpec(YAML.parse(yaml), 'suggested.yaml'), { now: NOW, rejectPastDates: false });
    expect(suggested).toEqual(reference);
  });
});
