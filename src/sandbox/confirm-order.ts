/**
 * `POST …/<token>/supplier/orders/<order_id>/confirm` once the HTTP checks passed.
 *
 * Decisions (the document does not show them): success is 200; an unknown order is 404; a line
 * that is not in the order is 422 at `$.items[i].lineId`; a confirmed order may be confirmed again
 * (the confirmation is replaced, status stays `confirmed`, no webhook); a shipped or delivered
 * order cannot be confirmed: 409 `urn:problem:order-state-conflict`.
 */
import { confirmOrderSchema, issuesToFieldErrors } from '../platform/contract.js';
import type { SandboxContext } from './context.js';
import { jsonResponse, notFoundProblem, problemResponse, SANDBOX_PROBLEM_TYPES, validationProblem } from './problem.js';
import { ORDER_STATUS, type ApiResponse } from './types.js';

export function confirmOrder(ctx: SandboxContext, orderId: string, body: unknown): ApiResponse {
  const order = ctx.orders.get(orderId);
  if (!order) return notFoundProblem(`Order ${orderId} does not exist.`);

  const parsed = confirmOrderSchema.safeParse(body);
  if (!parsed.success) return validationProblem(issuesToFieldErrors(parsed.error.issues), 'The confirmation does not match the schema.');
  const confirmation = parsed.data;

  const lines = new Set(order.lineIds);
  const badLines = confirmation.items.flatMap((item, index) =>
    lines.has(item.lineId) ? [] : [{ path: `$.items[${index}].lineId`, message: `line "${item.lineId}" is not a line of order ${order.id}` }],
  );
  if (badLines.length > 0) return validationProblem(badLines, `The confirmation names lines that order ${order.id} does not have.`);

  if (order.status !== ORDER_STATUS.created && order.status !== ORDER_STATUS.confirmed) {
    return problemResponse({
      type: SANDBOX_PROBLEM_TYPES.orderStateConflict,
      title: 'Order cannot be confirmed',
      status: 409,
      detail: `Order ${order.id} is already ${order.status}; only created or confirmed orders can be confirmed.`,
      extra: { orderStatus: order.status },
    });
  }

  const updated = ctx.orders.confirm(order, confirmation);
  ctx.logger.info({ orderId: order.id, supplierOrderId: confirmation.supplierOrderId }, 'order confirmed');
  return jsonResponse(200, { id: updated.id, status: updated.status, supplierOrderId: confirmation.supplierOrderId, updatedAt: updated.updatedAt });
}
