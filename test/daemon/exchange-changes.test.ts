/**
 * What a reload cannot apply to an exchange with 1C (`daemon/exchange-changes.ts`): one line per
 * flow whose `enterpriseData` differs in the config file read again, naming the flow, the keys
 * (the codes with both values, never the password's) and the restart.
 */
import { describe, expect, it } from 'vitest';
import type { EnterpriseDataConfig } from '../../src/config/enterprisedata-schema.js';
import { exchangeChangesAtReload } from '../../src/daemon/exchange-changes.js';

const exchange = (change: Partial<EnterpriseDataConfig> = {}): EnterpriseDataConfig => ({
  node: 'ПК',
  peer: 'УТ',
  versions: ['1.8', '1.11'],
  transliterateFileNames: false,
  password: 'секрет-123',
  ...change,
});
const flows = (enterpriseData: EnterpriseDataConfig | undefined) => [
  { name: 'csv', enterpriseData: undefined },
  { name: 'exchange-1c', enterpriseData },
];
const RESTART = 'systemctl restart procurement-connector';

describe('exchangeChangesAtReload', () => {
  it('says nothing when the config file changed nothing of an exchange', () => {
    expect(exchangeChangesAtReload(flows(exchange()), flows(exchange()))).toEqual([]);
    expect(exchangeChangesAtReload(flows(undefined), flows(undefined))).toEqual([]);
  });

  it('names the flow, both codes old and new, and the restart', () => {
    expect(exchangeChangesAtReload(flows(exchange()), flows(exchange({ node: 'PC', peer: 'UT' })))).toEqual([
      `flow exchange-1c: enterpriseData.node (ПК → PC), enterpriseData.peer (УТ → UT) changed in the config file; a reload does not apply enterpriseData: the flow keeps node ПК, peer УТ until a restart (${RESTART})`,
    ]);
  });

  it('names the other keys without their values', () => {
    const [warning] = exchangeChangesAtReload(flows(exchange()), flows(exchange({ versions: ['1.21'], transliterateFileNames: true, password: 'другой' })));
    expect(warning).toMatch(/^flow exchange-1c: enterpriseData\.versions, enterpriseData\.transliterateFileNames, enterpriseData\.password changed/);
    expect(warning).not.toContain('другой');
    expect(warning).not.toContain('секрет');
  });

  it('says when an exchange is added, removed, or comes with a new flow', () => {
    expect(exchangeChangesAtReload(flows(undefined), flows(exchange()))).toEqual([
      `flow exchange-1c: enterpriseData was added in the config file; a reload does not apply it: the exchange starts at restart (${RESTART})`,
    ]);
    expect(exchangeChangesAtReload(flows(exchange()), flows(undefined))).toEqual([
      `flow exchange-1c: enterpriseData was removed from the config file; a reload does not apply it: the flow keeps its exchange with node ПК, peer УТ until a restart (${RESTART})`,
    ]);
    expect(exchangeChangesAtReload([], flows(exchange()))).toEqual([
      `flow exchange-1c: new in the config file, with enterpriseData; a reload starts no flow: it starts at restart (${RESTART})`,
    ]);
  });
});
