/** `POST …/<token>/requests` once the HTTP checks passed: validate, deduplicate externalId, create. */
import { createRequestSchema, issuesToFieldErrors } from '../platform/contract.js';
import type { SandboxContext } from './context.js';
import { jsonResponse, problemResponse, SANDBOX_PROBLEM_TYPES, validationProblem } from './problem.js';
import type { ApiResponse } from './types.js';

export function createRequest(ctx: SandboxContext, token: string, body: unknown): ApiResponse {
  const parsed = createRequestSchema.safeParse(body);
  if (!parsed.success) return validationProblem(issuesToFieldErrors(parsed.error.issues), 'The request does not match the Request schema.');
  const request = parsed.data;

  const existing = ctx.requests.findByExternalId(token, request.externalId);
  if (existing) {
    return problemResponse({
      type: SANDBOX_PROBLEM_TYPES.duplicateExternalId,
      title: 'Duplicate externalId',
      status: 409,
      detail: `externalId "${request.externalId}" was already accepted as ${existing.id}.`,
      extra: { existingRequestId: existing.id },
    });
  }

  const id = ctx.requests.nextId(ctx.options.requestIdPrefix);
  const order = ctx.orders.create(
    id,
    request.items.map((item) => item.lineId),
  );
  const createdAt = ctx.now().toISOString();
  ctx.requests.add(token, { id, externalId: request.externalId, createdAt, orderId: order.id, body: request });
  ctx.logger.info({ requestId: id, externalId: request.externalId, orderId: order.id }, 'request accepted');
  ctx.demo?.schedule(order);
  return jsonResponse(201, { id, externalId: request.externalId, status: 'accepted', createdAt });
}
