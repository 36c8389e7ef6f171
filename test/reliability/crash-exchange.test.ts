/**
 * 1C's data synchronization through SIGKILLs: the built daemon exchanges with a 1C played by the
 * test (`test/helpers/enterprisedata.ts`) and is killed at random moments while it reads 1C's
 * messages (a message in `processing/`, its orders staged; or just decided, its reply not yet
 * written), then started again on the same state. This 1C behaves as its folder transport does: it
 * reads our reply before each run, and its next message carries, besides its new orders, every
 * order of a message we have not acknowledged. In the end each order reached the platform exactly
 * once, under one Idempotency-Key, and our reply acknowledges 1C's last message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storePath } from '../../src/store/open-store.js';
import { NODE, OUR_REPLY, PEER, PEER_MESSAGE, edMessage, edOrder, edWithdrawal, refOf } from '../helpers/enterprisedata.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { expectEachOnceUnderOneKey } from '../helpers/reliability/outcome.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, prepareDaemon, rejectedFiles, rejectionReports } from '../helpers/reliability/setup.js';

const MESSAGES = 4;
const ORDERS_PER_MESSAGE = 600;

/** What our reply acknowledges, read as 1C reads it (0 before any). */
function acknowledged(folder: string): number {
  const file = path.join(folder, OUR_REPLY);
  if (!fs.existsSync(file)) return 0;
  return Number(/<msg:ReceivedNo>(\d+)</.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? 0);
}

describe('reliability: SIGKILL while 1C exchange messages are read', () => {
  it('each order delivered exactly once, and the last message acknowledged, whatever the kills', async () => {
    const random = createRandom();
    const run = `ED${random.seed.toString(36).toUpperCase()}`;
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, {
          mapping: path.resolve('config/mappings/enterprisedata-orders.yaml'),
          intake: { stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 200 },
          flow: { enterpriseData: { node: NODE, peer: PEER } },
        });
        const folder = layout.inbox;
        const processing = path.join(folder, 'processing');
        const message = path.join(folder, PEER_MESSAGE);
        /** Orders by the number of the message that first carried them, and every order 1C has. */
        const sentIn = new Map<number, string[]>();
        const orderXml = (id: string) => edOrder('1.8', { number: id, lines: [{ name: 'Бумага', quantity: '5' }] });
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          dropFile(folder, PEER_MESSAGE, edMessage({ version: null }));
          await waitUntil(() => fs.existsSync(path.join(folder, OUR_REPLY)), 'our settings', { timeoutMs: 30_000 });

          let killedMidMessage = 0;
          let no = 0;
          for (let m = 1; m <= MESSAGES; m += 1) {
            const fresh = Array.from({ length: ORDERS_PER_MESSAGE }, (_, i) => `${run}-${m}-${i}`);
            // 1C's run: it read our reply, forgets what that acknowledges, and resends the rest.
            const acked = acknowledged(folder);
            const unacknowledged = [...sentIn].filter(([n]) => n > acked).flatMap(([, ids]) => ids);
            no += 1;
            sentIn.set(no, fresh);
            dropFile(folder, PEER_MESSAGE, edMessage({ no, received: 0, body: [...unacknowledged, ...fresh].map(orderXml) }));
            const taken = () => filesIn(processing).length > 0;
            await waitUntil(() => taken() || !fs.existsSync(message), `message ${no} taken`, { timeoutMs: 30_000, intervalMs: 2 });
            await sleep(random.between(0, 60));
            if (taken()) killedMidMessage += 1;
            await daemon.kill();
            await daemon.start();
          }
          // 1C's last run: whatever is still unacknowledged, once our reply says what it says after recovery.
          await waitUntil(() => filesIn(processing).length === 0 && !fs.existsSync(message), 'the last message taken', { timeoutMs: 60_000 });
          const acked = acknowledged(folder);
          const rest = [...sentIn].filter(([n]) => n > acked).flatMap(([, ids]) => ids);
          no += 1;
          dropFile(folder, PEER_MESSAGE, edMessage({ no, body: rest.map(orderXml) }));
          const total = MESSAGES * ORDERS_PER_MESSAGE;
          await waitUntil(() => acknowledged(folder) === no && sandbox.requests().length >= total, 'every order delivered and the last message acknowledged', {
            timeoutMs: 180_000,
            intervalMs: 200,
          });
          expect(daemon.unexpectedExits).toBe(0);
          expect(killedMidMessage, 'at least one kill landed while a message was still being read').toBeGreaterThan(0);
          expect(await daemon.stop()).toBe(0);

          expectEachOnceUnderOneKey(
            sandbox,
            [...sentIn.values()].flat().map((id) => `${id} ${refOf(id)}`),
          );
          expect(rejectedFiles(folder), `seed=${random.seed} ${rejectionReports(folder)}`).toEqual([]);
          expect(archivedFiles(folder).length).toBeGreaterThanOrEqual(MESSAGES + 2);
          const db = new Database(storePath(layout.stateDir), { readonly: true, fileMustExist: true });
          try {
            expect(db.prepare('SELECT last_taken_no, acknowledged_no, reply_due FROM exchanges').get()).toEqual({
              last_taken_no: no,
              acknowledged_no: no,
              reply_due: 0,
            });
          } finally {
            db.close();
          }
          console.info(`[reliability exchange] seed=${random.seed} killedMidMessage=${killedMidMessage}/${MESSAGES} starts=${daemon.starts}`);
        });
      });
    });
  });

  it('a message with an edit and a withdrawal of sent orders, killed while taken: one notice each, no second request, the message acknowledged', async () => {
    const random = createRandom();
    const run = `EW${random.seed.toString(36).toUpperCase()}`;
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, {
          mapping: path.resolve('config/mappings/enterprisedata-orders.yaml'),
          intake: { stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 200 },
          flow: { enterpriseData: { node: NODE, peer: PEER } },
        });
        const folder = layout.inbox;
        const processing = path.join(folder, 'processing');
        const message = path.join(folder, PEER_MESSAGE);
        const orders = Array.from({ length: 800 }, (_, i) => `${run}-${i}`);
        const orderXml = (id: string, quantity = '5') => edOrder('1.8', { number: id, lines: [{ name: 'Бумага', quantity }] });
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          dropFile(folder, PEER_MESSAGE, edMessage({ version: null }));
          await waitUntil(() => fs.existsSync(path.join(folder, OUR_REPLY)), 'our settings', { timeoutMs: 30_000 });
          dropFile(folder, PEER_MESSAGE, edMessage({ no: 1, body: orders.map((id) => orderXml(id)) }));
          await waitUntil(() => acknowledged(folder) === 1 && sandbox.requests().length === orders.length, 'every order sent', {
            timeoutMs: 120_000,
            intervalMs: 200,
          });

          // 1C's next run: the first half edited (more paper), the second half withdrawn, in one
          // message large enough to be recorded in chunks; the daemon is killed while it reads it.
          const half = orders.length / 2;
          const body = [...orders.slice(0, half).map((id) => orderXml(id, '7')), ...orders.slice(half).map((id) => edWithdrawal(refOf(id)))];
          dropFile(folder, PEER_MESSAGE, edMessage({ no: 2, received: 1, body }));
          let killedMidMessage = 0;
          for (let kill = 0; kill < 3; kill += 1) {
            await waitUntil(() => filesIn(processing).length > 0 || !fs.existsSync(message), 'the message taken', { timeoutMs: 30_000, intervalMs: 2 });
            await sleep(random.between(0, 40));
            if (filesIn(processing).length > 0) killedMidMessage += 1;
            await daemon.kill();
            await daemon.start();
          }
          await waitUntil(() => acknowledged(folder) === 2 && filesIn(processing).length === 0, 'message 2 acknowledged', {
            timeoutMs: 60_000,
            intervalMs: 100,
          });
          expect(daemon.unexpectedExits).toBe(0);
          expect(await daemon.stop()).toBe(0);

          expectEachOnceUnderOneKey(
            sandbox,
            orders.map((id) => `${id} ${refOf(id)}`),
          );
          expect(sandbox.requests().every((r) => r.body.items[0]!.quantity === 5)).toBe(true);
          const db = new Database(storePath(layout.stateDir), { readonly: true, fileMustExist: true });
          try {
            const open = db.prepare(`SELECT kind, COUNT(*) AS n FROM document_notices WHERE resolved_at IS NULL GROUP BY kind ORDER BY kind`).all();
            expect(open).toEqual([
              { kind: 'edited', n: half },
              { kind: 'withdrawn', n: half },
            ]);
            expect(db.prepare(`SELECT COUNT(*) AS n FROM submissions WHERE state != 'accepted'`).get()).toEqual({ n: 0 });
          } finally {
            db.close();
          }
          console.info(`[reliability exchange edits] seed=${random.seed} killedMidMessage=${killedMidMessage}/3 starts=${daemon.starts}`);
        });
      });
    });
  });
});
