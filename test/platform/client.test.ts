import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AttemptTimeoutError, createPlatformClient, ResponseTooLargeError } from '../../src/platform/client.js';
import { classifyOutcome } from '../../src/platform/classify-failure.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { validConfirmation, validRequest } from '../helpers/fixtures.js';

describe('platform client', () => {
  it('sends the contract headers: a fresh X-Request-Id per attempt, the same Idempotency-Key on each', () =>
    withSandbox({}, async (sandbox) => {
      const client = createPlatformClient({ baseUrl: `${sandbox.url}/` });
      try {
        const a = await client.createRequest(sandbox.token, validRequest('C-1'), { idempotencyKey: 'key-1' });
        const b = await client.createRequest(sandbox.token, JSON.stringify(validRequest('C-1')), { idempotencyKey: 'key-1' });
        expect([a.status, b.status]).toEqual([201, 201]);
        expect(b.headers['idempotent-replayed']).toBe('true');
        expect(a.requestId).not.toBe(b.requestId);
        const calls = sandbox.calls();
        expect(calls.map((c) => c.headers['x-request-id'])).toEqual([a.requestId, b.requestId]);
        expect(calls.map((c) => c.headers['idempotency-key'])).toEqual(['key-1', 'key-1']);
        expect(a.headers['x-request-id']).toBe(a.requestId);
        expect(calls[0]!.path).toBe('/api-gateway/api/v1/<token>/requests');
      } finally {
        await client.close();
      }
    }));

  it('posts confirmations to the supplier confirm path of the order', () =>
    withSandbox({}, async (sandbox) => {
      const client = createPlatformClient({ baseUrl: sandbox.url });
      try {
        const r = await client.confirmOrder(sandbox.supplierToken, 'ORD-2026-000404', validConfirmation(), { idempotencyKey: 'c-1', requestId: 'fixed-id' });
        expect(r.status).toBe(404);
        expect(r.requestId).toBe('fixed-id');
        expect(sandbox.calls()[0]!.path).toBe('/api-gateway/api/v1/<token>/supplier/orders/ORD-2026-000404/confirm');
      } finally {
        await client.close();
      }
    }));

  it('throws on a dropped connection and on a headers timeout; both classify as retry', () =>
    withSandbox({ faults: { create: { drop: 1 } } }, async (sandbox) => {
      const client = createPlatformClient({ baseUrl: sandbox.url, headersTimeoutMs: 100 });
      try {
        const dropped = await client.createRequest(sandbox.token, validRequest('C-2'), { idempotencyKey: 'k2' }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(dropped).toBeInstanceOf(Error);
        expect(classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'error', error: dropped }, Date.now()).outcome).toBe(
          'retry',
        );
        sandbox.setFaults({ create: { latencyMs: 2_000 } });
        const slow = await client.createRequest(sandbox.token, validRequest('C-3'), { idempotencyKey: 'k3' }).then(
          () => null,
          (e: unknown) => e as { code?: string },
        );
        expect(slow?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
      } finally {
        await client.close();
      }
    }));

  it('aborts a request in flight through its signal', () =>
    withSandbox({ faults: { create: { latencyMs: 2_000 } } }, async (sandbox) => {
      const client = createPlatformClient({ baseUrl: sandbox.url });
      try {
        const abort = new AbortController();
        const pending = client.createRequest(sandbox.token, validRequest('C-4'), { idempotencyKey: 'k4', signal: abort.signal });
        abort.abort();
        await expect(pending).rejects.toThrow();
      } finally {
        await client.close();
        await client.close();
      }
    }));

  it('abandons an answer longer than maxResponseBytes, declared or not, and keeps reading answers after it', () =>
    withHostilePlatform(async (url) => {
      const client = createPlatformClient({ baseUrl: url, maxResponseBytes: 64 * 1024 });
      try {
        for (const path of ['/declared', '/chunked']) {
          const error = await client.createRequest(path.slice(1), validRequest('C-5'), { idempotencyKey: 'k5' }).then(
            () => null,
            (e: unknown) => e as { code?: string },
          );
          expect(error, path).toBeInstanceOf(ResponseTooLargeError);
          const c = classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'error', error }, Date.now());
          expect(c, path).toMatchObject({ outcome: 'retry', code: 'PLATFORM_UNAVAILABLE' });
          expect(c.reason, path).toContain('PLATFORM_RESPONSE_TOO_LARGE');
        }
        expect((await client.createRequest('small', validRequest('C-6'), { idempotencyKey: 'k6' })).status).toBe(201);
      } finally {
        await client.close();
      }
    }));

  it('reads an answer that comes in pieces after an informational one, and fails one cut short', () =>
    withHostilePlatform(async (url) => {
      const client = createPlatformClient({ baseUrl: url });
      try {
        const answer = await client.createRequest('split', validRequest('C-9'), { idempotencyKey: 'k9' });
        expect(answer).toMatchObject({ status: 201, body: SPLIT_BODY });
        expect(answer.headers['content-type']).toBe('application/json');
        const error = await client.createRequest('cut', validRequest('C-10'), { idempotencyKey: 'k10' }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(Error);
        expect(classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'error', error }, Date.now()).outcome).toBe('retry');
      } finally {
        await client.close();
      }
    }));

  it('gives up on an answer that trickles in within bodyTimeoutMs but never ends, after attemptTimeoutMs in all', () =>
    withHostilePlatform(async (url) => {
      const client = createPlatformClient({ baseUrl: url, bodyTimeoutMs: 500, attemptTimeoutMs: 400 });
      try {
        const started = Date.now();
        const error = await client.createRequest('trickle', validRequest('C-7'), { idempotencyKey: 'k7' }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(AttemptTimeoutError);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'error', error }, Date.now()).outcome).toBe('retry');
        // The caller's own abort stays an abort, not a timeout.
        const abort = new AbortController();
        const pending = client.createRequest('trickle', validRequest('C-8'), { idempotencyKey: 'k8', signal: abort.signal });
        setTimeout(() => abort.abort(), 50);
        await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      } finally {
        await client.close();
      }
    }));
});

const SPLIT_BODY = JSON.stringify({ id: 'PRC-REQ-000002', externalId: 'C-9', status: 'accepted', comment: 'Заявка принята' });

/**
 * A platform that answers badly on purpose, on a real port: `/declared` a 2 MiB body with its
 * length, `/chunked` the same without one, `/trickle` a byte every 50 ms for ever, `/split` a 103
 * then a 201 whose body comes three bytes at a time, `/cut` a body that ends before its length,
 * `/small` a normal 201. Paths are matched on their end (the client prefixes the API path and the token).
 */
async function withHostilePlatform(fn: (url: string) => Promise<void>): Promise<void> {
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    req.resume();
    const url = req.url ?? '';
    const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
    if (url.includes('/declared/')) {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': big.length });
      res.end(big);
    } else if (url.includes('/chunked/')) {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(big);
    } else if (url.includes('/split/')) {
      // An informational answer first, then the body a few bytes at a time: Cyrillic letters
      // (two bytes each in UTF-8) cut between writes.
      res.writeEarlyHints({ link: '</status>; rel=preload' });
      res.writeHead(201, { 'content-type': 'application/json' });
      const bytes = Buffer.from(SPLIT_BODY, 'utf8');
      let at = 0;
      const timer = setInterval(() => {
        if (at >= bytes.length) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(bytes.subarray(at, at + 3));
        at += 3;
      }, 1);
      timers.add(timer);
    } else if (url.includes('/cut/')) {
      // Promises 100 bytes, sends 10, and hangs up.
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': 100 });
      res.write('{"id":"PRC');
      setTimeout(() => res.destroy(), 20);
    } else if (url.includes('/trickle/')) {
      res.writeHead(201, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'PRC-REQ-000001', externalId: 'C-6', status: 'accepted', createdAt: '2026-06-12T10:00:00+03:00' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
