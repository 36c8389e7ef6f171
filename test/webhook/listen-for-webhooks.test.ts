import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { listenForWebhooks } from '../../src/webhook/listener-server.js';

async function closing<T>(servers: http.Server[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    for (const server of servers) if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('listenForWebhooks', () => {
  it('resolves with the URL of the bound address and path', async () => {
    const server = http.createServer();
    await closing([server], async () => {
      const url = await listenForWebhooks(server, { host: '127.0.0.1', port: 0, path: '/webhooks/procurement' }, silentLogger);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/procurement$/);
      expect(new URL(url).port).toBe(String((server.address() as { port: number }).port));
    });
  });

  it('rejects when the address is taken', async () => {
    const first = http.createServer();
    const second = http.createServer();
    await closing([first, second], async () => {
      const url = await listenForWebhooks(first, { host: '127.0.0.1', port: 0, path: '/' }, silentLogger);
      const port = Number(new URL(url).port);
      await expect(listenForWebhooks(second, { host: '127.0.0.1', port, path: '/' }, silentLogger)).rejects.toMatchObject({
        code: 'PORT_UNAVAILABLE',
        details: { key: 'webhook.port', port, errno: 'EADDRINUSE' },
      });
    });
  });
});
