/**
 * The `mapping suggest` command's body: where the YAML and the summary go, `--out` and `--force`,
 * the exit codes (0 complete, 1 partial or nothing mapped, 2 an existing `--out`), and that a
 * complete suggestion passes `check` and `preview` as a flow's mapping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../../src/config/load-mapping.js';
import { checkConfigFiles, runPreviewCommand } from '../../../src/mapping/run-mapping-commands.js';
import { runSuggestCommand } from '../../../src/mapping/suggest/run-suggest-command.js';
import { requestCsv, requestRow } from '../../helpers/fixtures.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { NOW, ROOT } from '../../helpers/mapping-fixtures.js';

const sample = (name: string) => path.join(ROOT, 'samples/suggest', name);

/** A daemon config with one flow reading `mapping`. */
function configFor(dir: string, mapping: string, kind = 'requests'): string {
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(
    file,
    `stateDir: ${dir}/state\nplatform:\n  baseUrl: http://127.0.0.1:8787\n  token: tok-123456\n  sourceSystem: erp-main\n` +
      `flows:\n  - name: main\n    kind: ${kind}\n    inbox: ${dir}/inbox\n    mapping: ${mapping}\n    results: ${dir}/results\n`,
  );
  return file;
}

describe('runSuggestCommand', () => {
  it('complete: the YAML on stdout passes check and preview, the summary on stderr, exit 0', async () => {
    await withTempDir(async (dir) => {
      const result = await runSuggestCommand(sample('1c-requests-windows1251.csv'), {}, NOW);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(
        /^# yaml-language-server: \$schema=\S+\/schemas\/mapping-requests\.schema\.json\n# Mapping suggested by `procurement-connector mapping suggest` from "1c-requests-windows1251\.csv"/,
      );
      expect(result.stderr).toContain('Suggested a requests mapping for 1c-requests-windows1251.csv (YAML on stdout).');
      expect(result.stderr).toContain('Preview of the sample: 4 requests, 0 problems');
      expect(result.stderr).not.toContain('Look at:');

      const mapping = path.join(dir, 'mapping.yaml');
      fs.writeFileSync(mapping, result.stdout);
      expect(loadMappingSpec(mapping).kind).toBe('requests');
      const config = configFor(dir, mapping);
      expect(checkConfigFiles(config, {})).toEqual([]);
      const preview = await runPreviewCommand(sample('1c-requests-windows1251.csv'), { config }, {}, new Date(2027, 0, 1));
      expect(preview).toMatchObject({ exitCode: 0, output: expect.stringContaining('4 submissions, 0 problems') });
    });
  });

  it('--out writes the file and prints the summary on stdout; an existing file needs --force (exit 2)', async () => {
    await withTempDir(async (dir) => {
      const out = path.join(dir, 'confirmations.yaml');
      const first = await runSuggestCommand(sample('supplier-confirmations.csv'), { kind: 'confirmations', out }, NOW);
      expect(first).toMatchObject({ exitCode: 0, stderr: '' });
      expect(first.stdout).toContain(`(written to ${out})`);
      expect(first.stdout).toContain('Preview of the sample: 2 confirmations, 0 problems');
      expect(loadMappingSpec(out).kind).toBe('confirmations');
      expect(checkConfigFiles(configFor(dir, out, 'confirmations'), {})).toEqual([]);

      fs.writeFileSync(out, '# edited by hand\n');
      const again = await runSuggestCommand(sample('supplier-confirmations.csv'), { kind: 'confirmations', out }, NOW);
      expect(again).toEqual({ stdout: '', stderr: `mapping suggest: ${out} exists; pass --force to replace it\n`, exitCode: 2 });
      expect(fs.readFileSync(out, 'utf8')).toBe('# edited by hand\n');

      const forced = await runSuggestCommand(sample('supplier-confirmations.csv'), { kind: 'confirmations', out, force: true }, NOW);
      expect(forced.exitCode).toBe(0);
      expect(loadMappingSpec(out).kind).toBe('confirmations');
    });
  });

  it('partial: the YAML is still written, with its TODO lines; the preview cannot run; exit 1', async () => {
    const result = await runSuggestCommand(sample('erp-requests.tsv'), {}, NOW);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('# TODO unit: { column: "?" }  # required; no column fits');
    expect(result.stderr).toContain('Preview not run: the mapping does not load yet (the suggested mapping is invalid: items.unit: is required)');
    expect(result.stderr).toContain('Look at:\n  - items.lineId: generated (counter)');
    expect(result.stderr).toContain('  - items.unit: TODO, required: no column fits');
    expect(result.stderr).toContain('Incomplete: fill in the TODO lines');
  });

  it('problems in the data are counted by code and their fields listed; the mapping is complete (exit 0)', async () => {
    const result = await runSuggestCommand(path.join(ROOT, 'samples/broken/bad-inn.csv'), {}, NOW);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Preview of the sample: 2 requests, 1 problem (INN_INVALID 1)');
    expect(result.stderr).toContain('  INN_INVALID: Row 5 of bad-inn.csv: customer.inn "0274062112" fails the INN check digit');
    expect(result.stderr).toContain('  - request.customer.inn: 1 problem in the preview');
  });

  it('every field found but the preview builds nothing (a title above the header): exit 1', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'titled.csv');
      fs.writeFileSync(file, `Заявки за июнь\r\n${requestCsv([requestRow('R-1', '1'), requestRow('R-1', '2')])}`);
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('Preview of the sample: 0 requests, ');
      expect(result.stderr).toContain('COLUMN_MISSING');
      expect(result.stderr).toContain('the header is on line 2');
    });
  });

  it('reads the sample as intake reads a file: a symlink is refused, not followed', async () => {
    await withTempDir(async (dir) => {
      const link = path.join(dir, 'link.csv');
      fs.symlinkSync(sample('1c-requests-windows1251.csv'), link);
      await expect(runSuggestCommand(link, {}, NOW)).rejects.toMatchObject({
        code: 'FILE_NOT_REGULAR',
        message: `${link} is a symbolic link; it was not read`,
      });
      await expect(runSuggestCommand(path.join(dir, 'missing.csv'), {}, NOW)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    });
  });
});
