/**
 * An operator's action is answered only once its commit is on disk: the console, on a real store
 * file and a real HTTP server, with the store's group commit held back by the test.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsole } from '../../../src/admin/console/create-console.js';
import { consoleSchema } from '../../../src/config/console-schema.js';
import { flowSchema } from '../../../src/config/flow-schema.js';
import { silentLogger } from '../../../src/log.js';
import { openStore, storePath } from '../../../src/store/open-store.js';
import { validRequest } from '../../helpers/fixtures.js';
import { addRequestRow } from '../../helpers/store.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { REPO } from '../../helpers/with-daemon.js';
import { form, send, signIn, type Answer } from '../../helpers/console/http.js';

const PASSWORD = 'operator-secret';

interface HeldWait {
  /** The submission's state when the wait began. */
  stateThen: string;
  release: () => void;
}

interface HeldConsole {
  url: string;
  dir: string;
  rowId: number;
  /** Each call of `durable()`, held until the test releases it. */
  waits: HeldWait[];
  session: { cookie: string; csrfToken: string };
}

/** The console on a real store file and a real HTTP server, its `durable()` held by the test. */
async function withHeldConsole(fn: (c: HeldConsole) => Promise<void>): Promise<void> {
  await withTempDir(async (dir) => {
    const db = openStore(storePath(dir));
    const rowId = addRequestRow(db, 'requests', validRequest('R-1'));
    db.prepare(`UPDATE submissions SET state = 'dead' WHERE id = ?`).run(rowId);
    const stateOf = () => (db.prepare('SELECT state FROM submissions WHERE id = ?').get(rowId) as { state: string }).state;
    const mapping = path.join(dir, 'mapping.yaml');
    fs.copyFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), mapping);

    const waits: HeldWait[] = [];
    const handler = createConsole({
      db,
      config: consoleSchema.parse({ password: PASSWORD, language: 'en' }),
      listenerHost: '127.0.0.1',
      flows: [flowSchema.parse({ name: 'requests', kind: 'requests', inbox: path.join(dir, 'inbox'), mapping, results: path.join(dir, 'results') })],
      metrics: { webhookEvents: { inc: () => undefined } } as never,
      readiness: () => Promise.resolve({ ready: true, reasons: [] }),
      operator: {
        retakeFile: () => Promise.reject(new Error('not in this test')),
        resumeFlow: () => false,
        flowGate: () => undefined,
        wakeDelivery: () => undefined,
        reloadMappings: () => ({ ok: true }),
      },
      logger: silentLogger,
      clock: Date.now,
      webhook: null,
      exportChannels: [],
      durable: () => new Promise<void>((release) => waits.push({ stateThen: stateOf(), release })),
    });
    const server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await fn({ url, dir, rowId, waits, session: await signIn(url, PASSWORD, 'Анна') });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    }
  });
}

/** Send, and wait until the console asks for `durable()`: the answer must not have come meanwhile. */
async function heldAnswer(c: HeldConsole, request: Promise<Answer>): Promise<{ wait: HeldWait; answer: Promise<Answer> }> {
  let answered = false;
  const answer = request.finally(() => (answered = true));
  const deadline = Date.now() + 5_000;
  while (c.waits.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(c.waits).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(answered).toBe(false);
  return { wait: c.waits[0]!, answer };
}

describe('console actions and the group commit', () => {
  it('answers a retry only after durable() resolves, and calls it after the requeue is committed', async () => {
    await withHeldConsole(async (c) => {
      const { cookie, csrfToken } = c.session;
      const request = send(`${c.url}/flows/requests/requests/R-1/retry`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrfToken, accept: 'application/json' },
      });
      const { wait, answer } = await heldAnswer(c, request);
      expect(wait.stateThen).toBe('pending');
      wait.release();
      const done = await answer;
      expect(done.status).toBe(200);
      expect(done.json()).toMatchObject({ audit: { action: 'retry-submission', target: 'R-1', result: 'ok' } });
    });
  });

  it('answers a saved mapping only after durable() resolves (its audit entry is on disk)', async () => {
    await withHeldConsole(async (c) => {
      const { cookie, csrfToken } = c.session;
      const yaml = fs.readFileSync(path.join(c.dir, 'mapping.yaml'), 'utf8');
      const { body, headers } = form({ flow: 'requests', yaml, _csrf: csrfToken });
      const request = send(`${c.url}/mapping/save`, { method: 'POST', body, headers: { ...headers, cookie, accept: 'application/json' } });
      const { wait, answer } = await heldAnswer(c, request);
      wait.release();
      const done = await answer;
      expect(done.status).toBe(200);
      expect(done.json()).toMatchObject({ saved: true, audit: { action: 'save-mapping', result: 'ok' } });
    });
  });
});
