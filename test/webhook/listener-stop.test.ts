/** Stopping: requests in flight finish, webhooks that arrive while stopping get 503 and are not stored. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { signBody } from '../../src/webhook/verify-signature.js';
import { buildEvent, countRows, withListener, SECRET } from './with-listener.js';
import { waitFor } from '../export/with-exporter.js';

describe('webhook listener stop', () => {
  it('finishes the request in flight, answers 503 to a webhook arriving while stopping, and closes the connection', async () => {
    let release: (() => void) | null = null;
    const readiness = () =>
      new Promise<{ ready: boolean; reasons: string[] }>((resolve) => {
        release = () => resolve({ ready: true, reasons: [] });
      });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(line) } });
    await withListener({ deps: { readiness, logger } }, async ({ listener, db }) => {
      const socket = net.connect(listener.address!.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
      await waitFor(() => release !== null, 'the /readyz request to be in flight');

      const stopped = listener.stop();
      const body = JSON.stringify(buildEvent());
      socket.write(
        `POST /webhooks/service HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${signBody(SECRET, body)}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await waitFor(() => lines.some((line) => line.includes('the listener is stopping')), 'the webhook to be refused');
      release!();
      await stopped;
      await closed;

      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([200, 503]);
      expect(received.match(/connection: close/gi)).toHaveLength(1); // the 503
      expect(countRows(db, 'events')).toBe(0);
    });
  });
});
