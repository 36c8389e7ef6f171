import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { withSandbox } from '../helpers/with-sandbox.js';
import { confirmUrl, createAccepted, createUrl, post, withReceiver } from '../helpers/sandbox-calls.js';
import { validConfirmation, validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

async function admin(url: string, method: 'GET' | 'POST' | 'PUT' = 'GET', body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await request(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, json: await response.body.json() };
}

describe('sandbox: admin API', () => {
  it('lists calls (token masked) and requests with their orders', async () => {
    await withSandbox({}, async (sandbox) => {
      const { requestId, orderId } = await createAccepted(sandbox);
      const calls = await admin(`${sandbox.url}/_sandbox/calls`);
      expect(calls.status).toBe(200);
      expect(calls.json).toMatchObject([{ method: 'POST', path: '/api-gateway/api/v1/<token>/requests', status: 201 }]);
      const requests = await admin(`${sandbox.url}/_sandbox/requests`);
      expect(requests.json).toMatchObject([{ id: requestId, orderId, order: { id: orderId, status: 'created', lineIds: ['1', '2'] } }]);
      // admin calls are not recorded as API calls
      expect(sandbox.calls()).toHaveLength(1);
    });
  });

  it('reads one order, 404 for an unknown one', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      expect(await admin(`${sandbox.url}/_sandbox/orders/${orderId}`)).toMatchObject({ status: 200, json: { id: orderId, status: 'created' } });
      expect((await admin(`${sandbox.url}/_sandbox/orders/ORD-1999-000001`)).status).toBe(404);
    });
  });

  it('changes an order status, which sends the webhook, and refuses an unknown status', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          const changed = await admin(`${sandbox.url}/_sandbox/orders/${orderId}/status`, 'POST', { status: 'shipped' });
          expect(changed).toMatchObject({ status: 200, json: { id: orderId, status: 'shipped' } });
          const hook = await waitUntil(() => receiver.received[0], 'the webhook');
          expect(hook.body).toMatchObject({ orderId, status: 'shipped' });
          expect((await admin(`${sandbox.url}/_sandbox/orders/${orderId}/status`, 'POST', { status: 'lost' })).status).toBe(422);
          await sandbox.webhooksIdle();
          expect(await admin(`${sandbox.url}/_sandbox/webhooks`)).toMatchObject({ status: 200, json: [{ eventId: 'EVT-000001', outcome: 'delivered' }] });
        });
      },
    );
  });

  it('sets faults with PUT (and refuses invalid ones)', async () => {
    await withSandbox({}, async (sandbox) => {
      const set = await admin(`${sandbox.url}/_sandbox/faults`, 'PUT', { create: { status503: 1, retryAfterSeconds: 9 } });
      expect(set.status).toBe(200);
      const reply = await post(createUrl(sandbox), validRequest());
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('9');
      expect((await admin(`${sandbox.url}/_sandbox/faults`, 'PUT', { create: { status503: 2 } })).status).toBe(422);
      expect((await admin(`${sandbox.url}/_sandbox/faults`, 'PUT', {})).status).toBe(200);
      expect((await post(createUrl(sandbox), validRequest())).status).toBe(201);
    });
  });

  it('reset forgets everything and restarts the counters', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest();
      await post(createUrl(sandbox), body, { key: 'k' });
      expect((await admin(`${sandbox.url}/_sandbox/reset`, 'POST')).status).toBe(200);
      expect(sandbox.requests()).toHaveLength(0);
      expect(sandbox.calls()).toHaveLength(0);
      const again = await post(createUrl(sandbox), body, { key: 'k' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.json.id).toBe('PRC-REQ-000001');
    });
  });

  it('answers 404 for an unknown admin path', async () => {
    await withSandbox({}, async (sandbox) => {
      expect((await admin(`${sandbox.url}/_sandbox/nothing`)).status).toBe(404);
    });
  });
});

describe('sandbox: demo mode', () => {
  it('walks an unconfirmed order through confirmed, shipped, delivered, with a webhook each', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ demo: true, demoDelaysMs: 10_000, timeScale: 0.001, webhookUrl: receiver.url }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          await waitUntil(() => receiver.received.length === 3, 'three webhooks');
          expect(receiver.received.map((h) => h.body.status)).toEqual(['confirmed', 'shipped', 'delivered']);
          expect(sandbox.order(orderId)).toMatchObject({ status: 'delivered', supplierOrderId: `DEMO-${orderId}` });
        });
      },
    );
  });

  it('continues from a confirmation sent through the API, keeping its supplierOrderId', async () => {
    // The demo confirms by itself after its first delay: long enough here (200 ms) that the API's
    // confirmation comes first even on a loaded machine.
    await withSandbox({ demo: true, demoDelaysMs: 10_000, timeScale: 0.02 }, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      const reply = await post(confirmUrl(sandbox, orderId), validConfirmation());
      expect(reply.status).toBe(200);
      await waitUntil(() => sandbox.order(orderId)?.status === 'delivered', 'delivery');
      const order = sandbox.order(orderId);
      expect(order?.supplierOrderId).toBe('SUP-1');
      expect(order?.history.map((h) => h.status)).toEqual(['created', 'confirmed', 'shipped', 'delivered']);
    });
  });
});
