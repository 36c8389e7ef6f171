/**
 * `mapping suggest` on what 1C saves without code: a report saved as xlsx (the sheet, the header
 * under a title, a two-row header, the typed columns, the grouping and fill-down are recognised)
 * and a CommerceML export (the preset is proposed, and what the export leaves empty is listed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadMappingSpec } from '../../../src/config/load-mapping.js';
import { checkConfigFiles, runPreviewCommand } from '../../../src/mapping/run-mapping-commands.js';
import { runSuggestCommand } from '../../../src/mapping/suggest/run-suggest-command.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { ROOT, NOW, split } from '../../helpers/mapping-fixtures.js';
import { workbookParts, zipOf } from '../../helpers/xlsx/workbook-builder.js';
import { writeZip } from '../../helpers/xlsx/zip-writer.js';
import { requestCommerceMl } from '../../helpers/reliability/request-files.js';

const REPORT = path.join(ROOT, 'samples/requests-1c-report.xlsx');
const COMMERCEML = path.join(ROOT, 'samples/commerceml-orders.xml');

function configFor(dir: string, mapping: string): string {
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(
    file,
    `stateDir: ${dir}/state\nplatform:\n  baseUrl: http://127.0.0.1:8787\n  token: tok-123456\n  sourceSystem: erp-main\n` +
      `flows:\n  - name: main\n    kind: requests\n    inbox: ${dir}/inbox\n    mapping: ${mapping}\n    results: ${dir}/results\n`,
  );
  return file;
}

describe('mapping suggest on a workbook saved from a 1C report', () => {
  it('finds the header under the title, the grouping with fill-down and every field; the YAML passes check and maps the report', async () => {
    await withTempDir(async (dir) => {
      const result = await runSuggestCommand(REPORT, {}, NOW);
      expect(result.stderr).toContain('Sample: XLSX, sheet "Заявки", header on row 4');
      expect(result.stderr).toContain('Preview of the sample: 3 requests, 0 problems');
      expect(result.exitCode).toBe(0);
      const mapping = YAML.parse(result.stdout) as Record<string, unknown>;
      expect(mapping).toMatchObject({
        kind: 'requests',
        format: 'xlsx',
        groupBy: 'Номер заявки',
        fillDown: true,
        request: { externalId: { column: 'Номер заявки' }, 'customer.inn': { column: 'ИНН' }, 'delivery.desiredDate': { column: 'Желаемая дата' } },
        items: { name: { column: 'Номенклатура' }, quantity: { column: 'Количество' } },
      });
      expect(mapping).not.toHaveProperty('csv');
      expect(result.stdout).toMatch(/format: xlsx # the first sheet; header on row 4/);

      const file = path.join(dir, 'report.yaml');
      fs.writeFileSync(file, result.stdout);
      const config = configFor(dir, file);
      expect(checkConfigFiles(config, {})).toEqual([]);
      const preview = await runPreviewCommand(REPORT, { config }, {}, new Date(2027, 0, 1));
      expect(preview).toMatchObject({ exitCode: 0, output: expect.stringContaining('3 submissions, 0 problems') });
    });
  });

  it("keeps the reader's limits: a workbook that declares a billion rows is refused, not read", async () => {
    await withTempDir(async (dir) => {
      const sheet =
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C1000000000"/><sheetData/></worksheet>';
      const parts = workbookParts({ sheets: [{ name: 'S', xml: sheet }] });
      const file = path.join(dir, 'huge.xlsx');
      fs.writeFileSync(file, zipOf(parts));
      await expect(runSuggestCommand(file, {}, NOW)).rejects.toMatchObject({ code: 'WORKBOOK_LIMIT_EXCEEDED' });
    });
  });

  it('names what a workbook really is: an .ods under the .xlsx name', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'calc.xlsx');
      fs.writeFileSync(file, writeZip([{ name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet'), stored: true }]));
      await expect(runSuggestCommand(file, {}, NOW)).rejects.toMatchObject({
        code: 'FILE_FORMAT_UNSUPPORTED',
        message: expect.stringContaining('save it as .xlsx'),
      });
    });
  });
});

describe('mapping suggest on a CommerceML export', () => {
  it('proposes the preset and lists what the export leaves empty; filled in, it maps every document', async () => {
    await withTempDir(async (dir) => {
      const result = await runSuggestCommand(COMMERCEML, {}, NOW);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('Sample: XML, a CommerceML document export, 3 order documents (preset commerceml)');
      expect(YAML.parse(result.stdout)).toEqual({ kind: 'requests', preset: 'commerceml' });
      expect(result.stdout).toContain('# TODO request:');
      expect(result.stdout).toMatch(/#\s+contact\.name: \{ default: "\?" \}\s+# required; empty in 1 of 3 documents/);
      expect(result.stdout).toMatch(/#\s+delivery\.city: \{ default: "\?" \}\s+# required; empty in 1 of 3 documents/);
      expect(result.stdout).not.toMatch(/customer\.inn/);

      // Uncommented and filled in, as the TODO lines say: every document maps.
      const filled = result.stdout
        .replace('# TODO request:', 'request:')
        .replace(/#(\s+contact\.name: \{ default: )"\?"/, ' $1"Отдел закупок"')
        .replace(/#(\s+delivery\.city: \{ default: )"\?"/, ' $1"Москва"');
      const file = path.join(dir, 'commerceml.yaml');
      fs.writeFileSync(file, filled);
      const { submissions, problems } = await split(COMMERCEML, loadMappingSpec(file), { rejectPastDates: false });
      expect(problems).toEqual([]);
      expect(submissions).toHaveLength(3);
    });
  });

  it('a CommerceML export with everything the preset needs is complete (exit 0)', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'orders.xml');
      fs.writeFileSync(file, requestCommerceMl('FULL', 0, 3));
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.stderr).toContain('3 order documents (preset commerceml)');
      expect(result.stdout).not.toContain('TODO');
      expect(result.exitCode).toBe(0);
    });
  });

  it('any other XML gets a skeleton to fill in by hand (exit 1)', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'other.xml');
      fs.writeFileSync(file, '<?xml version="1.0"?><Orders><Order><No>1</No></Order></Orders>');
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toContain('not a CommerceML document export');
      expect(result.stdout).toContain('# TODO record:');
      expect(YAML.parse(result.stdout)).toEqual({ kind: 'requests', format: 'xml' });
    });
  });
});
