/** The requests in flight that a stop waits for, on a plain node:http server on port 0. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { trackOpenRequests } from '../../src/webhook/open-requests.js';

async function withServer<T>(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  fn: (url: string, counted: string[], requests: ReturnType<typeof trackOpenRequests>) => Promise<T>,
): Promise<T> {
  const counted: string[] = [];
  const requests = trackOpenRequests({
    handle,
    log: silentLogger,
    count: (outcome) => void counted.push(outcome),
    stopping: () => false,
    closeIdleConnections: () => undefined,
  });
  const server = http.createServer(requests.onRequest);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await fn(`http://127.0.0.1:${port}/`, counted, requests);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('trackOpenRequests', () => {
  it('answers 500 WEBHOOK_INTERNAL_ERROR for a handler that fails, and counts it', async () => {
    await withServer(
      () => Promise.reject(new Error('a bug of ours')),
      async (url, counted) => {
        const answer = await fetch(url, { method: 'POST', body: '{}' });
        expect(answer.status).toBe(500);
        expect(await answer.json()).toMatchObject({ received: false, code: 'WEBHOOK_INTERNAL_ERROR' });
        expect(counted).toEqual(['WEBHOOK_INTERNAL_ERROR']);
      },
    );
  });

  it('settled() waits for the handlers in flight', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    await withServer(
      async (_req, res) => {
        await held;
        res.end('done');
        finished = true;
      },
      async (url, _counted, requests) => {
        const answer = fetch(url);
        await expect.poll(() => requests.unfinished).toBe(1);
        const settled = requests.settled();
        release();
        await settled;
        expect(finished).toBe(true);
        expect((await answer).status).toBe(200);
        await expect.poll(() => requests.unfinished).toBe(0);
      },
    );
  });
});
