/**
 * `procurement-connector mapping suggest` as a user runs it: the YAML on stdout (the summary on
 * stderr) that `check` and `preview` then accept as a flow's mapping, `--out`, and the exit codes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { REPO } from '../helpers/with-daemon.js';
import { spawnCli, useBuiltCli } from './built-cli.js';

const built = useBuiltCli();

const sample = (name: string) => path.join(REPO, 'samples/suggest', name);

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnCli(built(), args);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

function configFor(dir: string, mapping: string, kind: string): string {
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(
    file,
    `stateDir: ${dir}/state\nplatform: { baseUrl: "http://127.0.0.1:9", token: cli-test-token, sourceSystem: erp-test }\n` +
      `flows:\n  - { name: main, kind: ${kind}, inbox: ${dir}/inbox, mapping: ${mapping}, results: ${dir}/results }\n`,
  );
  return file;
}

describe('mapping suggest (the built CLI)', () => {
  it('prints a mapping that check and preview accept, exit 0', async () => {
    await withTempDir(async (dir) => {
      const suggested = await run(['mapping', 'suggest', sample('excel-requests-utf8-bom.csv')]);
      expect(suggested.code).toBe(0);
      expect(suggested.stderr).toContain('Preview of the sample: 3 requests, 0 problems');
      const mapping = path.join(dir, 'excel.yaml');
      fs.writeFileSync(mapping, suggested.stdout);
      const config = configFor(dir, mapping, 'requests');

      const check = await run(['check', '-c', config]);
      expect(check).toMatchObject({ code: 0, stdout: 'OK\n' });
      const preview = await run(['preview', '-c', config, sample('excel-requests-utf8-bom.csv')]);
      expect(preview.code).toBe(0);
      expect(preview.stdout).toContain('3 submissions, 0 problems');
    });
  });

  it('--out writes the file; a second run without --force exits 2 and leaves it; a partial suggestion exits 1', async () => {
    await withTempDir(async (dir) => {
      const out = path.join(dir, 'confirmations.yaml');
      const first = await run(['mapping', 'suggest', sample('supplier-confirmations.csv'), '--kind', 'confirmations', '--out', out]);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout).toContain('Preview of the sample: 2 confirmations, 0 problems');
      const written = fs.readFileSync(out, 'utf8');
      expect(written).toContain('orderId: { column: "Заказ площадки" }');

      const again = await run(['mapping', 'suggest', sample('supplier-confirmations.csv'), '--kind', 'confirmations', '--out', out]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists; pass --force to replace it');
      expect(fs.readFileSync(out, 'utf8')).toBe(written);

      const partial = await run(['mapping', 'suggest', sample('erp-requests.tsv')]);
      expect(partial.code).toBe(1);
      expect(partial.stdout).toContain('# TODO unit:');
      expect(partial.stderr).toContain('Incomplete: fill in the TODO lines');
    });
  });

  it('an unknown --kind is an argument error (exit 2)', async () => {
    const result = await run(['mapping', 'suggest', sample('erp-requests.tsv'), '--kind', 'orders']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("argument 'orders' is invalid");
  });
});
