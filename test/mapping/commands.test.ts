/** The `preview` and `check` command bodies, against real config and mapping files. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFiles, previewUsageProblem, runCheckCommand, runPreviewCommand } from '../../src/mapping/run-mapping-commands.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { NOW, ROOT } from '../helpers/mapping-fixtures.js';

const mappings = path.join(ROOT, 'config/mappings');

function writeConfig(dir: string, flows: { name: string; kind: string; mapping: string }[], extra = ''): string {
  const file = path.join(dir, 'connector.yaml');
  const flowYaml = flows
    .map((f) => `  - name: ${f.name}\n    kind: ${f.kind}\n    inbox: ${dir}/inbox-${f.name}\n    mapping: ${f.mapping}\n    results: ${dir}/results`)
    .join('\n');
  fs.writeFileSync(
    file,
    `stateDir: ${dir}/state\nplatform:\n  baseUrl: http://127.0.0.1:8787\n  token: tok-123456\n  sourceSystem: erp-main\nflows:\n${flowYaml}\n${extra}`,
  );
  return file;
}

/** The 1-based line and column where `text` first holds `word`. */
function lineAndColumnOf(text: string, word: string): { line: number; column: number } {
  const before = text.slice(0, text.indexOf(word));
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

describe('preview command', () => {
  it('--json prints exactly one object with requests, problems and the outcome; exit 1 when there are problems', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(dir, [{ name: 'requests', kind: 'requests', mapping: `${mappings}/1c-requests.yaml` }]);
      const bad = await runPreviewCommand(path.join(ROOT, 'samples/broken/bad-inn.csv'), { config, json: true }, {}, NOW);
      expect(bad.exitCode).toBe(1);
      const parsed = JSON.parse(bad.output) as { requests: { externalId: string }[]; problems: { code: string; row: number }[]; outcome: unknown };
      expect(Object.keys(parsed)).toEqual(['requests', 'problems', 'outcome']);
      expect(parsed.outcome).toEqual({ state: 'archived', code: null });
      expect(parsed.requests.map((r) => r.externalId)).toEqual(['ЗК-000101', 'ЗК-000103']);
      expect(parsed.problems).toEqual([expect.objectContaining({ code: 'INN_INVALID', row: 5 })]);

      const good = await runPreviewCommand(path.join(ROOT, 'samples/requests-1c-windows1251.csv'), { config }, {}, NOW);
      expect(good.exitCode).toBe(0);
      expect(good.output).toContain('3 submissions, 0 problems');
      expect(fs.existsSync(path.join(dir, 'state'))).toBe(false); // no store opened
    });
  });

  it('needs --flow when the config has several flows', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(dir, [
        { name: 'requests', kind: 'requests', mapping: `${mappings}/1c-requests.yaml` },
        { name: 'confirmations', kind: 'confirmations', mapping: `${mappings}/supplier-confirmations.yaml` },
      ]);
      const input = path.join(ROOT, 'samples/supplier-confirmation.csv');
      await expect(runPreviewCommand(input, { config }, {}, NOW)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
      const result = await runPreviewCommand(input, { config, flow: 'confirmations', json: true }, {}, NOW);
      expect(result.exitCode).toBe(0);
      expect((JSON.parse(result.output) as { requests: unknown[] }).requests).toHaveLength(2);
    });
  });
});

describe('preview --mapping', () => {
  const sample = path.join(ROOT, 'samples/requests-1c-windows1251.csv');
  const mapping = `${mappings}/1c-requests.yaml`;

  it('alone: maps with the mapping and a flow’s default rules, no config needed', async () => {
    const result = await runPreviewCommand(sample, { mapping }, {}, NOW);
    expect(result).toMatchObject({ exitCode: 0, output: expect.stringContaining('3 submissions, 0 problems') });
    // The default rules reject a date in the past, as a flow that sets none does.
    const later = await runPreviewCommand(sample, { mapping, json: true }, {}, new Date(2030, 0, 1));
    expect(later.exitCode).toBe(1);
    expect((JSON.parse(later.output) as { problems: { code: string }[] }).problems.map((p) => p.code)).toEqual([
      'DATE_IN_PAST',
      'DATE_IN_PAST',
      'DATE_IN_PAST',
    ]);
  });

  it('with --config: replaces the flow’s mapping, and the flow’s rules apply', async () => {
    await withTempDir(async (dir) => {
      // The flow reads JSON and lets past dates through; the CSV mapping replaces its mapping, not its rules.
      const config = writeConfig(dir, [{ name: 'requests', kind: 'requests', mapping: `${mappings}/requests-json.yaml` }]);
      fs.appendFileSync(config, '    intake:\n      rejectPastDates: false\n');
      const result = await runPreviewCommand(sample, { config, mapping }, {}, new Date(2030, 0, 1));
      expect(result).toMatchObject({ exitCode: 0, output: expect.stringContaining('3 submissions, 0 problems') });
    });
  });

  it('with --config: a mapping of the other kind than the flow’s is MAPPING_INVALID', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(dir, [{ name: 'requests', kind: 'requests', mapping }]);
      await expect(runPreviewCommand(sample, { config, mapping: `${mappings}/supplier-confirmations.yaml` }, {}, NOW)).rejects.toMatchObject({
        code: 'MAPPING_INVALID',
        message: expect.stringMatching(/^flow requests: kind is requests but .*supplier-confirmations\.yaml is a confirmations mapping$/),
      });
    });
  });

  it('a mapping file with a mistake is MAPPING_INVALID naming it, a typo with its line, column and the key meant', async () => {
    await withTempDir(async (dir) => {
      const broken = path.join(dir, 'broken.yaml');
      const text = fs.readFileSync(mapping, 'utf8').replace('integer: true', 'integr: true');
      fs.writeFileSync(broken, text);
      const { line, column } = lineAndColumnOf(text, 'integr:');
      const refused = runPreviewCommand(sample, { mapping: broken }, {}, NOW);
      await expect(refused).rejects.toMatchObject({ code: 'MAPPING_INVALID' });
      await expect(refused).rejects.toThrow(`items.quantity.integr (line ${line}, column ${column}): unknown key; did you mean integer?`);
    });
  });

  it("with --config: a flow's mapping file that is missing is named with the config line that names it", async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(dir, [{ name: 'requests', kind: 'requests', mapping: `${dir}/gone.yaml` }]);
      const { line } = lineAndColumnOf(fs.readFileSync(config, 'utf8'), `mapping: ${dir}/gone.yaml`);
      const refused = runPreviewCommand(sample, { config }, {}, NOW);
      await expect(refused).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND' });
      await expect(refused).rejects.toThrow(`The mapping file ${dir}/gone.yaml does not exist (ENOENT) (named by flows[0].mapping, line ${line} of ${config})`);
    });
  });

  it.each([
    [{}, /^preview needs --config FILE .* or --mapping FILE/],
    [{ json: true }, /^preview needs --config FILE/],
    [{ mapping, flow: 'requests' }, /^--flow chooses a flow of --config FILE/],
    [{ mapping }, undefined],
    [{ config: 'c.yaml' }, undefined],
    [{ config: 'c.yaml', flow: 'requests', mapping }, undefined],
  ])('the options %j: %s', async (options, problem) => {
    if (problem === undefined) expect(previewUsageProblem(options)).toBeUndefined();
    else {
      expect(previewUsageProblem(options)).toMatch(problem);
      await expect(runPreviewCommand(sample, options, {}, NOW)).rejects.toThrow(problem);
    }
  });
});

describe('check command', () => {
  it('prints OK for a config whose mappings load and match their flows', async () => {
    await withTempDir((dir) => {
      const config = writeConfig(dir, [
        { name: 'requests', kind: 'requests', mapping: `${mappings}/1c-requests.yaml` },
        { name: 'json', kind: 'requests', mapping: `${mappings}/requests-json.yaml` },
        { name: 'confirmations', kind: 'confirmations', mapping: `${mappings}/supplier-confirmations.yaml` },
      ]);
      expect(runCheckCommand(config, {})).toBe('OK\n');
    });
  });

  it('lists every error: a broken mapping, a kind mismatch, a missing file, a bad export mapping', async () => {
    await withTempDir((dir) => {
      const broken = path.join(dir, 'broken.yaml');
      fs.writeFileSync(broken, fs.readFileSync(`${mappings}/1c-requests.yaml`, 'utf8').replace('integer: true', 'integr: true'));
      const exportMapping = path.join(dir, 'status-export.yaml');
      fs.writeFileSync(exportMapping, 'format: xml\nfileName: "s.csv"\n');
      const config = writeConfig(
        dir,
        [
          { name: 'broken', kind: 'requests', mapping: broken },
          { name: 'mismatch', kind: 'requests', mapping: `${mappings}/supplier-confirmations.yaml` },
          { name: 'missing', kind: 'requests', mapping: `${dir}/nope.yaml` },
        ],
        `webhook:\n  port: 0\n  requireSignature: false\nexport:\n  folder: ${dir}/export\n  mapping: ${exportMapping}\n`,
      );
      let errors: string[];
      try {
        errors = checkConfigFiles(config, {});
      } catch (error) {
        throw new Error(`config itself should load: ${(error as Error).message}`);
      }
      expect(errors).toHaveLength(4);
      const typo = lineAndColumnOf(fs.readFileSync(broken, 'utf8'), 'integr:');
      expect(errors[0]).toMatch(/^flows\[0\] \(broken\): MAPPING_INVALID: .*broken\.yaml is invalid:\n/);
      expect(errors[0]).toContain(`  items.quantity.integr (line ${typo.line}, column ${typo.column}): unknown key; did you mean integer?`);
      expect(errors[0]).not.toContain('needs exactly one of');
      expect(errors[1]).toBe(`flows[1] (mismatch): kind is requests but ${mappings}/supplier-confirmations.yaml is a confirmations mapping`);
      const named = lineAndColumnOf(fs.readFileSync(config, 'utf8'), `mapping: ${dir}/nope.yaml`);
      expect(errors[2]).toBe(
        `flows[2] (missing): CONFIG_NOT_FOUND: The mapping file ${dir}/nope.yaml does not exist (ENOENT) (named by flows[2].mapping, line ${named.line} of ${config})`,
      );
      expect(errors[3]).toMatch(/^export\.mapping: MAPPING_INVALID: .*\n {2}format: /);
      expect(() => runCheckCommand(config, {})).toThrow(expect.objectContaining({ code: 'MAPPING_INVALID' }));
    });
  });

  it('an invalid config is CONFIG_INVALID', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, 'flows: []\n');
      expect(() => runCheckCommand(file, {})).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    });
  });
});
