/**
 * Short secrets never rewrite data. A platform token, a webhook secret and a console password are
 * kept out of the log, but a value the daemon exports or stores is the ERP's or the platform's, and
 * a secret that reads like part of one (`0001` in `ЗК-000101`, `ORD-2026-000001`) must leave it as
 * it is: in the acknowledgement files and their names, in the status files, in the store and on the
 * console. Only the log may hide a secret.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storePath } from '../../src/store/open-store.js';
import { listFiles } from '../helpers/files.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { FAST_DELIVERY, REPO, REQUESTS_FLOW, withDaemon, writeConfig } from '../helpers/with-daemon.js';

describe('short secrets of every kind', () => {
  it('leave every exported and stored value intact', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: "0001", sourceSystem: erp-test }
flows:${REQUESTS_FLOW}
${FAST_DELIVERY}
webhook: { port: 0, secrets: ["00"] }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { port: 0 }
console: { password: "0101", language: en }
sandbox: { enabled: true, port: 0, demo: false }
`,
      );
      await withDaemon(config, async (daemon) => {
        const sandbox = daemon.sandbox!;
        fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
        fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));
        const imports = () => listFiles(path.join(dir, 'import'));
        await waitUntil(() => imports().filter((n) => n.startsWith('ack-')).length === 3, 'three acknowledgements', 20_000);

        const externalIds = sandbox.requests().map((r) => r.externalId);
        expect(externalIds.sort()).toEqual(['ЗК-000101', 'ЗК-000102', 'ЗК-000103']);
        const order = sandbox.requests()[0]!.order!;
        expect(order.id).toMatch(/0001/);
        sandbox.setOrderStatus(order.id, 'shipped');
        await waitUntil(() => imports().some((n) => n.startsWith('order-status-')), 'a status file', 20_000);

        // The files and their names, as the platform and the ERP wrote the values.
        const names = imports();
        for (const externalId of externalIds) expect(names.some((n) => n.startsWith(`ack-${externalId}-`))).toBe(true);
        const text = names.map((n) => iconv.decode(fs.readFileSync(path.join(dir, 'import', n)), 'windows-1251')).join('\n');
        for (const externalId of externalIds) expect(text).toContain(externalId);
        expect(text).toContain(order.id);
        expect([...names, text].join('\n')).not.toContain('REDACTED');

        // The console shows them as they are.
        const json = await (await fetch(`${daemon.urls.admin}/flows/requests/requests`, { headers: { accept: 'application/json' } })).text();
        for (const externalId of externalIds) expect(json).toContain(externalId);
        expect(json).not.toContain('REDACTED');
      });

      // And the store holds them as they are.
      const db = new Database(storePath(path.join(dir, 'state')), { readonly: true, fileMustExist: true });
      try {
        const stored = db.prepare('SELECT external_id AS externalId, payload, result, platform_id AS platformId FROM submissions').all() as Record<
          string,
          string
        >[];
        expect(stored.map((row) => row.externalId).sort()).toEqual(['ЗК-000101', 'ЗК-000102', 'ЗК-000103']);
        const all = JSON.stringify([stored, db.prepare('SELECT * FROM events').all(), db.prepare('SELECT record, file_name FROM exports').all()]);
        expect(all).not.toContain('REDACTED');
        expect(all).toContain('ORD-');
      } finally {
        db.close();
      }
    });
  });
});
