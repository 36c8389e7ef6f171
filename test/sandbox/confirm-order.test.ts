import { describe, expect, it } from 'vitest';
import { orderSchema, PROBLEM_TYPES } from '../../src/platform/contract.js';
import { SANDBOX_PROBLEM_TYPES } from '../../src/sandbox/index.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { confirmUrl, createAccepted, post } from '../helpers/sandbox-calls.js';
import { validConfirmation } from '../helpers/fixtures.js';

describe('sandbox: supplier confirmation', () => {
  it('confirms an order with 200 and the order result', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      const reply = await post(confirmUrl(sandbox, orderId), validConfirmation());
      expect(reply.status).toBe(200);
      const order = orderSchema.parse(reply.json);
      expect(order).toEqual({ id: orderId, status: 'confirmed', supplierOrderId: 'SUP-1', updatedAt: expect.any(String) });
      expect(sandbox.order(orderId)?.status).toBe('confirmed');
      expect(sandbox.order(orderId)?.confirmation?.items).toHaveLength(2);
    });
  });

  it('answers 422 with one error per line that is not in the order', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      const items = [
        { lineId: '1', confirmedQuantity: 1, price: 1, currency: 'RUB' },
        { lineId: '7', confirmedQuantity: 1, price: 1, currency: 'RUB' },
        { lineId: '9', confirmedQuantity: 1, price: 1, currency: 'RUB' },
      ];
      const reply = await post(confirmUrl(sandbox, orderId), validConfirmation({ items }));
      expect(reply.status).toBe(422);
      expect(reply.json.type).toBe(PROBLEM_TYPES.validation);
      expect((reply.json.errors as { path: string }[]).map((e) => e.path)).toEqual(['$.items[1].lineId', '$.items[2].lineId']);
      expect(sandbox.order(orderId)?.status).toBe('created');
    });
  });

  it('answers 422 with field paths for schema violations', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      const items = [{ lineId: '1', confirmedQuantity: 1, price: 1.234, currency: 'rub' }];
      const reply = await post(confirmUrl(sandbox, orderId), validConfirmation({ items, readyToShipDate: '20.05.2030' }));
      expect(reply.status).toBe(422);
      expect((reply.json.errors as { path: string }[]).map((e) => e.path).sort()).toEqual(['$.items[0].currency', '$.items[0].price', '$.readyToShipDate']);
    });
  });

  it('answers 404 for an unknown order', async () => {
    await withSandbox({}, async (sandbox) => {
      const reply = await post(confirmUrl(sandbox, 'ORD-2030-999999'), validConfirmation());
      expect(reply.status).toBe(404);
      expect(reply.json.type).toBe(PROBLEM_TYPES.notFound);
    });
  });

  it('lets a confirmed order be confirmed again (updated, no second webhook event)', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      await post(confirmUrl(sandbox, orderId), validConfirmation());
      const again = await post(confirmUrl(sandbox, orderId), validConfirmation({ supplierOrderId: 'SUP-1b' }));
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ status: 'confirmed', supplierOrderId: 'SUP-1b' });
      expect(sandbox.order(orderId)?.supplierOrderId).toBe('SUP-1b');
      expect(sandbox.webhookEvents().map((e) => e.event.status)).toEqual(['confirmed']);
    });
  });

  it('answers 409 order-state-conflict when a shipped order is confirmed again', async () => {
    await withSandbox({}, async (sandbox) => {
      const { orderId } = await createAccepted(sandbox);
      await post(confirmUrl(sandbox, orderId), validConfirmation());
      sandbox.setOrderStatus(orderId, 'shipped');
      const reply = await post(confirmUrl(sandbox, orderId), validConfirmation({ supplierOrderId: 'SUP-late' }));
      expect(reply.status).toBe(409);
      expect(reply.json.type).toBe(SANDBOX_PROBLEM_TYPES.orderStateConflict);
      expect(sandbox.order(orderId)).toMatchObject({ status: 'shipped', supplierOrderId: 'SUP-1' });
    });
  });
});
