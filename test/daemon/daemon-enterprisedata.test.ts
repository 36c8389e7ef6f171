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
import { NODE, OUR_REPLY, PEER, PEER_MESSAGE, edCatalogItem, edMessage, edOrder } from '../helpers/enterprisedata.js';
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
        ).toEqual(['ЗП-1', 'ЗП-2', 'ЗП-3', 'ЗП-4']);
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
});
