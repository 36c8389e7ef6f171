/**
 * 1C's data synchronization end to end: a test plays 1C's side of the exchange (as the Standard
 * Subsystems Library's folder transport does: it reads our reply, writes its own message over its
 * last one, numbers its messages and resends what we have not acknowledged) against the whole
 * daemon and its in-process sandbox platform; the console, `status` and the metrics show it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOutboxStatus } from '../../src/delivery/outbox-status.js';
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
async function write(folder: string, xml: string): Promise<void> {
  const file = path.join(folder, PEER_MESSAGE);
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
        type Attention = { flows: { flow: string; documents: { total: number; rows: { kind: string; documentNumber: string; changes: unknown[]; platformId: string | null }[] } }[] };
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
        const search = (await (await fetch(`${daemon.urls.admin}/flows/exchange-1c/requests?q=БПУТ-000001`, { headers: { accept: 'application/json' } })).json()) as {
          submissions: { externalId: string; documentNumber: string }[];
        };
        expect(search.submissions.map((r) => [r.externalId, r.documentNumber])).toEqual([[`ТДУТ-000012 ${refOf('jan-12')}`, 'БПУТ-000001']]);
      });
    });
  });
});
