/** The mapping page's upload names (and its file picker offers) what the flow reads. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadFormats, uploadFormatsOf } from '../../../../src/admin/console/studio/upload-formats.js';
import { flowSchema } from '../../../../src/config/flow-schema.js';
import { REPO } from '../../../helpers/with-daemon.js';
import { send } from '../../../helpers/console/http.js';
import { withConsoleDaemon } from '../../../helpers/console/with-console-daemon.js';

const mapping = (name: string) => fs.readFileSync(path.join(REPO, 'config/mappings', name), 'utf8');
const flow = (o: { enterpriseData?: boolean } = {}) =>
  flowSchema.parse({
    name: 'f',
    kind: 'requests',
    inbox: '/srv/f/inbox',
    mapping: '/srv/f/mapping.yaml',
    results: '/srv/f/results',
    ...(o.enterpriseData ? { enterpriseData: { node: 'ПК', peer: 'УТ' } } : {}),
  });

describe('uploadFormats', () => {
  it.each([
    [undefined, false, 'CSV, JSON, NDJSON, XLSX, XML', '.csv,.tsv,.txt,.json,.ndjson,.jsonl,.xlsx,.xlsm,.xml'],
    ['csv', false, 'CSV', '.csv,.tsv,.txt'],
    ['ndjson', false, 'NDJSON', '.ndjson,.jsonl'],
    ['xlsx', false, 'XLSX', '.xlsx,.xlsm'],
    ['xml', false, 'XML', '.xml'],
    ['xml', true, 'XML, ZIP', '.xml,.zip'],
    [undefined, true, 'CSV, JSON, NDJSON, XLSX, XML, ZIP', '.csv,.tsv,.txt,.json,.ndjson,.jsonl,.xlsx,.xlsm,.xml,.zip'],
  ] as const)('format %s, zipped %s: %s', (format, zipped, names, accept) => {
    expect(uploadFormats(format, zipped)).toEqual({ names, accept });
  });

  it('reads the format from the mapping in the editor: its own, its preset’s (CommerceML, EnterpriseData are XML), or every one while it does not load', () => {
    expect(uploadFormatsOf(flow(), mapping('1c-requests.yaml')).names).toBe('CSV');
    expect(uploadFormatsOf(flow(), mapping('1c-report-xlsx.yaml')).names).toBe('XLSX');
    expect(uploadFormatsOf(flow(), mapping('commerceml-orders.yaml')).names).toBe('XML');
    expect(uploadFormatsOf(flow({ enterpriseData: true }), mapping('enterprisedata-orders.yaml')).names).toBe('XML, ZIP');
    expect(uploadFormatsOf(flow(), mapping('1c-requests.yaml').replace('format: csv\n', '')).names).toBe('CSV, JSON, NDJSON, XLSX, XML');
    expect(uploadFormatsOf(flow(), 'kind: requests\nrequest: [').names).toBe('CSV, JSON, NDJSON, XLSX, XML');
  });
});

describe('the mapping page’s upload', () => {
  it('names the formats of each flow on its label and in its accept attribute', async () => {
    const exchange = `
  - name: exchange-1c
    kind: requests
    inbox: {dir}/exchange
    mapping: {repo}/config/mappings/enterprisedata-orders.yaml
    results: {dir}/import-1c
    enterpriseData: { node: ПК, peer: УТ }
`;
    await withConsoleDaemon({ extraFlows: exchange }, async ({ url }) => {
      const requests = (await send(`${url}/mapping?flow=requests`)).body;
      expect(requests).toContain('or upload a sample (CSV; up to 4.0 MiB)');
      expect(requests).toContain('accept=".csv,.tsv,.txt"');
      const ed = (await send(`${url}/mapping?flow=exchange-1c`)).body;
      expect(ed).toContain('or upload a sample (XML, ZIP; up to 4.0 MiB)');
      expect(ed).toContain('accept=".xml,.zip"');
    });
  });
});
