import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../src/platform/client.js';
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
        expect(classifyOutcome({ kind: 'request', correction: false }, { type: 'error', error: dropped }, Date.now()).outcome).toBe('retry');
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
});
