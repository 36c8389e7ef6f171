import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '../../src/platform/contract.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { confirmUrl, createAccepted, createUrl, post } from '../helpers/sandbox-calls.js';
import { validConfirmation, validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('sandbox: idempotency', () => {
  it('replays the first answer exactly for the same key and body, with Idempotent-Replayed', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest();
      const first = await post(createUrl(sandbox), body, { key: 'k1' });
      // same object, keys in another order: the canonical hash still matches
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await post(createUrl(sandbox), reordered, { key: 'k1' });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(sandbox.requests()).toHaveLength(1);
      expect(sandbox.calls().map((c) => c.replayed)).toEqual([false, true]);
    });
  });

  it('answers 422 when a key is reused with a different body or a different path', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      await post(confirmUrl(sandbox, orderId), validConfirmation(), { key: 'k1' });
      const otherBody = await post(confirmUrl(sandbox, orderId), validConfirmation({ supplierOrderId: 'SUP-2' }), { key: 'k1' });
      expect(otherBody.status).toBe(422);
      expect(otherBody.json.type).toBe(PROBLEM_TYPES.idempotencyKeyReused);
      const { orderId: otherOrder } = await createAccepted(sandbox);
      const otherPath = await post(confirmUrl(sandbox, otherOrder), validConfirmation(), { key: 'k1' });
      expect(otherPath.status).toBe(422);
      expect(otherPath.json.type).toBe(PROBLEM_TYPES.idempotencyKeyReused);
      expect(sandbox.order(otherOrder)?.status).toBe('created');
    });
  });

  it('answers 409 to a same-key request while the first one is still being processed', async () => {
    // the latency only has to outlast one local round trip; it is generous so a loaded CI box passes
    await withSandbox({ faults: { create: { latencyMs: 1_500 } } }, async (sandbox) => {
      const body = validRequest();
      const slow = post(createUrl(sandbox), body, { key: 'k-busy' });
      // the body is recorded in the same synchronous step that claims the key: once it is there,
      // the first request holds the key
      await waitUntil(() => sandbox.calls()[0]?.body !== undefined, 'the first request to claim its key');
      const concurrent = await post(createUrl(sandbox), body, { key: 'k-busy' });
      expect(concurrent.status).toBe(409);
      expect(concurrent.json.type).toBe(PROBLEM_TYPES.idempotencyInProgress);
      expect((await slow).status).toBe(201);
      const after = await post(createUrl(sandbox), body, { key: 'k-busy' });
      expect(after.status).toBe(201);
      expect(after.headers['idempotent-replayed']).toBe('true');
      expect(sandbox.requests()).toHaveLength(1);
    });
  });

  it('answers 400 when Idempotency-Key is missing or empty', async () => {
    await withSandbox({}, async (sandbox) => {
      const missing = await post(createUrl(sandbox), validRequest(), { key: null });
      expect(missing.status).toBe(400);
      expect(missing.json.type).toBe(PROBLEM_TYPES.idempotencyKeyMissing);
      const empty = await post(createUrl(sandbox), validRequest(), { key: '' });
      expect(empty.status).toBe(400);
      expect(sandbox.requests()).toHaveLength(0);
    });
  });

  it('forgets a key after idempotencyTtlMs (injected clock)', async () => {
    let nowMs = Date.parse('2030-01-01T00:00:00Z');
    await withSandbox({ idempotencyTtlMs: 60_000, now: () => new Date(nowMs) }, async (sandbox) => {
      const body = validRequest();
      await post(createUrl(sandbox), body, { key: 'k-ttl' });
      nowMs += 59_999;
      const within = await post(createUrl(sandbox), body, { key: 'k-ttl' });
      expect(within.headers['idempotent-replayed']).toBe('true');
      nowMs += 2;
      // the key is new again; the externalId is not, so the platform's other guard answers
      const after = await post(createUrl(sandbox), body, { key: 'k-ttl' });
      expect(after.headers['idempotent-replayed']).toBeUndefined();
      expect(after.status).toBe(409);
      expect(after.json.type).toBe(PROBLEM_TYPES.duplicateExternalId);
    });
  });

  it('scopes keys per token: the same key under the supplier token is a different key', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      await post(createUrl(sandbox), validRequest(), { key: 'shared' });
      const confirm = await post(confirmUrl(sandbox, orderId), validConfirmation(), { key: 'shared' });
      expect(confirm.status).toBe(200);
    });
  });

  it('stores a 4xx validation answer (replayed) but not an injected 5xx (processed afresh)', async () => {
    await withSandbox({ seed: 1 }, async (sandbox) => {
      const invalid = validRequest({ items: [] });
      const first = await post(createUrl(sandbox), invalid, { key: 'k-invalid' });
      const second = await post(createUrl(sandbox), invalid, { key: 'k-invalid' });
      expect(first.status).toBe(422);
      expect(second.status).toBe(422);
      expect(second.headers['idempotent-replayed']).toBe('true');

      sandbox.setFaults({ create: { status500: 1 } });
      const body = validRequest();
      const failed = await post(createUrl(sandbox), body, { key: 'k-5xx' });
      expect(failed.status).toBe(500);
      sandbox.setFaults({});
      const retried = await post(createUrl(sandbox), body, { key: 'k-5xx' });
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    });
  });
});
