import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../src/platform/client.js';
import { getSubmission } from '../../src/store/submissions.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { ackRecords, fastDelivery, flowConfig, platformConfig, withDispatcher } from '../helpers/with-dispatcher.js';
import { addConfirmationRow, withStore } from '../helpers/store.js';
import { validConfirmation, validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('delivery of supplier confirmations', () => {
  it('confirms an existing order on the confirm path with the flow token; unknown order → 404 and a foreign line → 422 are rejected', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const platform = platformConfig(sandbox.url, sandbox.token);
          const client = createPlatformClient(platform);
          const created = await client.createRequest(sandbox.token, validRequest('ERP-O1'), { idempotencyKey: 'k-o1' });
          await client.close();
          expect(created.status).toBe(201);
          const orderId = sandbox.requests()[0]!.orderId;

          const flow = flowConfig(dir, 'confirms', 'confirmations', sandbox.supplierToken);
          const ok = addConfirmationRow(db, flow.name, orderId, validConfirmation(['1', '2']));
          const unknown = addConfirmationRow(db, flow.name, 'ORD-2026-999999', validConfirmation(['1']));
          const foreign = addConfirmationRow(db, flow.name, orderId, validConfirmation(['1', 'no-such-line']));
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery({ concurrency: 1 }) }, async ({ dispatcher }) => {
            await waitUntil(
              () => [ok, unknown, foreign].every((id) => getSubmission(db, id)?.finishedAt !== null),
              '[ok, unknown, foreign].every((id) => getSubmission(db, id)?.finishedAt !== null)',
              15_000,
            );
            await dispatcher.drain();
          });

          expect(getSubmission(db, ok)).toMatchObject({ state: 'accepted', lastStatus: 200, platformId: orderId });
          expect(JSON.parse(getSubmission(db, ok)!.result!)).toMatchObject({ id: orderId, status: 'confirmed', supplierOrderId: 'SUP-1' });
          expect(sandbox.order(orderId)).toMatchObject({ status: 'confirmed', supplierOrderId: 'SUP-1' });
          const confirmCalls = sandbox.calls().filter((c) => c.path.endsWith('/confirm'));
          expect(confirmCalls.map((c) => c.path)).toContain(`/api-gateway/api/v1/<token>/supplier/orders/${orderId}/confirm`);

          expect(getSubmission(db, unknown)).toMatchObject({ state: 'rejected', lastStatus: 404, lastErrorCode: 'PLATFORM_REJECTED' });
          expect(getSubmission(db, unknown)!.lastError).toMatch(/ORD-2026-999999|not found|unknown/i);
          expect(getSubmission(db, foreign)).toMatchObject({ state: 'rejected', lastStatus: 422, lastErrorCode: 'PLATFORM_REJECTED' });
          expect(getSubmission(db, foreign)!.lastError).toContain('$.items[1].lineId');

          const acks = ackRecords(db, flow.name);
          expect(acks).toHaveLength(3);
          expect(acks.find((a) => a.outcome === 'accepted')).toMatchObject({
            kind: 'confirmation',
            orderId,
            status: 'confirmed',
            platformId: orderId,
            updatedAt: expect.any(String),
          });
          expect(
            acks
              .filter((a) => a.outcome === 'rejected')
              .map((a) => a.httpStatus)
              .sort(),
          ).toEqual([404, 422]);
        }),
      ),
    ));

  it('a confirmation of an order already shipped is held (409 of another kind), with an ack', () =>
    withTempDir((dir) =>
      withSandbox({}, (sandbox) =>
        withStore(dir, async (db) => {
          const platform = platformConfig(sandbox.url, sandbox.token);
          const client = createPlatformClient(platform);
          await client.createRequest(sandbox.token, validRequest('ERP-O2'), { idempotencyKey: 'k-o2' });
          await client.close();
          const orderId = sandbox.requests()[0]!.orderId;
          sandbox.setOrderStatus(orderId, 'shipped');
          const flow = flowConfig(dir, 'confirms', 'confirmations', sandbox.supplierToken);
          const id = addConfirmationRow(db, flow.name, orderId, validConfirmation(['1']));
          await withDispatcher({ db, flows: [flow], platform, delivery: fastDelivery() }, () =>
            waitUntil(() => getSubmission(db, id)?.state === 'held', `getSubmission(db, id)?.state === 'held'`, 15_000),
          );
          expect(getSubmission(db, id)).toMatchObject({ state: 'held', lastStatus: 409, lastErrorCode: 'PLATFORM_CONFLICT', attempts: 1 });
          expect(ackRecords(db, flow.name)).toEqual([
            expect.objectContaining({ outcome: 'held', status: 'held', orderId, httpStatus: 409, errorCode: 'PLATFORM_CONFLICT' }),
          ]);
        }),
      ),
    ));
});
