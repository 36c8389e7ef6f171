/**
 * `mapping suggest` on a CommerceML export whose order documents carry what the standard has no
 * element for as requisites (`ЗначенияРеквизитов`: `Город доставки`, `Телефон`, `Дата доставки`,
 * as a site's export writes them; samples/suggest/site-orders-commerceml.xml): the requisites are
 * matched by name and content like columns, for the fields the preset leaves empty, and used only
 * when (nearly) every order document carries them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseMappingSpec } from '../../../src/config/load-mapping.js';
import { requisitePath } from '../../../src/mapping/suggest/match-requisites.js';
import { runSuggestCommand } from '../../../src/mapping/suggest/run-suggest-command.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { NOW, ROOT, split } from '../../helpers/mapping-fixtures.js';

const SAMPLE = path.join(ROOT, 'samples/suggest/site-orders-commerceml.xml');
const requisite = (name: string) => `ЗначенияРеквизитов/ЗначениеРеквизита[Наименование='${name}']/Значение`;

/** The sample changed in one way, written to `dir`. */
function variant(dir: string, change: (xml: string) => string): string {
  const file = path.join(dir, 'orders.xml');
  const xml = fs.readFileSync(SAMPLE, 'utf8');
  const changed = change(xml);
  expect(changed).not.toBe(xml);
  fs.writeFileSync(file, changed);
  return file;
}

/** The suggested YAML as the daemon loads it, mapped over `sample`. */
async function mapWithSuggestion(yaml: string, sample: string) {
  return split(sample, parseMappingSpec(YAML.parse(yaml), 'suggested.yaml'), { now: NOW, rejectPastDates: false });
}

describe('mapping suggest reads CommerceML requisites', () => {
  it('maps the city, the phone and the date wanted from the requisites every order document carries: no TODO, no problem', async () => {
    const result = await runSuggestCommand(SAMPLE, {}, NOW);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('TODO');
    expect(YAML.parse(result.stdout)).toEqual({
      kind: 'requests',
      preset: 'commerceml',
      request: {
        'contact.phone': { path: requisite('Телефон'), optional: true },
        'delivery.city': { path: requisite('Город доставки') },
        'delivery.desiredDate': { path: requisite('Дата доставки'), date: 'DD.MM.YYYY' },
      },
    });
    expect(result.stdout).toContain('# 0.95: requisite "Город доставки", with a value in 3 of 3 order documents: named "Город доставки"');
    expect(result.stderr).toContain(
      `Notes:\n  - request.contact.phone reads the requisite "Телефон", with a value in 3 of 3 order documents, in place of the preset's path`,
    );
    expect(result.stderr).toContain('Preview of the sample: 3 requests, 0 problems');

    const { submissions, problems } = await mapWithSuggestion(result.stdout, SAMPLE);
    expect(problems).toEqual([]);
    expect(submissions.map((submission) => submission.payload)).toMatchObject([
      { contact: { phone: '+7 495 123-45-67' }, delivery: { city: 'Химки', desiredDate: '2030-03-16' } },
      { contact: { phone: '8 (499) 200-10-20' }, delivery: { city: 'Москва', desiredDate: '2030-03-20' } },
      { contact: { phone: '+7 916 555-01-02' }, delivery: { city: 'Подольск', desiredDate: '2030-04-05' } },
    ]);
  });

  it('leaves a field a TODO when a document lacks the requisite, and names the requisite in the reason', async () => {
    await withTempDir(async (dir) => {
      // The first document's city requisite is gone: 2 of 3 carry it, under the threshold.
      const file = variant(dir, (xml) =>
        xml.replace(
          /\t\t\t<ЗначениеРеквизита>\n\t\t\t\t<Наименование>Город доставки<\/Наименование>\n\t\t\t\t<Значение>Химки<\/Значение>\n\t\t\t<\/ЗначениеРеквизита>\n/,
          '',
        ),
      );
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toContain(
        '  # TODO delivery.city: { default: "?" }  # required; empty in 3 of 3 documents: CommerceML does not carry it here, give a default; ' +
          'requisite "Город доставки" names it, but only 2 of 3 order documents carry it',
      );
      const request = (YAML.parse(result.stdout) as { request: Record<string, unknown> }).request;
      expect(Object.keys(request)).toEqual(['contact.phone', 'delivery.desiredDate']);
    });
  });

  it('leaves to the preset a field it fills in every document: only the others read requisites', async () => {
    await withTempDir(async (dir) => {
      // Every buyer now has an actual address with its city, which the preset reads.
      const file = variant(dir, (xml) =>
        xml.replace(
          /<Роль>Покупатель<\/Роль>/g,
          '<Роль>Покупатель</Роль>\n\t\t\t\t<Адрес><Представление>Склад</Представление><АдресноеПоле><Тип>Город</Тип><Значение>Люберцы</Значение></АдресноеПоле></Адрес>',
        ),
      );
      const result = await runSuggestCommand(file, {}, NOW);
      expect(result.exitCode).toBe(0);
      const request = (YAML.parse(result.stdout) as { request: Record<string, unknown> }).request;
      expect(Object.keys(request)).toEqual(['contact.phone', 'delivery.desiredDate']);
      const { submissions, problems } = await mapWithSuggestion(result.stdout, file);
      expect(problems).toEqual([]);
      const city = { delivery: { city: 'Люберцы' } };
      expect(submissions.map((submission) => submission.payload)).toMatchObject([city, city, city]);
    });
  });

  it.each([
    ['Город доставки', requisite('Город доставки')],
    ["Город 'доставки'", `ЗначенияРеквизитов/ЗначениеРеквизита[Наименование="Город 'доставки'"]/Значение`],
    [`Город "доставки" 'склада'`, undefined],
  ])('quotes the requisite name %s in its path', (name, path) => {
    expect(requisitePath(name)).toBe(path);
  });
});
