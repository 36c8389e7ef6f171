/**
 * 1C's data synchronization end to end: a test plays 1C's side of the exchange (as the Standard
 * Subsystems Library's folder transport does: it reads our reply, writes its own message over its
 * last one, numbers its messages and resends what we have not acknowledged) against the whole
 * daemon and its in-process sandbox platform; the console, `status` and the metrics show it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTERPRISEDATA_VERSIONS } from '../../src/config/enterprisedata-schema.js';
import { formatOutboxStatus, readOutboxStatus } from '../../src/delivery/outbox-status.js';
import { NODE, OUR_REPLY, PEER, PEER_MESSAGE, edCatalogItem, edMessage, edOrder, edWithdrawal, refOf } from '../helpers/enterprisedata.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { FAST_DELIVERY, FAST_INTAKE_YAML, withDaemon, writeConfig } from '../helpers/with-daemon.js';
import { openStore, storePath } from '../../src/store/open-store.js';

function exchangeConfig(dir: string) {
  return writeConfig(
    dir,
    `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: exchange-token-123, sourceSystem: ut11 }
flows:
  - name: exchange-1c
    kind: requests
    inbox: {dir}/exchange
    mapping: {repo}/config/mappings/enterprisedata-orders.yaml
    results: {dir}/import
    enterpriseData: { node: ${NODE}, peer: ${PEER} }
${FAST_INTAKE_YAML}
${FAST_DELIVERY}
metrics: { port: 0 }
console: { language: en }
sandbox: { enabled: true, port: 0, demo: false }
`,
  );
}

/** 1C's side: what our reply in the folder says, read as 1C reads it. */
function readReply(folder: string): { format: string; messageNo: number; receivedNo: number } | null {
  const file = path.join(folder, OUR_REPLY);
  if (!fs.existsSync(file)) return null;
  const xml = fs.readFileSync(file, 'utf8');
  const one = (tag: string) => new RegExp(`<msg:${tag}>([^<]*)</msg:${tag}>`).exec(xml)?.[1] ?? '';
  return { format: one('Format'), messageNo: Number(one('MessageNo')), receivedNo: Number(one('ReceivedNo')) };
}

/**
 * 1C writes its message as its folder transport does: the old file deleted, the new one copied in
 * place. 1C's next run would write over one the daemon had not taken yet (its next message carries
 * every change not acknowledged, so nothing is lost); this 1C waits until it is taken, so that every
 * message of the story is read.
 */
async function write(folder: string, xml: string, name = PEER_MESSAGE): Promise<void> {
  const file = path.join(folder, name);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, xml);
  await waitUntil(() => !fs.existsSync(file), 'the message taken from the folder', 20_000);
}

describe("1C's data synchronization, end to end against the sandbox", () => {
  it('a handshake, then purchase orders, each exactly once, acknowledged; unacknowledged ones resent by 1C are not duplicated', async () => {
    await withTempDir(async (dir) => {
      const config = exchangeConfig(dir);
      const folder = path.join(dir, 'exchange');
      fs.mkdirSync(folder, { recursive: true });
      await withDaemon(config, async (daemon) => {
        const sandbox = daemon.sandbox!;

        // 1C's wizard writes its settings and waits for ours.
        await write(folder, edMessage({ version: null, versions: ['1.8', '1.11'] }));
        const settings = await waitUntil(() => readReply(folder), 'our settings in the folder', 20_000);
        expect(settings).toEqual({ format: 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData', messageNo: 0, receivedNo: 0 });

        // 1C's first scheduled run: two orders, a catalogue item.
        await write(
          folder,
          edMessage({ version: '1.11', no: 1, body: [edCatalogItem(), edOrder('1.11', { number: 'ЗП-1' }), edOrder('1.11', { number: 'ЗП-2' })] }),
        );
        await waitUntil(() => readReply(folder)?.receivedNo === 1, 'message 1 acknowledged', 20_000);
        await waitUntil(() => sandbox.requests().length === 2, 'two requests at the platform', 20_000);

        // 1C's next run read our reply (so its ReceivedNo is ours) and sends a new order; the run
        // after fails on 1C's side and writes the same number again with the same documents.
        await write(folder, edMessage({ version: '1.11', no: 2, received: 1, body: [edOrder('1.11', { number: 'ЗП-3' })] }));
        await waitUntil(() => readReply(folder)?.receivedNo === 2, 'message 2 acknowledged', 20_000);
        await write(folder, edMessage({ version: '1.11', no: 2, received: 1, body: [edOrder('1.11', { number: 'ЗП-3' })] }).replace('09:15:42', '09:30:00'));
        // A message with every change not yet acknowledged, as 1C sends when it missed our reply.
        await write(
          folder,
          edMessage({
            version: '1.11',
            no: 3,
            received: 2,
            body: [edOrder('1.11', { number: 'ЗП-1' }), edOrder('1.11', { number: 'ЗП-3' }), edOrder('1.11', { number: 'ЗП-4' })],
          }),
        );
        await waitUntil(() => readReply(folder)?.receivedNo === 3, 'message 3 acknowledged', 20_000);
        await waitUntil(() => sandbox.requests().length === 4, 'four requests at the platform', 20_000);
        expect(
          sandbox
            .requests()
            .map((r) => r.externalId)
            .sort(),
        ).toEqual(['ЗП-1', 'ЗП-2', 'ЗП-3', 'ЗП-4'].map((number) => `${number} ${refOf(number)}`));
        expect(readReply(folder)).toEqual({ format: 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData/1.11', messageNo: 3, receivedNo: 3 });

        // The console shows the exchange, as JSON for a script and as a page. The reply is marked
        // written only after its rename is durable (the folder's fsync), a moment after 1C can see
        // it: the page may say "reply not yet written" until then.
        type ExchangePage = { exchange: Record<string, unknown>; messages: { kind: string; messageNo: number | null }[] };
        const data = await waitUntil(
          async () => {
            const page = await fetch(`${daemon.urls.admin}/flows/exchange-1c/exchange`, { headers: { accept: 'application/json' } });
            expect(page.status).toBe(200);
            const body = (await page.json()) as ExchangePage;
            return body.exchange.replyDue === false ? body : null;
          },
          'the console to show the reply written',
          20_000,
        );
        expect(data.exchange).toMatchObject({
          node: NODE,
          peer: PEER,
          agreedVersion: '1.11',
          lastTakenNo: 3,
          acknowledgedNo: 3,
          replyDue: false,
          peerAcceptedNo: 2,
        });
        expect(data.messages.map((m) => [m.kind, m.messageNo])).toEqual([
          ['taken', 3],
          ['stale', 2],
          ['taken', 2],
          ['taken', 1],
          ['settings', 0],
        ]);
        const html = await (await fetch(`${daemon.urls.admin}/`)).text();
        expect(html).toContain('/flows/exchange-1c/exchange');

        const metrics = await (await fetch(`${daemon.urls.admin}/metrics`)).text();
        expect(metrics).toContain('connector_exchange_last_taken_message{flow="exchange-1c"} 3');
        expect(metrics).toContain('connector_exchange_acknowledged_message{flow="exchange-1c"} 3');
        expect(metrics).toContain('connector_exchange_messages_total{flow="exchange-1c",kind="stale"} 1');
        expect(metrics).toMatch(/connector_exchange_last_message_timestamp_seconds\{flow="exchange-1c"\} \d+/);
      });

      const db = openStore(storePath(path.join(dir, 'state')), { readonly: true });
      try {
        expect(readOutboxStatus(db, Date.now(), ['exchange-1c'], config.flows).exchanges).toEqual([
          expect.objectContaining({ flow: 'exchange-1c', node: NODE, peer: PEER, version: '1.11', lastTakenNo: 3, acknowledgedNo: 3, replyDue: false }),
        ]);
      } finally {
        db.close();
      }
    });
  });

  it('1C’s habits: a number reused next year, a renumbering, an edit and a withdrawal before and after sending, a problem fixed', async () => {
    await withTempDir(async (dir) => {
      const config = exchangeConfig(dir);
      const folder = path.join(dir, 'exchange');
      fs.mkdirSync(folder, { recursive: true });
      await withDaemon(config, async (daemon) => {
        const sandbox = daemon.sandbox!;
        type Attention = {
          flows: {
            flow: string;
            documents: { total: number; rows: { kind: string; documentNumber: string; changes: unknown[]; platformId: string | null }[] };
          }[];
        };
        const attention = async () =>
          ((await (await fetch(`${daemon.urls.admin}/attention`, { headers: { accept: 'application/json' } })).json()) as Attention).flows.find(
            (f) => f.flow === 'exchange-1c',
          )!.documents;
        const order = (number: string, ref: string, input: Record<string, unknown> = {}) =>
          edOrder('1.11', { number, ref, contact: 'Сидорова А.В.', person: 'Сидорова Анна Викторовна', ...input });
        let no = 0;
        /** 1C's next run: it read our last reply (ReceivedNo), and writes its changes. */
        const run = async (...body: string[]) => {
          no += 1;
          await write(folder, edMessage({ version: '1.11', no, received: readReply(folder)?.messageNo ?? 0, body }));
          await waitUntil(() => readReply(folder)?.receivedNo === no, `message ${no} acknowledged`, 20_000);
        };

        await write(folder, edMessage({ version: null, versions: ['1.11', '1.17', '1.22'] }));
        await waitUntil(() => readReply(folder), 'our settings in the folder', 20_000);

        // December: two orders, both accepted by the platform.
        await run(order('ТДУТ-000012', refOf('dec-12'), { lines: [{ name: 'Бумага А4', quantity: '20' }] }), order('ТДУТ-000013', refOf('dec-13')));
        await waitUntil(() => sandbox.requests().length === 2, 'the December orders at the platform', 20_000);

        // January: the numbering starts again (a new order numbered ТДУТ-000012), December's
        // ТДУТ-000012 is edited (20 → 25 reams), ТДУТ-000013 is unposted, and an order with a
        // wrong INN comes: four things, each as 1C writes them.
        await run(
          order('ТДУТ-000012', refOf('jan-12'), { date: '2031-01-10T09:00:00', lines: [{ name: 'Скрепки', quantity: '3' }] }),
          order('ТДУТ-000012', refOf('dec-12'), { lines: [{ name: 'Бумага А4', quantity: '25' }] }),
          edWithdrawal(refOf('dec-13')),
          order('ТДУТ-000014', refOf('jan-14'), { inn: '7707083894' }),
        );
        await waitUntil(() => sandbox.requests().length === 3, 'January’s order at the platform', 20_000);
        const documents = await waitUntil(async () => ((await attention()).total === 3 ? await attention() : null), 'three notices', 20_000);
        expect(documents.rows.map((n) => [n.kind, n.documentNumber]).sort()).toEqual([
          ['edited', 'ТДУТ-000012'],
          ['problem', 'ТДУТ-000014'],
          ['withdrawn', 'ТДУТ-000013'],
        ]);
        expect(documents.rows.find((n) => n.kind === 'edited')!.changes).toEqual([{ what: 'line', name: 'Бумага А4', unit: 'шт', from: 20, to: 25 }]);
        expect(documents.rows.find((n) => n.kind === 'withdrawn')!.platformId).toMatch(/-REQ-/);

        // 1C sends the edited order back as it was sent (the edit undone), the fixed order, and a
        // renumbering of January's order (moved to another organization's numbering).
        await run(
          order('ТДУТ-000012', refOf('dec-12'), { lines: [{ name: 'Бумага А4', quantity: '20' }] }),
          order('ТДУТ-000014', refOf('jan-14')),
          order('БПУТ-000001', refOf('jan-12'), { date: '2031-01-10T09:00:00', lines: [{ name: 'Скрепки', quantity: '3' }] }),
        );
        await waitUntil(() => sandbox.requests().length === 4, 'the fixed order at the platform', 20_000);
        await waitUntil(async () => (await attention()).total === 1, 'only the withdrawal left to handle', 20_000);

        // Every request reached the platform exactly once, each under an externalId of its own.
        const sent = sandbox.requests().map((r) => r.externalId);
        expect(new Set(sent).size).toBe(sent.length);
        expect(sent.sort()).toEqual(
          [`ТДУТ-000012 ${refOf('dec-12')}`, `ТДУТ-000012 ${refOf('jan-12')}`, `ТДУТ-000013 ${refOf('dec-13')}`, `ТДУТ-000014 ${refOf('jan-14')}`].sort(),
        );
        const first = sandbox.requests().find((r) => r.externalId.endsWith(refOf('dec-12')))!;
        expect(first.body).toMatchObject({ contact: { name: 'Сидорова Анна Викторовна' } });
        // The renumbered order: found by its new number, its request unchanged.
        const search = (await (
          await fetch(`${daemon.urls.admin}/flows/exchange-1c/requests?q=БПУТ-000001`, { headers: { accept: 'application/json' } })
        ).json()) as {
          submissions: { externalId: string; documentNumber: string }[];
        };
        expect(search.submissions.map((r) => [r.externalId, r.documentNumber])).toEqual([[`ТДУТ-000012 ${refOf('jan-12')}`, 'БПУТ-000001']]);
      });
    });
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** A console page's JSON, as a script reads it. */
async function json(url: string): Promise<Json> {
  const answer = await fetch(url, { headers: { accept: 'application/json' } });
  expect(answer.status, url).toBe(200);
  return (await answer.json()) as Json;
}

/** A console page as a browser reads it, its entities decoded (an apostrophe is &#39; in the markup). */
async function page(url: string): Promise<string> {
  const answer = await fetch(url);
  expect(answer.status, url).toBe(200);
  return (await answer.text()).replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

describe('what the exchange waits on a person for, on the exchange page and on /attention', () => {
  it('names a message for other codes with both codes and the fix after one scan, and forgets it once it is gone', async () => {
    await withTempDir(async (dir) => {
      const config = exchangeConfig(dir);
      const folder = path.join(dir, 'exchange');
      fs.mkdirSync(folder, { recursive: true });
      await withDaemon(config, async (daemon) => {
        const exchangeUrl = `${daemon.urls.admin}/flows/exchange-1c/exchange`;
        const attentionUrl = `${daemon.urls.admin}/attention`;
        expect((await json(attentionUrl)).total).toBe(0);

        fs.writeFileSync(path.join(folder, 'Message_УТ_XX.xml'), edMessage({ to: 'XX' }));
        await daemon.scanNow();

        const named = {
          name: 'Message_УТ_XX.xml',
          kind: 'node',
          prefix: null,
          from: PEER,
          to: 'XX',
          node: NODE,
          peer: PEER,
          message: expect.stringContaining("1C writes to the code XX: this program's code in 1C is XX, the config says ПК (enterpriseData.node)"),
        };
        expect((await json(exchangeUrl)).strayMessages).toEqual([expect.objectContaining(named)]);
        const attention = await json(attentionUrl);
        expect(attention.total).toBe(1);
        expect(attention.flows).toEqual([
          expect.objectContaining({ flow: 'exchange-1c', exchange: { strayMessages: [expect.objectContaining(named)], versionProblem: null } }),
        ]);
        for (const html of [await page(exchangeUrl), await page(attentionUrl)]) {
          expect(html).toContain("Message_УТ_XX.xml: 1C writes to the code XX: this program's code in 1C is XX, the config says ПК (enterpriseData.node).");
          expect(html).toContain('Set enterpriseData.node: XX and restart the service (systemctl restart procurement-connector)');
        }
        // The file stays where it is: it is not 1C's message to this program.
        expect(fs.existsSync(path.join(folder, 'Message_УТ_XX.xml'))).toBe(true);

        fs.rmSync(path.join(folder, 'Message_УТ_XX.xml'));
        await daemon.scanNow();
        expect((await json(exchangeUrl)).strayMessages).toEqual([]);
        expect(await json(attentionUrl)).toMatchObject({
          total: 0,
          flows: [expect.objectContaining({ exchange: { strayMessages: [], versionProblem: null } })],
        });
        expect(await page(attentionUrl)).not.toContain('Message_УТ_XX.xml');
      });
    });
  });

  it('shows 1C’s settings that share no version with the flow until settings with a shared version arrive', async () => {
    await withTempDir(async (dir) => {
      const config = exchangeConfig(dir);
      const folder = path.join(dir, 'exchange');
      fs.mkdirSync(folder, { recursive: true });
      await withDaemon(config, async (daemon) => {
        const exchangeUrl = `${daemon.urls.admin}/flows/exchange-1c/exchange`;
        const attentionUrl = `${daemon.urls.admin}/attention`;

        // An old 1C: its settings declare versions before the ones this program reads.
        await write(folder, edMessage({ version: null, versions: ['1.3', '1.4'] }));
        await waitUntil(() => readReply(folder), 'our settings in the folder', 20_000);
        const problem = { theirs: ['1.3', '1.4'], ours: [...ENTERPRISEDATA_VERSIONS], readable: [], first: '1.6', last: '1.22' };
        const data = await json(exchangeUrl);
        expect(data.versionProblem).toEqual(problem);
        expect(data.exchange).toMatchObject({ agreedVersion: null, noCommonVersion: true });
        const attention = await json(attentionUrl);
        expect(attention.total).toBe(1);
        expect(attention.flows[0].exchange).toEqual({ strayMessages: [], versionProblem: problem });
        for (const html of [await page(exchangeUrl), await page(attentionUrl)]) {
          expect(html).toContain('<strong>No EnterpriseData version shared with 1C.</strong>');
          expect(html).toContain("1C's settings declare 1.3, 1.4; this flow declares 1.6, 1.7, 1.8");
          expect(html).toContain("This program reads EnterpriseData 1.6 to 1.22, and 1C declares none of them: update 1C's configuration");
        }
        // Not the words for settings that never came, on the page or in `status`.
        expect(await page(exchangeUrl)).not.toContain("1C's settings have not arrived");
        const db = openStore(storePath(path.join(dir, 'state')), { readonly: true });
        try {
          const status = readOutboxStatus(db, Date.now(), ['exchange-1c'], config.flows);
          expect(status.exchanges).toEqual([expect.objectContaining({ version: null, noCommonVersion: true })]);
          expect(formatOutboxStatus(status)).toContain("exchange-1c: 1C УТ -> ПК; no version shared with 1C's settings;");
        } finally {
          db.close();
        }

        // 1C updated and set up again: its settings share 1.8.
        await write(folder, edMessage({ version: null, versions: ['1.4', '1.8'] }));
        await waitUntil(async () => (await json(exchangeUrl)).exchange.agreedVersion === '1.8', 'the version agreed', 20_000);
        expect((await json(exchangeUrl)).versionProblem).toBeNull();
        expect((await json(attentionUrl)).total).toBe(0);
      });
    });
  });

  it('says that the settings are answered, and that 1C names its files otherwise than the config, under the reply’s real name', async () => {
    await withTempDir(async (dir) => {
      const config = exchangeConfig(dir);
      const folder = path.join(dir, 'exchange');
      fs.mkdirSync(folder, { recursive: true });
      await withDaemon(config, async (daemon) => {
        const exchangeUrl = `${daemon.urls.admin}/flows/exchange-1c/exchange`;
        // 1C transliterates its file names; the config says it does not.
        await write(folder, edMessage({ version: null }), 'Message_UT_PK.xml');
        const data = await waitUntil(
          async () => {
            const body = await json(exchangeUrl);
            return body.exchange.settingsAnswered === true ? body : null;
          },
          'the settings answered on the page',
          20_000,
        );
        expect(fs.existsSync(path.join(folder, 'Message_PK_UT.xml'))).toBe(true);
        expect(fs.existsSync(path.join(folder, OUR_REPLY))).toBe(false);
        expect(data.exchange).toMatchObject({
          peerMessageName: 'Message_UT_PK.xml',
          replyName: 'Message_PK_UT.xml',
          peerNameForm: 'transliterated',
          namesDisagree: true,
        });
        const html = await page(exchangeUrl);
        expect(html).toContain("This program's settings are in the folder (Message_PK_UT.xml), answering 1C's");
        expect(html).toContain('«Перед продолжением настройки синхронизации данных');
        expect(html).toContain(
          '1C names its messages in Latin letters (its «Транслитерация имен файлов» is on), while the config says transliterateFileNames: false',
        );
      });
    });
  });
});
