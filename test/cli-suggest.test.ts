/**
 * `procurement-connector mapping suggest` and `preview` as a user runs them: the YAML on stdout
 * (the summary on stderr) that `check` and `preview` then accept as a flow's mapping, `--out`, the
 * exit codes, the schema the YAML names (the running installation's, also when it is not this
 * checkout), and `preview --mapping` without a config.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempDir } from './helpers/temp-dir.js';
import { REPO } from './helpers/with-daemon.js';
import { spawnCli, useBuiltCli, type BuiltCli } from './helpers/built-cli.js';

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

/**
 * The built program laid out as the installers lay it out (`<prefix>/dist/src`, `package.json`,
 * `schemas/`, `node_modules` beside them; packaging/install.sh), under `dir`, away from this checkout.
 */
function installedCopy(dir: string, cli: BuiltCli): string {
  const prefix = path.join(dir, 'opt', 'procurement-connector');
  fs.cpSync(path.dirname(cli.cli), path.join(prefix, 'dist', 'src'), { recursive: true });
  fs.copyFileSync(path.join(REPO, 'package.json'), path.join(prefix, 'package.json'));
  fs.cpSync(path.join(REPO, 'schemas'), path.join(prefix, 'schemas'), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(prefix, 'node_modules'), 'dir');
  return prefix;
}

/** Run `node <cli> args`, wait for the exit. */
async function runNode(cli: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

describe('the schema a suggested mapping names (the built CLI)', () => {
  it("is the running installation's own schemas/ folder: the checkout's here, the install's from an install", async () => {
    const here = await run(['mapping', 'suggest', sample('excel-requests-utf8-bom.csv')]);
    expect(here.stdout.split('\n')[0]).toBe(`# yaml-language-server: $schema=${path.join(REPO, 'schemas', 'mapping-requests.schema.json')}`);

    await withTempDir(async (dir) => {
      const prefix = installedCopy(dir, built());
      const installed = await runNode(path.join(prefix, 'dist/src/cli.js'), [
        'mapping',
        'suggest',
        sample('supplier-confirmations.csv'),
        '--kind',
        'confirmations',
      ]);
      expect(installed.code).toBe(0);
      const schema = path.join(prefix, 'schemas', 'mapping-confirmations.schema.json');
      const lines = installed.stdout.split('\n');
      expect(lines[0]).toBe(`# yaml-language-server: $schema=${schema}`);
      expect(fs.existsSync(schema)).toBe(true);
      expect(installed.stdout).not.toContain(REPO);
      // How to get the same schema for an editor on another machine.
      expect(installed.stdout).toContain('# write it there with `procurement-connector schema mapping-confirmations > mapping-confirmations.schema.json`');
    });
  });
});

describe('preview (the built CLI)', () => {
  it('--mapping alone previews a mapping without a config', async () => {
    const result = await run([
      'preview',
      '--mapping',
      path.join(REPO, 'config/mappings/1c-requests.yaml'),
      path.join(REPO, 'samples/requests-1c-windows1251.csv'),
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('3 submissions, 0 problems');
  });

  it('a suggested mapping previews as it is, with --mapping', async () => {
    await withTempDir(async (dir) => {
      const out = path.join(dir, 'suggested.yaml');
      expect((await run(['mapping', 'suggest', sample('excel-requests-utf8-bom.csv'), '--out', out])).code).toBe(0);
      const result = await run(['preview', '-m', out, sample('excel-requests-utf8-bom.csv')]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('3 submissions, 0 problems');
    });
  });

  it('--help names every format it reads, and both ways to give the mapping', async () => {
    const result = await run(['preview', '--help']);
    expect(result.code).toBe(0);
    for (const format of ['CSV', 'JSON', 'NDJSON', 'XLSX', 'XML', 'CommerceML', 'EnterpriseData']) expect(result.stdout).toContain(format);
    expect(result.stdout).toContain('--config <file>');
    expect(result.stdout).toContain('--mapping <file>');
  });

  it('neither --config nor --mapping: an argument error, exit 2, saying what to give', async () => {
    const result = await run(['preview', path.join(REPO, 'samples/requests-1c-windows1251.csv')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: preview needs --config FILE .* or --mapping FILE/);
    const flowAlone = await run(['preview', '--flow', 'requests', '--mapping', 'x.yaml', 'in.csv']);
    expect(flowAlone.code).toBe(2);
    expect(flowAlone.stderr).toMatch(/^error: --flow chooses a flow of --config FILE/);
  });
});
