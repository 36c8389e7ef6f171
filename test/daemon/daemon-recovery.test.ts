import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, storePath } from '../../src/store/open-store.js';
import { claimFile } from '../../src/store/files.js';
import { insertSubmission } from '../../src/store/submissions.js';
import { claimDueSubmissions } from '../../src/store/outbox.js';
import { enqueueExport, STATUS_CHANNEL } from '../../src/store/exports.js';
import type { Config } from '../../src/config/schema.js';
import type Database from 'better-sqlite3';
import { withTempDir } from '../helpers/temp-dir.js';
import { keysByExternalId, withSandbox } from '../helpers/with-sandbox.js';
import { FAST_DELIVERY, FAST_INTAKE_YAML, REPO, withDaemon, writeConfig } from '../helpers/with-daemon.js';
import { waitUntil } from '../helpers/wait-until.js';
import { listFiles } from '../helpers/files.js';

function configFor(dir: string, baseUrl: string, extra = ''): Config {
  return writeConfig(
    dir,
    `
stateDir: {dir}/state
platform: { baseUrl: "${baseUrl}", token: sandbox-token, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: {repo}/config/mappings/1c-requests.yaml
    results: {dir}/results
${FAST_INTAKE_YAML}
${FAST_DELIVERY}
webhook: { port: 0, secrets: [recovery-secret] }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { enabled: false }
shutdownTimeoutMs: 2000
${extra}
`,
  );
}

/** Each externalId the sandbox saw, with the set of Idempotency-Keys it came under. */
describe('the daemon across stops and crashes', () => {
  it('a stop in the middle of delivery loses nothing, and the next run sends each request once under its key', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({ faults: { create: { latencyMs: 400 } } }, async (sandbox) => {
        const config = configFor(dir, sandbox.url);
        await withDaemon(config, async (daemon) => {
          fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
          fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));
          await waitUntil(() => sandbox.calls().some((c) => c.status === null), 'a submission in flight', 20_000);
          await daemon.stop(); // what SIGTERM does
        });
        const db = openStore(storePath(config.stateDir));
        const states = db.prepare('SELECT state, count(*) AS n FROM submissions GROUP BY state').all() as { state: string; n: number }[];
        db.close();
        expect(states.reduce((sum, s) => sum + s.n, 0)).toBe(3);
        expect(states.find((s) => s.state === 'in_flight')).toBeUndefined();

        sandbox.setFaults({});
        const accepted = (db: Database.Database) => (db.prepare("SELECT count(*) AS n FROM submissions WHERE state = 'accepted'").get() as { n: number }).n;
        await withDaemon(config, async (daemon) => {
          await waitUntil(() => accepted(daemon.db) === 3, 'all three accepted after the restart', 20_000);
        });
        expect(sandbox.requests()).toHaveLength(3);
        for (const [externalId, keys] of keysByExternalId(sandbox)) expect(keys.size, externalId).toBe(1);
      });
    });
  });

  it('a start after a crash finishes the work the crash left: files in processing/, rows in flight, unwritten exports', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = configFor(dir, sandbox.url);
        const now = Date.now();
        // The state a crash leaves behind, made with the store's own functions.
        const db = openStore(storePath(config.stateDir));
        const sample = fs.readFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'));
        const processing = path.join(dir, 'inbox/processing');
        fs.mkdirSync(processing, { recursive: true });
        const claim = claimFile(
          db,
          { flow: 'requests', sha256: createHash('sha256').update(sample).digest('hex'), originalName: 'requests.csv', sizeBytes: sample.length, now },
          (id, name) => path.join(processing, `${id}-${name}`),
        );
        if (!claim.ok) throw new Error('claim failed');
        fs.writeFileSync(claim.row.currentPath!, sample);
        const payload = {
          externalId: 'CRASH-1',
          customer: { inn: '7707083893', name: 'ООО Ромашка' },
          contact: { name: 'Иван', email: 'ivan@example.ru' },
          delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2030-01-10' },
          items: [{ lineId: '1', name: 'Болт', quantity: 5, unit: 'шт' }],
        };
        insertSubmission(db, {
          flow: 'requests',
          kind: 'request',
          dedupeKey: 'CRASH-1',
          externalId: 'CRASH-1',
          payload: JSON.stringify(payload),
          payloadHash: 'h',
          idempotencyKey: 'erp-test:CRASH-1',
          now,
        });
        expect(claimDueSubmissions(db, { flow: 'requests', now, leaseMs: 3_600_000, limit: 10 })).toHaveLength(1);
        enqueueExport(db, {
          channel: STATUS_CHANNEL,
          sourceKey: 'EVT-000042',
          record: { eventId: 'EVT-000042', orderId: 'ORD-2026-000042', status: 'shipped', eventDate: '2026-11-21T10:00:00+03:00' },
          now,
        });
        db.close();

        await withDaemon(config, async () => {
          await waitUntil(() => sandbox.requests().length === 4, 'the in-flight row and the file’s three requests delivered', 20_000);
          await waitUntil(() => listFiles(path.join(dir, 'import')).length === 1, 'the unwritten status export written', 20_000);
          await waitUntil(() => listFiles(processing).length === 0 && listFiles(path.join(dir, 'inbox/archive')).length === 1, 'the file finished', 20_000);
        });
        expect(
          sandbox
            .requests()
            .map((r) => r.externalId)
            .sort(),
        ).toEqual(['CRASH-1', 'ЗК-000101', 'ЗК-000102', 'ЗК-000103']);
      });
    });
  });
});
