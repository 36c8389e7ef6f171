/**
 * The mapping page's parts that need no console: choosing a sample, suggesting from it, and
 * auditing a save. Real folders, a real SQLite store, the shipped 1C sample.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditSave, SAVE_MAPPING_ACTION } from '../../../../src/admin/console/studio/audit-save.js';
import { chooseSample } from '../../../../src/admin/console/studio/choose-sample.js';
import { MAX_SAMPLE_BYTES } from '../../../../src/admin/console/studio/limits.js';
import type { SaveOutcome } from '../../../../src/admin/console/studio/save-and-reload.js';
import { suggestFromSample } from '../../../../src/admin/console/studio/suggest-from-sample.js';
import { translator } from '../../../../src/admin/console/i18n.js';
import { createUploadStore } from '../../../../src/admin/console/studio/uploads.js';
import { flowSchema } from '../../../../src/config/flow-schema.js';
import { createLogger } from '../../../../src/log.js';
import { alreadyDurable } from '../../../../src/shared/types.js';
import { getAuditEntry } from '../../../../src/store/audit.js';
import { openStore } from '../../../../src/store/open-store.js';
import { manualClock } from '../../../helpers/clock.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { REPO } from '../../../helpers/with-daemon.js';
import { latinWords } from '../../../helpers/console/latin-words.js';

const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
const flowIn = (inbox: string) =>
  flowSchema.parse({
    name: 'requests',
    kind: 'requests',
    inbox,
    mapping: path.join(REPO, 'config/mappings/1c-requests.yaml'),
    results: path.join(inbox, 'results'),
  });
const now = () => new Date(Date.UTC(2026, 5, 12, 7));

describe('chooseSample', () => {
  it('keeps an upload and finds it again by its id; none asked is no sample and no error', async () => {
    const uploads = createUploadStore({ clock: manualClock() });
    const flow = flowIn('/srv/inbox');
    const uploaded = await chooseSample(uploads, flow, '', new File([fs.readFileSync(SAMPLE)], 'requests.csv'));
    expect(uploaded.error).toBeNull();
    expect(await chooseSample(uploads, flow, uploaded.sample!.id, null)).toEqual(uploaded);
    expect(await chooseSample(uploads, flow, '', null)).toEqual({ sample: null, error: null });
  });

  it('says why a sample cannot be had instead of failing the request', async () => {
    const uploads = createUploadStore({ clock: manualClock() });
    const flow = flowIn('/srv/inbox');
    const tooLarge = await chooseSample(uploads, flow, '', new File([Buffer.alloc(MAX_SAMPLE_BYTES + 1)], 'huge.csv'));
    expect(tooLarge).toMatchObject({ sample: null, error: { code: expect.any(String) } });
    // An upload this store does not keep (kept by another, or forgotten after 30 minutes).
    const elsewhere = createUploadStore({ clock: manualClock() }).put('old.csv', Buffer.from('a;b\n')).id;
    const gone = await chooseSample(uploads, flow, elsewhere, null);
    expect(gone).toMatchObject({ sample: null, error: { code: 'FILE_UNREADABLE' } });
  });
});

describe('suggestFromSample', () => {
  it('suggests a mapping from the sample, with its summary and the preview of the suggested YAML', async () => {
    const uploads = createUploadStore({ clock: manualClock() });
    const sample = uploads.put('requests.csv', fs.readFileSync(SAMPLE));
    const answer = await suggestFromSample(flowIn('/srv/inbox'), sample, null, translator('en'), now);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.suggestion.yaml).toContain('kind: requests');
    expect(answer.summary).toContain('in the editor');
    expect(answer.preview.result?.submissions).toBeGreaterThan(0);
  });

  it("says the suggester's warnings, notes, what the sample is and why each choice was made in the console's language, their values kept", async () => {
    const uploads = createUploadStore({ clock: manualClock() });
    // A title above the header, a column with values and no name, a name given twice.
    const titled = 'Заявки за июнь\nНомер;ИНН;;Товар;Товар;Кол-во\nЗК-1;7707083893;лишнее;Бумага;Ручка;5\n';
    const samples = [
      {
        name: 'titled.csv',
        bytes: Buffer.from(titled),
        words: [
          'заголовок в строке 2',
          'в столбце 3 есть значения',
          'заголовок называет "Товар" дважды',
          'корректная UTF-8',
          'делит 2 из 3 записей на 6 ячеек',
          // The suggested mapping does not load yet: each missing key, said as the mapping page says it.
          'Предпросмотр не выполнен: маппинг пока не загружается (request.customer.name: ',
        ],
      },
      {
        name: 'Message_УТ_ПК.xml',
        bytes: fs.readFileSync(path.join(REPO, 'samples/enterprisedata/data/Message_УТ_ПК.xml')),
        words: ['enterpriseData.node="ПК"', 'заглушки (SITE в YAML)', 'сообщение с данными EnterpriseData'],
      },
      {
        name: 'Message_УТ_ПК.xml',
        bytes: fs.readFileSync(path.join(REPO, 'samples/enterprisedata/settings/Message_УТ_ПК.xml')),
        words: ['сообщении настроек (рукопожатии) нет тела', 'ни одного заказа поставщику'],
      },
      { name: 'orders.xml', bytes: fs.readFileSync(path.join(REPO, 'samples/suggest/site-orders-commerceml.xml')), words: ['выгрузка документов CommerceML'] },
    ];
    for (const { name, bytes, words } of samples) {
      const ru = await suggestFromSample(flowIn('/srv/inbox'), uploads.put(name, bytes), null, translator('ru'), now);
      const en = await suggestFromSample(flowIn('/srv/inbox'), uploads.put(name, bytes), null, translator('en'), now);
      if (!ru.ok || !en.ok) throw new Error(`no suggestion from ${name}`);
      for (const word of words) expect(ru.summary, name).toContain(word);
      // The lines under «Проверьте:» (a field and why), «Предупреждения:» and «Заметки:»: no English of ours.
      const lines = ru.summary.split('\n');
      const listed = lines.filter((line) => line.startsWith('  - '));
      // What the sample is and why it was read so: its encoding, delimiter, header, grouping and numbers.
      const sampleLine = lines.filter((line) => /^ {2}(Образец|Группировка|Числа|Заполнение вниз):|^ {10}заголовок|^Предпросмотр не выполнен/.test(line));
      expect(listed.length + sampleLine.length, name).toBeGreaterThan(0);
      expect(latinWords([...listed, ...sampleLine].join('\n')), ru.summary).toEqual([]);
      // As many warnings and notes in either language: each one is said, none dropped.
      const count = (summary: string) => summary.split('\n').filter((line) => line.startsWith('  - ')).length;
      expect(count(ru.summary), name).toBe(count(en.summary));
    }
  });

  it('answers the failure without a sample, or with the sample error it was given', async () => {
    const flow = flowIn('/srv/inbox');
    expect(await suggestFromSample(flow, null, null, translator('en'), now)).toEqual({
      ok: false,
      failure: { code: 'FILE_UNREADABLE', message: translator('en')('mapping.suggestNeedsSample') },
    });
    const gone = { code: 'FILE_UNREADABLE', message: 'upload it again' };
    expect(await suggestFromSample(flow, null, gone, translator('en'), now)).toEqual({ ok: false, failure: gone });
  });
});

describe('auditSave', () => {
  const outcome = (saved: boolean): SaveOutcome => ({
    result: saved ? 'ok' : 'failed',
    detail: saved ? 'saved' : 'MAPPING_INVALID',
    text: saved ? { key: 'mappingSaved' } : { key: 'mappingNotSaved', params: { code: 'MAPPING_INVALID' } },
    status: saved ? 200 : 422,
    saved,
    file: '/etc/procurement-connector/mappings/requests.yaml',
    backup: null,
    reload: null,
    error: saved ? null : { code: 'MAPPING_INVALID', message: 'bad key' },
  });

  it('records one audit row per save tried, durable before it answers, and logs it once with its code when it failed', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(path.join(dir, 'connector.sqlite'));
      const lines: Record<string, unknown>[] = [];
      const log = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
      let durable = 0;
      const flow = { name: 'requests', mapping: '/etc/procurement-connector/mappings/requests.yaml' };
      try {
        const ok = await auditSave(db, () => ((durable += 1), alreadyDurable()), log, {
          at: 1,
          actor: 'anna',
          address: '127.0.0.1',
          flow,
          outcome: outcome(true),
        });
        const failed = await auditSave(db, alreadyDurable, log, { at: 2, actor: 'anna', address: null, flow, outcome: outcome(false) });
        expect(durable).toBe(1);
        expect(getAuditEntry(db, ok)).toMatchObject({ action: SAVE_MAPPING_ACTION, actor: 'anna', flow: 'requests', result: 'ok' });
        expect(getAuditEntry(db, failed)).toMatchObject({ result: 'failed', detail: 'MAPPING_INVALID' });
        expect(lines.map((line) => [line.msg, line.code])).toEqual([
          ['console action', undefined],
          ['console action failed', 'MAPPING_INVALID'],
        ]);
      } finally {
        db.close();
      }
    });
  });
});
