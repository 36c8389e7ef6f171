/**
 * docs/mapping.md names every key a mapping file may hold: those of the requests and confirmations
 * mappings, of a field's source and transforms, and of the status export format (which is also a
 * mapping's `acknowledgements:` section), all read from their JSON Schemas.
 */
import { describe, expect, it } from 'vitest';
import { jsonSchemaOf, type JsonSchemaName } from '../../src/config/json-schema.js';
import { readPage } from '../helpers/markdown.js';

type Json = Record<string, unknown>;

/**
 * The names a page uses for a schema's keys: a section's key by its path (`csv.encoding`,
 * `columns.*.date`), a field by its name within its section (`customer.inn`, `lineId`), the
 * field spec's own keys by their names (`column`, `trim`), and the export format once, not again
 * under `acknowledgements`.
 */
function documentedNames(name: JsonSchemaName): string[] {
  const schema = jsonSchemaOf(name);
  const definitions = (schema.definitions ?? {}) as Record<string, Json>;
  const names: string[] = [];
  const refOf = (node: Json): string | undefined =>
    (node.$ref as string | undefined) ??
    ((node.allOf as Json[] | undefined)?.map((part) => part.$ref).find((ref) => typeof ref === 'string') as string | undefined);
  const visit = (node: Json, prefix: string) => {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
      const ref = refOf(child);
      if (ref === '#/definitions/fieldSpec') {
        names.push(key);
        continue;
      }
      const at = prefix === '' ? key : `${prefix}.${key}`;
      names.push(at);
      if (ref === '#/definitions/exportFormat') continue;
      visit(child, at);
      if (child.additionalProperties && typeof child.additionalProperties === 'object') visit(child.additionalProperties as Json, `${at}.*`);
    }
  };
  visit(schema, '');
  for (const key of Object.keys((definitions.fieldSpec?.properties ?? {}) as Json)) names.push(key);
  return [...new Set(names)];
}

const doc = readPage('docs/mapping.md');
/** A key is named in code, alone or with its value: `csv.encoding`, `preset: commerceml`. */
const named = (key: string) => doc.includes(`\`${key}\``) || doc.includes(`\`${key}:`);

describe('docs/mapping.md', () => {
  it.each(['mapping-requests', 'mapping-confirmations', 'status-export'] as const)('names every key of the %s schema', (name) => {
    const names = documentedNames(name);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((key) => !named(key))).toEqual([]);
  });

  it('reads the keys the way the page names them', () => {
    const requests = documentedNames('mapping-requests');
    expect(requests).toEqual(
      expect.arrayContaining([
        'preset',
        'csv.encoding',
        'xlsx.headerRow',
        'skipRows.totals',
        'acknowledgements',
        'customer.inn',
        'lineId',
        'items.path',
        'column',
        'optional',
      ]),
    );
    expect(requests).not.toContain('acknowledgements.csv.encoding');
    expect(documentedNames('mapping-confirmations')).toEqual(expect.arrayContaining(['orderId', 'supplierOrderId', 'confirmedQuantity']));
    expect(documentedNames('status-export')).toEqual(expect.arrayContaining(['fileName', 'columns.*.field', 'columns.*.timeZone', 'xlsx.sheet']));
  });
});
