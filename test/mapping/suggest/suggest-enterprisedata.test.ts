/**
 * `mapping suggest` on 1C's EnterpriseData exchange messages, plain and zipped as 1C compresses
 * them: the `enterprisedata` preset is proposed with the shipped mapping's site defaults, the
 * notes print the `enterpriseData` codes read from the header, the purchase orders are counted,
 * and the YAML maps the message with no problem; a settings message (no Body) gets the same
 * mapping and says it has nothing to preview.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseMappingSpec } from '../../../src/config/load-mapping.js';
import { runSuggestCommand } from '../../../src/mapping/suggest/run-suggest-command.js';
import { edCatalogItem, edMessage, edOrder, edZip } from '../../helpers/enterprisedata.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { NOW, ROOT, split } from '../../helpers/mapping-fixtures.js';

const SHIPPED = path.join(ROOT, 'config/mappings/enterprisedata-orders.yaml');
const DATA_SAMPLE = path.join(ROOT, 'samples/enterprisedata/data/Message_УТ_ПК.xml');
const SETTINGS_SAMPLE = path.join(ROOT, 'samples/enterprisedata/settings/Message_УТ_ПК.xml');

/** The shipped mapping as data, with the kind the suggestion writes out (the preset's). */
const shippedMapping = () => ({ kind: 'requests', ...(YAML.parse(fs.readFileSync(SHIPPED, 'utf8')) as Record<string, unknown>) });

/** The lines of the shipped mapping's `request:` section: the site defaults and their SITE comments. */
const shippedRequestLines = () => {
  const lines = fs.readFileSync(SHIPPED, 'utf8').trimEnd().split('\n');
  return lines.slice(lines.indexOf('request:'));
};

/** The suggested YAML as the daemon loads it, mapped over `sample`. */
async function mapWithSuggestion(yaml: string, sample: string) {
  const spec = parseMappingSpec(YAML.parse(yaml), 'suggested.yaml');
  return split(sample, spec, { now: NOW, rejectPastDates: false });
}

/** A data message from 1C's `from` to our `to` with three purchase orders and a catalogue item. */
function threeOrders(from: string, to: string): string {
  return edMessage({
    version: '1.11',
    from,
    to,
    versions: ['1.11', '1.8'],
    body: [edCatalogItem(), edOrder('1.11', { number: 'ЗП-1' }), edOrder('1.11', { number: 'ЗП-2', address: '' }), edOrder('1.11', { number: 'ЗП-3' })],
  });
}

describe('mapping suggest on an EnterpriseData message', () => {
  it('proposes the preset with the shipped site defaults, prints the header codes and counts the orders; the YAML maps the sample', async () => {
    const result = await runSuggestCommand(DATA_SAMPLE, {}, NOW);
    expect(result.exitCode).toBe(0);
    expect(YAML.parse(result.stdout)).toEqual(shippedMapping());
    for (const line of shippedRequestLines()) expect(result.stdout.split('\n')).toContain(line);
    expect(result.stdout).not.toContain('TODO');
    expect(result.stdout).toContain('#   enterpriseData: { node: "ПК", peer: "УТ" }');
    expect(result.stderr).toContain(
      'Sample: XML, an EnterpriseData 1.8 data message from "УТ" to "ПК", 2 purchase orders (Документ.ЗаказПоставщику; preset enterprisedata)',
    );
    expect(result.stderr).toContain('Notes:\n  - the flow reading these messages also needs, in the daemon config, enterpriseData: { node: "ПК", peer: "УТ" }');
    expect(result.stderr).toContain('Preview of the sample: 2 requests, 0 problems');
    // The second order names no contact: the site default stands in, and the YAML says so.
    expect(result.stdout).toContain('  # (In the sample, it stands in for 1 of 2 purchase orders.)\n  contact.name: { default: "Отдел закупок" }');

    const { submissions, problems } = await mapWithSuggestion(result.stdout, DATA_SAMPLE);
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => submission.externalId)).toEqual([
      'ЗП-000501 6f1c2a4e-8b3d-11ee-b962-0242ac120002',
      'ЗП-000502 6f1c2a4e-8b3d-11ee-b962-0242ac120003',
    ]);
  });

  it.each(['xml', 'zip'] as const)('reads the codes of the message it is given, plain or zipped (.%s)', async (form) => {
    await withTempDir(async (dir) => {
      const xml = threeOrders('БП30', 'ЗАКУПКИ');
      const file = path.join(dir, `Message_БП30_ЗАКУПКИ.${form}`);
      fs.writeFileSync(file, form === 'xml' ? xml : edZip('Message_БП30_ЗАКУПКИ.xml', xml));

      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(0);
      expect(YAML.parse(result.stdout)).toEqual(shippedMapping());
      expect(result.stdout).toContain('#   enterpriseData: { node: "ЗАКУПКИ", peer: "БП30" }');
      expect(result.stderr).toContain('an EnterpriseData 1.11 data message from "БП30" to "ЗАКУПКИ", 3 purchase orders');
      expect(result.stderr).toContain('enterpriseData: { node: "ЗАКУПКИ", peer: "БП30" }');
      expect(result.stdout).toContain('  # (In the sample, it stands in for 1 of 3 purchase orders.)\n  delivery.address:');
      if (form === 'zip') expect(result.stderr).toContain('give it as enterpriseData.password');
      else expect(result.stderr).not.toContain('enterpriseData.password');

      const { submissions, problems } = await mapWithSuggestion(result.stdout, file);
      expect(problems).toEqual([]);
      expect(submissions).toHaveLength(3);
      expect(submissions[1]!.payload).toMatchObject({ delivery: { city: 'Москва', address: 'Адрес склада не указан в заказе' } });
    });
  });

  it('a settings message (the handshake, no Body) gets the same mapping and says it has no purchase order to preview (exit 1)', async () => {
    const result = await runSuggestCommand(SETTINGS_SAMPLE, {}, NOW);
    expect(result.exitCode).toBe(1);
    expect(YAML.parse(result.stdout)).toEqual(shippedMapping());
    expect(result.stdout).not.toContain('TODO');
    expect(result.stdout).toContain('#   enterpriseData: { node: "ПК", peer: "УТ" }');
    expect(result.stdout).toContain(
      '# WARNING: a settings message (the handshake) has no Body: the sample has no purchase order (Документ.ЗаказПоставщику) to preview',
    );
    expect(result.stderr).toContain('an EnterpriseData settings message (the handshake) from "УТ" to "ПК", no purchase order');
    expect(result.stderr).toContain('Preview of the sample: 0 requests, 0 problems');
    expect(result.stderr).toContain('The mapping loads, but the sample holds nothing to map');

    const { submissions, problems } = await mapWithSuggestion(result.stdout, SETTINGS_SAMPLE);
    expect({ submissions, problems }).toEqual({ submissions: [], problems: [] });
  });

  it('a data message with other objects only says it holds no purchase order', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'Message_УТ_ПК.xml');
      fs.writeFileSync(file, edMessage({ body: [edCatalogItem()] }));
      const result = await runSuggestCommand(file, {}, NOW);
      expect(YAML.parse(result.stdout)).toEqual(shippedMapping());
      expect(result.stderr).toContain('the message holds no purchase order (Документ.ЗаказПоставщику), only other objects');
      expect(result.exitCode).toBe(1);
    });
  });

  it('a field the message leaves empty, and no site default gives, is a TODO line', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'Message_УТ_ПК.xml');
      fs.writeFileSync(file, edMessage({ body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2', inn: '' })] }));
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toContain(
        '  # TODO customer.inn: { default: "?" }  # required; empty in 1 of 2 purchase orders: the message does not carry it here, give a default',
      );
      expect(result.stderr).toContain('Preview of the sample: 1 request, 1 problem (FIELD_REQUIRED 1)');
    });
  });

  it('a confirmations flow cannot read it: the skeleton says why', async () => {
    const result = await runSuggestCommand(DATA_SAMPLE, { kind: 'confirmations' }, NOW);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('# WARNING: an EnterpriseData exchange message: the enterprisedata preset reads its purchase orders as buyer requests');
    expect(YAML.parse(result.stdout)).toEqual({ kind: 'confirmations', format: 'xml' });
  });

  it('a message zipped with a password is refused with the reader’s code, not taken for a workbook', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'Message_УТ_ПК.zip');
      fs.writeFileSync(file, edZip('Message_УТ_ПК.xml', fs.readFileSync(DATA_SAMPLE), 'secret'));
      await expect(runSuggestCommand(file, {}, NOW)).rejects.toMatchObject({
        code: 'ARCHIVE_ENCRYPTED',
        message: expect.stringMatching(/^Message_УТ_ПК\.zip /),
      });
    });
  });
});
