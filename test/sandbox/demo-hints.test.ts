/**
 * The banner a daemon with a sandbox prints speaks of the config it was started with
 * (`src/sandbox/demo-hints.ts`): the samples its flows' own mappings read, only where they exist;
 * 1C's sample messages only under the codes they were written for; the config file it read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoHints } from '../../src/sandbox/demo-hints.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { writeConfig } from '../helpers/with-daemon.js';

const URLS = { sandbox: 'http://127.0.0.1:1', webhook: 'http://127.0.0.1:2/w', admin: 'http://127.0.0.1:3' };

function config(dir: string, flows: string) {
  return writeConfig(
    dir,
    `stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: hints-token-123, sourceSystem: erp-test }
flows:
${flows}
`,
  );
}

const cpLines = (banner: string) => banner.split('\n').filter((line) => line.trim().startsWith('cp '));

describe('the demo banner', () => {
  it('with an exchange flow alone: no CSV copied into the exchange folder; 1C’s samples only under their codes', async () => {
    await withTempDir((dir) => {
      const exchange = (node: string, peer: string) =>
        config(
          dir,
          `  - { name: sync, kind: requests, inbox: {dir}/sync, mapping: {repo}/config/mappings/enterprisedata-orders.yaml, results: {dir}/r, enterpriseData: { node: ${node}, peer: ${peer} } }`,
        );
      const own = demoHints(exchange('ПК', 'УТ'), URLS, { configFile: '/etc/procurement-connector/connector.yaml' });
      expect(cpLines(own)).toEqual([
        expect.stringMatching(/^ {2}cp samples\/enterprisedata\/settings\/Message_УТ_ПК\.xml .*sync\//),
        expect.stringMatching(/^ {2}cp samples\/enterprisedata\/data\/Message_УТ_ПК\.xml .*sync\//),
      ]);
      expect(own).not.toContain('requests-1c-windows1251.csv');
      expect(own).toContain('status --config /etc/procurement-connector/connector.yaml');
      expect(own).not.toContain('config/demo.yaml');

      const other = demoHints(exchange('PC', 'BP'), URLS, { configFile: 'c.yaml' });
      expect(cpLines(other)).toEqual([]);
      expect(other).toContain("is 1C's exchange folder: 1C writes Message_BP_PC.xml there");
    });
  });

  it('names only samples that exist, and for a mapping of the site’s own says what to drop', async () => {
    await withTempDir((dir) => {
      const flows = config(
        dir,
        `  - { name: csv, kind: requests, inbox: {dir}/in, mapping: {repo}/config/mappings/1c-requests.yaml, results: {dir}/r }
  - { name: own, kind: requests, inbox: {dir}/own, mapping: {repo}/config/mappings/requests-json.yaml, results: {dir}/r2 }`,
      );
      const withSamples = demoHints(flows, URLS, { configFile: 'c.yaml' });
      expect(cpLines(withSamples).map((line) => line.trim().split(/\s+/)[1])).toEqual([
        'samples/requests-1c-windows1251.csv',
        'samples/broken/bad-inn.csv',
        'samples/broken/missing-column.csv',
      ]);
      expect(withSamples).toMatch(/# drop a file that .*requests-json\.yaml reads into .*own\//);

      // Installed without the samples (a package puts them elsewhere): no command names a missing file.
      const bare = path.join(dir, 'bare');
      fs.mkdirSync(bare);
      const without = demoHints(flows, URLS, { configFile: 'c.yaml', root: bare });
      expect(cpLines(without)).toEqual([]);
      expect(without).toContain('# drop a CSV exported from 1C into');
    });
  });
});
