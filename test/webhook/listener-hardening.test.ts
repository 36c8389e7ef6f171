/**
 * What an unauthenticated client can do to the listener before the signature check: send a request
 * line that is no URL, bytes that are not HTTP, a body past the limit, more connections than
 * allowed; and what a signed repeat with a different body does.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Counter } from 'prom-client';
import { getEvent } from '../../src/store/events.js';
import { findEventConflict } from '../../src/webhook/event-conflict.js';
import { waitUntil } from '../helpers/wait-until.js';
import { buildEvent, postWebhook, withListener } from '../helpers/with-listener.js';
import { captureLogger, holdConnection, rawExchange } from '../helpers/raw-client.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('webhook listener against malformed requests', () => {
  it('answers 400 WEBHOOK_REQUEST_INVALID to a request target that is no URL, with a warning and no stack', async () => {
    const { logger, lines } = captureLogger();
    await withListener({ deps: { logger } }, async ({ url }) => {
      const answer = await rawExchange(url, 'POST //[/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"code":"WEBHOOK_REQUEST_INVALID"');
      const logged = lines().filter((line) => line.code === 'WEBHOOK_REQUEST_INVALID');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 'warn', target: '//[/' });
      expect(lines().some((line) => line.level === 'error' || 'err' in line || JSON.stringify(line).includes('stack'))).toBe(false);
    });
  });

  it('counts it under its own code, not WEBHOOK_STORE_FAILED', async () => {
    const webhookEvents = new Counter({ name: 'connector_webhook_events_total', help: 'test', labelNames: ['outcome'] as const, registers: [] });
    await withListener({ deps: { metrics: { webhookEvents } } }, async ({ url }) => {
      await rawExchange(url, 'POST //[/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
      await rawExchange(url, 'NOT HTTP AT ALL\r\n\r\n');
    });
    const counted = (await webhookEvents.get()).values.map((v) => [v.labels.outcome, v.value]);
    expect(counted).toEqual([['WEBHOOK_REQUEST_INVALID', 2]]);
  });

  it('answers bytes that are not HTTP with 400 WEBHOOK_REQUEST_INVALID and a warning without the packet', async () => {
    const { logger, lines } = captureLogger();
    await withListener({ deps: { logger } }, async ({ url }) => {
      const answer = await rawExchange(url, 'GARBAGE x-service-signature: sha256=abc\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer).toContain('"code":"WEBHOOK_REQUEST_INVALID"');
      const logged = lines().find((line) => line.code === 'WEBHOOK_REQUEST_INVALID');
      expect(logged).toMatchObject({ level: 'warn' });
      expect(JSON.stringify(lines())).not.toContain('sha256=abc');
      expect(JSON.stringify(lines())).not.toContain('stack');
    });
  });
});

describe('webhook listener memory bounds', () => {
  it('takes 64 KiB by default and answers 413 to one byte more', async () => {
    await withListener({}, async ({ url }) => {
      const event = buildEvent();
      const json = JSON.stringify(event);
      const exact = json + ' '.repeat(64 * 1024 - json.length);
      expect((await postWebhook(url, event, { body: exact })).status).toBe(200);
      const over = await postWebhook(url, buildEvent(), { body: `${exact} ` });
      expect(over.status).toBe(413);
      expect(over.json).toMatchObject({ code: 'WEBHOOK_TOO_LARGE' });
    });
  });

  it('closes a connection that sends nothing, stops in its headers or dribbles its body, once its time is up', async () => {
    await withListener({ config: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 60_000 } }, async ({ url }) => {
      const path = new URL(url).pathname;
      const held = [
        holdConnection(url, ''),
        holdConnection(url, `POST ${path} HTTP/1.1\r\nHost: x\r\n`),
        holdConnection(url, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"eventId"`),
      ];
      try {
        await waitUntil(() => held.every((c) => c.closed), 'the three connections closed by the server', 10_000);
        for (const connection of held) expect(connection.received).toMatch(/^HTTP\/1\.1 408 /);
      } finally {
        await Promise.all(held.map((c) => c.close()));
      }
    });
  });

  it('closes connection N+1 while N idle connections are held, and takes new ones once one is gone', async () => {
    await withListener({ config: { maxConnections: 2, keepAliveTimeoutMs: 60_000 } }, async ({ url }) => {
      const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
      const held = [holdConnection(url, request), holdConnection(url, request)];
      try {
        await waitUntil(() => held.every((c) => c.received.startsWith('HTTP/1.1 200')), 'the two held connections answered');
        const third = holdConnection(url, request);
        await waitUntil(() => third.closed, 'connection 3 closed by the server');
        expect(third.received).toBe('');
        expect(held.every((c) => !c.closed)).toBe(true);
        await held[0]!.close();
        await waitUntil(
          async () => (await rawExchange(url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).startsWith('HTTP/1.1 200'),
          'a new connection served',
        );
      } finally {
        await Promise.all(held.map((c) => c.close()));
      }
    });
  });
});

describe('a repeated eventId', () => {
  it('findEventConflict: null for the same bytes, both SHA-256 hashes for different ones', () => {
    expect(findEventConflict('{"a":1}', '{"a":1}')).toBeNull();
    expect(findEventConflict('{"a":1}', '{"a": 1}')).toEqual({ storedSha256: sha256('{"a":1}'), receivedSha256: sha256('{"a": 1}') });
  });

  it('with a different body keeps the first, answers 200 and warns WEBHOOK_EVENT_CONFLICT with both hashes', async () => {
    const { logger, lines } = captureLogger();
    await withListener({ deps: { logger } }, async ({ url, db }) => {
      const first = buildEvent({ status: 'shipped' });
      const firstBody = JSON.stringify(first);
      expect((await postWebhook(url, first)).status).toBe(200);
      expect((await postWebhook(url, first)).status).toBe(200);
      expect(lines().filter((line) => line.code === 'WEBHOOK_EVENT_CONFLICT')).toEqual([]);

      const second = { ...first, status: 'cancelled' };
      const secondBody = JSON.stringify(second);
      const answer = await postWebhook(url, second);
      expect(answer).toMatchObject({ status: 200, json: { received: true } });
      expect(getEvent(db, first.eventId as string)?.body).toBe(firstBody);
      const conflicts = lines().filter((line) => line.code === 'WEBHOOK_EVENT_CONFLICT');
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({ level: 'warn', eventId: first.eventId, storedSha256: sha256(firstBody), receivedSha256: sha256(secondBody) });
    });
  });
});
