/** previewFile: what the `preview` command prints, gathered without touching the store or folders. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { formatPreview, previewFile } from '../../src/mapping/preview-file.js';
import { OPTIONS, ROOT } from '../helpers/mapping-fixtures.js';

describe('previewFile', () => {
  it('gathers the submissions and problems, JSON-serialisable, and leaves the input file in place', async () => {
    const input = path.join(ROOT, 'samples/broken/bad-inn.csv');
    const before = fs.readFileSync(input);
    const result = await previewFile(input, loadMappingSpec(path.join(ROOT, 'config/mappings/1c-requests.yaml')), OPTIONS);
    expect(result.requests.map((r) => r.externalId)).toEqual(['ЗК-000101', 'ЗК-000103']);
    expect(result.problems.map((p) => p.code)).toEqual(['INN_INVALID']);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(fs.readFileSync(input).equals(before)).toBe(true);

    const text = formatPreview(result);
    expect(text).toContain('# request ЗК-000101 (row 2)');
    expect(text).toContain('2 submissions, 1 problem');
    expect(text).toContain('INN_INVALID: Row 5 of bad-inn.csv: customer.inn "0274062112" fails the INN check digit');
  });
});
