/**
 * Webhook storm: 20,000 signed status events from concurrent senders, with 20 % repeats and 5 %
 * bad signatures, against the daemon's listener. Every good event ends up in the ERP import
 * folder exactly once, no bad one does, and no answer is a 5xx while the store is healthy.
 *
 * `export.mode: batch` on a 1 s cron: 20,000 per-event files would work too but would measure the
 * file system more than the connector, and an ERP that imports this much wants batches.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storePath } from '../../src/store/open-store.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { createRandom } from '../helpers/reliability/random.js';
import { SECRETS, filesIn, findSecrets, prepareDaemon } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';
import { sendAll, signed, statusEvent, type WebhookSend } from '../helpers/reliability/webhook-sender.js';

const GOOD = 20_000;
const REPEATS = GOOD * 0.2;
const BAD = Math.round(((GOOD + REPEATS) * 0.05) / 0.95); // 5 % of all sends

/** eventIds of the rows of every status file in `folder` (column "Событие", the 4th). */
function exportedEventIds(folder: string): string[] {
  const ids: string[] = [];
  for (const name of filesIn(folder)) {
    if (!name.endsWith('.csv')) continue;
    const lines = iconv
      .decode(fs.readFileSync(path.join(folder, name)), 'win1251')
      .split('\r\n')
      .filter((l) => l !== '');
    for (const line of lines.slice(1)) ids.push(line.split(';')[3]!);
  }
  return ids;
}

describe('reliability: webhook storm', () => {
  it('exports 20,000 good events once each through repeats and bad signatures, with no 5xx', async () => {
    const random = createRandom();
    const started = Date.now();
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, { export: { mode: 'batch', batchCron: '* * * * * *' } });
        const sends: WebhookSend[] = [];
        const good: WebhookSend[] = [];
        for (let n = 1; n <= GOOD; n += 1) {
          const eventId = `EVT-${String(n).padStart(6, '0')}`;
          const body = statusEvent(n, eventId);
          // A tenth is signed with the older of two rotated secrets: both must be accepted.
          good.push({ body, signature: signed(n % 10 === 0 ? SECRETS.webhookSecretOld : SECRETS.webhookSecret, body), kind: 'good', eventId });
        }
        sends.push(...good);
        for (let r = 0; r < REPEATS; r += 1) sends.push(good[random.between(0, GOOD - 1)]!);
        for (let b = 0; b < BAD; b += 1) {
          const eventId = `EVT-${String(900_000 + b).padStart(6, '0')}`;
          const body = statusEvent(900_000 + b, eventId);
          // Three kinds of bad: a wrong key, a signature of another body (tampered), a mangled header.
          const signature =
            b % 3 === 0
              ? signed('not-the-secret', body)
              : b % 3 === 1
                ? signed(SECRETS.webhookSecret, body.replace('shipped', 'delivered'))
                : `sha256=${'0'.repeat(63)}x`;
          sends.push({ body, signature, kind: 'bad', eventId });
        }
        for (let i = sends.length - 1; i > 0; i -= 1) {
          const j = random.between(0, i);
          [sends[i], sends[j]] = [sends[j]!, sends[i]!];
        }

        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          const sendStarted = Date.now();
          const results = await sendAll(`${daemon.webhookBase}/webhooks/service`, sends, { concurrency: 32, connections: 16 });
          const sendMs = Date.now() - sendStarted;

          const byStatus = new Map<string, number>();
          for (const r of results) byStatus.set(`${r.send.kind}:${r.status}`, (byStatus.get(`${r.send.kind}:${r.status}`) ?? 0) + 1);
          expect(Object.fromEntries(byStatus)).toEqual({ 'good:200': GOOD + REPEATS, 'bad:401': BAD });

          await waitUntil(() => exportedEventIds(layout.importFolder).length >= GOOD, 'every good event in the import folder', {
            timeoutMs: 120_000,
            intervalMs: 250,
          });
          expect(await daemon.stop()).toBe(0);
          expect(daemon.unexpectedExits).toBe(0);

          const exported = exportedEventIds(layout.importFolder);
          expect(exported).toHaveLength(GOOD);
          expect(new Set(exported).size).toBe(GOOD);
          expect(new Set(exported)).toEqual(new Set(good.map((g) => g.eventId)));

          const db = new Database(storePath(layout.stateDir), { readonly: true });
          try {
            expect(db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: GOOD });
            expect(db.prepare('SELECT state, COUNT(*) AS n FROM exports GROUP BY state').all()).toEqual([{ state: 'written', n: GOOD }]);
            expect(db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_id >= 'EVT-900000'").get()).toEqual({ n: 0 });
          } finally {
            db.close();
          }

          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          console.info(
            `[reliability webhook-storm] seed=${random.seed} sends=${sends.length} good=${GOOD} repeats=${REPEATS} bad=${BAD} ` +
              `statuses=${JSON.stringify(Object.fromEntries(byStatus))} files=${filesIn(layout.importFolder).length} sendMs=${sendMs} durationMs=${Date.now() - started}`,
          );
        });
      });
    });
  });
});
