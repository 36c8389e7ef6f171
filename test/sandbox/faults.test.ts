import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '../../src/platform/contract.js';
import { pickFault, seededRandom, FaultInjector } from '../../src/sandbox/faults.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { createUrl, post, withReceiver, createAccepted } from '../helpers/sandbox-calls.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('fault draws (pure)', () => {
  const faults = { status500: 0.1, status503: 0.2, status429: 0.1, drop: 0.1, dropAfterCommit: 0.1, latencyMs: 5, retryAfterSeconds: 3 };
  it.each([
    [0.05, 'status500'],
    [0.15, 'status503'],
    [0.35, 'status429'],
    [0.45, 'drop'],
    [0.55, 'dropAfterCommit'],
    [0.65, 'none'],
  ])('r=%s → %s', (r, kind) => {
    expect(pickFault(faults, r)).toEqual({ kind, latencyMs: 5, retryAfterSeconds: 3 });
  });

  it('a seed makes the sequence reproducible', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const seqA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(seqA).size).toBe(5);
  });

  it('refuses probabilities that add up to more than 1', () => {
    expect(() => new FaultInjector({ create: { status500: 0.6, drop: 0.6 } })).toThrow();
  });
});

describe('sandbox: fault injection', () => {
  it('a 503 carries Retry-After and creates nothing; the seed reproduces the same answers', async () => {
    const run = (): Promise<number[]> =>
      withSandbox({ seed: 7, faults: { create: { status503: 0.5, retryAfterSeconds: 4 } } }, async (sandbox) => {
        const statuses: number[] = [];
        for (let i = 0; i < 12; i += 1) {
          const reply = await post(createUrl(sandbox), validRequest());
          statuses.push(reply.status);
          if (reply.status === 503) {
            expect(reply.headers['retry-after']).toBe('4');
            expect(reply.json.type).toBe(PROBLEM_TYPES.unavailable);
          }
        }
        expect(sandbox.requests()).toHaveLength(statuses.filter((s) => s === 201).length);
        return statuses;
      });
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(201);
    expect(await run()).toEqual(first);
  });

  it('a 429 carries Retry-After', async () => {
    await withSandbox({ faults: { create: { status429: 1, retryAfterSeconds: 2 } } }, async (sandbox) => {
      const reply = await post(createUrl(sandbox), validRequest());
      expect(reply.status).toBe(429);
      expect(reply.headers['retry-after']).toBe('2');
      expect(reply.json.type).toBe(PROBLEM_TYPES.rateLimited);
    });
  });

  it('100 % drop destroys the socket: the client sees a socket error and nothing is created', async () => {
    await withSandbox({ faults: { create: { drop: 1 } } }, async (sandbox) => {
      await expect(post(createUrl(sandbox), validRequest())).rejects.toThrow();
      expect(sandbox.requests()).toHaveLength(0);
      expect(sandbox.calls()[0]?.status).toBe('dropped');
    });
  });

  it('drop-after-commit really created the request; the retry with the same key gets the 201', async () => {
    await withSandbox({ faults: { create: { dropAfterCommit: 1 } } }, async (sandbox) => {
      const body = validRequest();
      await expect(post(createUrl(sandbox), body, { key: 'k-dac' })).rejects.toThrow();
      expect(sandbox.requests()).toHaveLength(1);
      expect(sandbox.calls()[0]?.status).toBe('dropped-after-commit');
      sandbox.setFaults({});
      const retry = await post(createUrl(sandbox), body, { key: 'k-dac' });
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json.id).toBe(sandbox.requests()[0]?.id);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('the confirm operation has its own faults', async () => {
    await withSandbox({ faults: { confirm: { status500: 1 } } }, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      const reply = await request(`${sandbox.url}/api-gateway/api/v1/${sandbox.supplierToken}/supplier/orders/${orderId}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'c1' },
        body: JSON.stringify({
          supplierOrderId: 'S',
          readyToShipDate: '2030-01-01',
          items: [{ lineId: '1', confirmedQuantity: 1, price: 1, currency: 'RUB' }],
        }),
      });
      await reply.body.dump();
      expect(reply.statusCode).toBe(500);
      expect(sandbox.order(orderId)?.status).toBe('created');
    });
  });

  it('webhook dropAfterCommit delivers the event and then delivers it again (a duplicate)', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url, webhookRetryScheduleMs: [0, 5, 5], faults: { webhook: { dropAfterCommit: 1 } } }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          await waitUntil(() => sandbox.webhookEvents()[0]?.state === 'exhausted', 'exhaustion');
          expect(receiver.received.map((h) => h.body.eventId)).toEqual(['EVT-000001', 'EVT-000001', 'EVT-000001']);
        });
      },
    );
  });

  it('webhook drop loses the attempt before it reaches the receiver', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url, webhookRetryScheduleMs: [0, 5], faults: { webhook: { drop: 1 } } }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          await waitUntil(() => sandbox.webhookEvents()[0]?.state === 'exhausted', 'exhaustion');
          expect(receiver.received).toHaveLength(0);
          expect(sandbox.webhookAttempts().map((a) => a.error)).toEqual(['injected fault: drop', 'injected fault: drop']);
        });
      },
    );
  });
});
