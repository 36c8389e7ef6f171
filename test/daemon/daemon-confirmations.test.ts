import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { FAST_DELIVERY, FAST_INTAKE_YAML, REPO, REQUESTS_FLOW, withDaemon, writeConfig } from '../helpers/with-daemon.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

const acks = (folder: string) => listFiles(folder).filter((n) => n.startsWith('ack-'));

describe('supplier confirmations through the same daemon', () => {
  it('confirms orders, and acknowledges an unknown order and a foreign line as rejected with the reason', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: buyer-token-1, sourceSystem: erp-test }
flows:${REQUESTS_FLOW}
  - name: confirmations
    kind: confirmations
    inbox: {dir}/confirmations
    mapping: {repo}/config/mappings/supplier-confirmations.yaml
    results: {dir}/confirmation-results
    token: supplier-token-2
${FAST_INTAKE_YAML}
${FAST_DELIVERY}
metrics: { enabled: false }
sandbox: { enabled: true, port: 0, demo: false, supplierToken: supplier-token-2 }
`,
      );
      await withDaemon(config, async (daemon) => {
        const sandbox = daemon.sandbox!;
        fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
        fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));
        await waitUntil(() => sandbox.orders().length === 3, 'three orders at the platform', 20_000);

        const results = path.join(dir, 'confirmation-results');
        fs.mkdirSync(path.join(dir, 'confirmations'), { recursive: true });
        fs.copyFileSync(path.join(REPO, 'samples/supplier-confirmation.csv'), path.join(dir, 'confirmations/confirm.csv'));
        await waitUntil(() => acks(results).length === 2, 'two confirmation acknowledgements', 20_000);
        expect(sandbox.order('ORD-2026-000001')!.status).toBe('confirmed');
        expect(sandbox.order('ORD-2026-000002')!.status).toBe('confirmed');
        expect(sandbox.order('ORD-2026-000003')!.status).toBe('created');
        const confirmCall = sandbox.calls().find((c) => c.path.includes('/supplier/orders/ORD-2026-000002/confirm'))!;
        expect(confirmCall.body).toMatchObject({
          supplierOrderId: 'П-7782',
          readyToShipDate: '2027-03-10',
          items: [
            { lineId: '1', confirmedQuantity: 1200, price: 48.9, currency: 'RUB' },
            { lineId: '2', confirmedQuantity: 300, price: 215, currency: 'RUB' },
          ],
        });
        expect(
          acks(results)
            .map((n) => fs.readFileSync(path.join(results, n), 'utf8'))
            .join('\n'),
        ).toContain('confirmed');

        const header = 'Заказ;Номер у поставщика;Готов к отгрузке;Комментарий;Строка;Количество;Цена;Валюта';
        fs.writeFileSync(
          path.join(dir, 'confirmations/bad.csv'),
          [header, 'ORD-2026-000099;П-1;01.02.2027;;1;1;10,00;RUB', 'ORD-2026-000003;П-3;01.02.2027;;99;1;10,00;RUB', ''].join('\n'),
        );
        await waitUntil(() => acks(results).length === 4, 'two more acknowledgements', 20_000);
        const texts = acks(results).map((n) => fs.readFileSync(path.join(results, n), 'utf8'));
        const unknown = texts.find((t) => t.includes('ORD-2026-000099'))!;
        expect(unknown).toContain('rejected');
        expect(unknown).toMatch(/404|not found|unknown/i);
        const foreign = texts.find((t) => t.includes('ORD-2026-000003'))!;
        expect(foreign).toContain('rejected');
        expect(foreign).toContain('items[0].lineId');
        expect(sandbox.order('ORD-2026-000003')!.status).toBe('created');
      });
    });
  });
});
