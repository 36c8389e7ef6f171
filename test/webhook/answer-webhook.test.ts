/**
 * The request handler on its own, on a plain node:http server on port 0 over a real SQLite store:
 * what it answers, what it stores and what it counts, the listener's server and stop aside.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { webhookSchema } from '../../src/config/webhook-schema.js';
import { silentLogger } from '../../src/log.js';
import { countEvents } from '../../src/store/events.js';
import { openStore, type Db } from '../../src/store/open-store.js';
import { createWebhookAnswerer } from '../../src/webhook/answer-webhook.js';
import { parseAllowList } from '../../src/webhook/allow-from.js';
import { createEventBatcher } from '../../src/webhook/event-batcher.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { buildEvent, postWebhook, SECRET } from '../helpers/with-listener.js';

interface Answering {
  url: string;
  db: Db;
  counted: string[];
  setStopping(value: boolean): void;
}

async function withAnswerer<T>(fn: (ctx: Answering) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    const db = openStore(path.join(dir, 'state', 'connector.sqlite'));
    const config = webhookSchema.parse({ port: 0, secrets: [SECRET] });
    const counted: string[] = [];
    let stopping = false;
    const batcher = createEventBatcher({ db, now: Date.now });
    const answer = createWebhookAnswerer({
      policy: {
        path: config.path,
        allowList: parseAllowList(config.allowFrom),
        maxBodyBytes: config.maxBodyBytes,
        requireSignature: true,
        secrets: config.secrets,
      },
      batcher,
      drainLimits: { bytes: 1024, ms: 100 },
      log: silentLogger,
      count: (outcome) => void counted.push(outcome),
      stopping: () => stopping,
    });
    const server = http.createServer((req, res) => void answer(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await fn({ url: `http://127.0.0.1:${port}${config.path}`, db, counted, setStopping: (value) => (stopping = value) });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await batcher.drain();
      if (db.open) db.close();
    }
  });
}

describe('createWebhookAnswerer', () => {
  it('answers 200 once a signed event is stored, and counts it as new', async () => {
    await withAnswerer(async ({ url, db, counted }) => {
      const answer = await postWebhook(url, buildEvent());
      expect(answer).toMatchObject({ status: 200, json: { received: true } });
      expect(countEvents(db)).toBe(1);
      expect(counted).toHaveLength(1);
    });
  });

  it('keeps the first body of an event that comes again with another one, answers 200 and counts the conflict', async () => {
    await withAnswerer(async ({ url, db, counted }) => {
      const event = buildEvent();
      await postWebhook(url, event);
      const again = await postWebhook(url, { ...event, status: 'delivered' });
      expect(again.status).toBe(200);
      expect(countEvents(db)).toBe(1);
      expect(counted.at(-1)).toBe('WEBHOOK_EVENT_CONFLICT');
    });
  });

  it('refuses with 503 WEBHOOK_STOPPING and stores nothing once stopping', async () => {
    await withAnswerer(async ({ url, db, counted, setStopping }) => {
      setStopping(true);
      const answer = await postWebhook(url, buildEvent());
      expect(answer).toMatchObject({ status: 503, json: { received: false, code: 'WEBHOOK_STOPPING' } });
      expect(countEvents(db)).toBe(0);
      expect(counted).toEqual(['WEBHOOK_STOPPING']);
    });
  });

  it('answers 503 WEBHOOK_STORE_FAILED when the store cannot take the event', async () => {
    await withAnswerer(async ({ url, db, counted }) => {
      db.close();
      const answer = await postWebhook(url, buildEvent());
      expect(answer).toMatchObject({ status: 503, json: { received: false, code: 'WEBHOOK_STORE_FAILED' } });
      expect(counted).toEqual(['WEBHOOK_STORE_FAILED']);
    });
  });
});
