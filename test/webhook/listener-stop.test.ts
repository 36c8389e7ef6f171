/** Stopping: requests in flight finish, webhooks that arrive while stopping get 503 and are not stored. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { buildEvent, countRows, withListener, SECRET } from '../helpers/with-listener.js';
import { waitUntil } from '../helpers/wait-until.js';

function post(body: string): string {
  return (
    `POST /webhooks/service HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${signWebhookBody(SECRET, body)}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`
  );
}

describe('webhook listener stop', () => {
  it('finishes the request in flight, answers 503 WEBHOOK_STOPPING to a webhook arriving while stopping, and closes the connection', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
    await withListener({ deps: { logger } }, async ({ listener, db }) => {
      const socket = net.connect(listener.address!.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));

      // A webhook whose body is still on its way when the stop begins.
      const inFlight = JSON.stringify(buildEvent());
      socket.write(post(inFlight) + inFlight.slice(0, 10));
      await waitUntil(() => lines.some((line) => line.includes('webhook request received')), 'the first webhook to be in flight');
      const stopped = listener.stop();

      // The rest of its body, then a second webhook on the same connection, arriving while stopping.
      const late = JSON.stringify(buildEvent());
      socket.write(inFlight.slice(10) + post(late) + late);
      await waitUntil(() => lines.some((line) => line.includes('the listener is stopping')), 'the second webhook to be refused');
      await stopped;
      await closed;

      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([200, 503]);
      expect(received).toContain('"code":"WEBHOOK_STOPPING"');
      expect(received.match(/connection: close/gi)).toHaveLength(1); // the 503
      expect(countRows(db, 'events')).toBe(1);
    });
  });

  it('logs the events already stored as the stop begins, not only once the requests still open have finished', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });
    const storedLines = () => lines.filter((line) => line.includes('webhook event(s) stored'));
    await withListener({ deps: { logger } }, async ({ listener, url }) => {
      // A webhook whose body never finishes keeps the stop waiting.
      const socket = net.connect(listener.address!.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const held = JSON.stringify(buildEvent());
      socket.write(post(held) + held.slice(0, 10));
      await waitUntil(() => lines.some((line) => line.includes('webhook request received')), 'the held webhook to be in flight');
      const stored = buildEvent();
      const body = JSON.stringify(stored);
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signWebhookBody(SECRET, body) },
        body,
      });
      expect(answer.status).toBe(200);
      // Its line a second is not due yet; the stop writes it at once.
      expect(storedLines()).toEqual([]);
      const stopped = listener.stop();
      expect(storedLines()).toHaveLength(1);
      expect(storedLines()[0]).toContain(String(stored.eventId));
      socket.destroy();
      await stopped;
    });
  });
});
