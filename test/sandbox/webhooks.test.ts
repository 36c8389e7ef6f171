import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { webhookEventSchema } from '../../src/platform/contract.js';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { confirmUrl, createAccepted, post, withReceiver } from '../helpers/sandbox-calls.js';
import { validConfirmation } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const SECRET = 'whsec-test-secret';
const FAST = [0, 10, 10, 10];

describe('signWebhookBody', () => {
  it("matches GitHub's published test vector", () => {
    expect(signWebhookBody("It's a Secret to Everybody", 'Hello, World!')).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  it('is accepted by an independent implementation and refused for another secret', async () => {
    const body = '{"eventId":"EVT-000001"}';
    expect(await verify(SECRET, body, signWebhookBody(SECRET, body))).toBe(true);
    expect(await verify('other', body, signWebhookBody(SECRET, body))).toBe(false);
  });
});

describe('sandbox: webhooks', () => {
  it('sends exactly the event, signed, with JSON content type and a UUID X-Request-Id', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url, webhookSecret: SECRET, timeScale: 0.001 }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          await post(confirmUrl(sandbox, orderId), validConfirmation());
          const hook = await waitUntil(() => receiver.received[0], 'the webhook');
          expect(Object.keys(hook.body).sort()).toEqual(['eventDate', 'eventId', 'eventType', 'orderId', 'status']);
          expect(hook.body).toMatchObject({ eventId: 'EVT-000001', eventType: 'order.status.changed', orderId, status: 'confirmed' });
          expect(webhookEventSchema.safeParse(hook.body).success).toBe(true);
          expect(hook.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(hook.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
          expect(await verify(SECRET, hook.rawBody, hook.headers['x-service-signature'] as string)).toBe(true);
          await sandbox.webhooksIdle();
          expect(sandbox.webhookAttempts()).toMatchObject([{ eventId: 'EVT-000001', attempt: 1, httpStatus: 200, outcome: 'delivered' }]);
        });
      },
    );
  });

  it('omits X-Service-Signature when no secret is set', async () => {
    await withReceiver(
      () => 200,
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          const hook = await waitUntil(() => receiver.received[0], 'the webhook');
          expect(hook.headers['x-service-signature']).toBeUndefined();
        });
      },
    );
  });

  it('retries after the receiver answers 500, then records the success', async () => {
    await withReceiver(
      (index) => (index < 2 ? 500 : 200),
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url, webhookSecret: SECRET, webhookRetryScheduleMs: FAST }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          await waitUntil(() => sandbox.webhookEvents()[0]?.state === 'delivered', 'delivery');
          expect(receiver.received).toHaveLength(3);
          expect(new Set(receiver.received.map((h) => h.body.eventId))).toEqual(new Set(['EVT-000001']));
          // a fresh X-Request-Id per attempt
          expect(new Set(receiver.received.map((h) => h.headers['x-request-id'])).size).toBe(3);
          expect(sandbox.webhookAttempts().map((a) => [a.attempt, a.httpStatus, a.outcome])).toEqual([
            [1, 500, 'failed'],
            [2, 500, 'failed'],
            [3, 200, 'delivered'],
          ]);
        });
      },
    );
  });

  it('gives up after the last scheduled attempt and records a connection error', async () => {
    await withSandbox({ webhookUrl: 'http://127.0.0.1:1/webhooks/service', webhookRetryScheduleMs: [0, 5, 5] }, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      sandbox.setOrderStatus(orderId, 'confirmed');
      await waitUntil(() => sandbox.webhookEvents()[0]?.state === 'exhausted', 'exhaustion');
      const attempts = sandbox.webhookAttempts();
      expect(attempts).toHaveLength(3);
      expect(attempts.every((a) => a.outcome === 'failed' && a.error && a.httpStatus === undefined)).toBe(true);
    });
  });

  it("delivers one order's events in order: a later event waits for the earlier one's retries", async () => {
    await withReceiver(
      (index) => (index < 3 ? 503 : 200),
      async (receiver) => {
        await withSandbox({ webhookUrl: receiver.url, webhookRetryScheduleMs: [0, 20, 20, 20, 20] }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          sandbox.setOrderStatus(orderId, 'shipped');
          sandbox.setOrderStatus(orderId, 'delivered');
          await waitUntil(() => sandbox.webhookEvents().every((e) => e.state === 'delivered'), 'all deliveries');
          const statuses = receiver.received.map((h) => h.body.status);
          expect(statuses).toEqual(['confirmed', 'confirmed', 'confirmed', 'confirmed', 'shipped', 'delivered']);
          expect(receiver.received.map((h) => h.body.eventId)).toEqual(['EVT-000001', 'EVT-000001', 'EVT-000001', 'EVT-000001', 'EVT-000002', 'EVT-000003']);
        });
      },
    );
  });

  it('stop() cancels pending retries: no attempt happens after it', async () => {
    await withReceiver(
      () => 500,
      async (receiver) => {
        const sandbox = await startSandbox({ webhookUrl: receiver.url, webhookRetryScheduleMs: [0, 60_000] });
        try {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'confirmed');
          await waitUntil(() => sandbox.webhookAttempts().length === 1, 'first attempt');
        } finally {
          await sandbox.stop();
          await sandbox.stop(); // idempotent
        }
        expect(receiver.received).toHaveLength(1);
        expect(sandbox.webhookEvents()[0]?.state).toBe('pending');
      },
    );
  });
});
