/**
 * The admin API under `/_sandbox/` (no token): what tests, demos and people use to look inside
 * and to steer the sandbox.
 *
 *   GET  /_sandbox/calls               every API call received (token masked), with its answer
 *   GET  /_sandbox/requests            accepted requests with their orders
 *   GET  /_sandbox/orders/<id>         one order
 *   POST /_sandbox/orders/<id>/status  {"status":"shipped"}: change it and send the webhook
 *   GET  /_sandbox/faults              the fault settings
 *   PUT  /_sandbox/faults              replace the fault settings
 *   GET  /_sandbox/webhooks            every webhook delivery attempt and its outcome
 *   GET  /_sandbox/events              every webhook event and its delivery state
 *   POST /_sandbox/reset               forget everything (counters restart at 1)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { issuesToFieldErrors } from '../platform/contract.js';
import { answerTooLarge } from './answer-too-large.js';
import type { SandboxContext } from './context.js';
import { faultConfigSchema } from './faults.js';
import { jsonResponse, notFoundProblem, problemResponse, SANDBOX_PROBLEM_TYPES as P, validationProblem } from './problem.js';
import { readTextBody } from './request-body.js';
import { ORDER_STATUSES, type ApiResponse, type OrderStatus } from './types.js';
import { writeResponse } from './write-response.js';

export const ADMIN_PREFIX = '/_sandbox/';

const statusBodySchema = z.strictObject({ status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]) });

export async function handleAdminCall(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const route = pathname.slice(ADMIN_PREFIX.length).split('/').map(decodeSegment);
  const method = req.method ?? 'GET';
  let body: unknown;
  if (method === 'POST' || method === 'PUT') {
    const read = await readTextBody(req, ctx.options.maxBodyBytes);
    if (!read.ok && read.reason === 'tooLarge') {
      return answerTooLarge(req, res, problemResponse({ type: P.tooLarge, title: 'Payload too large', status: 413, detail: 'The body is too large.' }));
    }
    if (!read.ok)
      return writeResponse(res, problemResponse({ type: P.tooLarge, title: 'Unreadable body', status: 413, detail: 'The body is too large or was cut off.' }));
    try {
      body = read.text.trim() === '' ? {} : JSON.parse(read.text);
    } catch {
      return writeResponse(res, problemResponse({ type: P.malformedJson, title: 'Malformed JSON', status: 400, detail: 'The body is not valid JSON.' }));
    }
  } else {
    req.resume();
  }
  writeResponse(res, await routeAdmin(ctx, method, route, body));
}

async function routeAdmin(ctx: SandboxContext, method: string, route: string[], body: unknown): Promise<ApiResponse> {
  const [head, id, tail] = route;
  const wrongMethod = (allowed: string): ApiResponse =>
    problemResponse({ type: P.methodNotAllowed, title: 'Method not allowed', status: 405, detail: `Use ${allowed}.`, headers: { allow: allowed } });

  if (route.length === 1 && head === 'calls') return method === 'GET' ? jsonResponse(200, ctx.calls) : wrongMethod('GET');
  if (route.length === 1 && head === 'requests') {
    if (method !== 'GET') return wrongMethod('GET');
    return jsonResponse(
      200,
      ctx.requests.list().map((request) => ({ ...request, order: ctx.orders.get(request.orderId) ?? null })),
    );
  }
  if (route.length === 1 && head === 'webhooks') return method === 'GET' ? jsonResponse(200, ctx.webhooks.attempts()) : wrongMethod('GET');
  if (route.length === 1 && head === 'events') return method === 'GET' ? jsonResponse(200, ctx.webhooks.events()) : wrongMethod('GET');
  if (route.length === 1 && head === 'faults') {
    if (method === 'GET') return jsonResponse(200, ctx.faults.get());
    if (method !== 'PUT') return wrongMethod('GET, PUT');
    const parsed = faultConfigSchema.safeParse(body);
    if (!parsed.success) return validationProblem(issuesToFieldErrors(parsed.error.issues), 'Invalid fault settings.');
    ctx.faults.set(parsed.data);
    return jsonResponse(200, ctx.faults.get());
  }
  if (route.length === 1 && head === 'reset') {
    if (method !== 'POST') return wrongMethod('POST');
    await ctx.reset();
    return jsonResponse(200, { reset: true });
  }
  if (head === 'orders' && id !== undefined && route.length === 2) {
    if (method !== 'GET') return wrongMethod('GET');
    const order = ctx.orders.get(id);
    return order ? jsonResponse(200, order) : notFoundProblem(`Order ${id} does not exist.`);
  }
  if (head === 'orders' && id !== undefined && tail === 'status' && route.length === 3) {
    if (method !== 'POST') return wrongMethod('POST');
    const order = ctx.orders.get(id);
    if (!order) return notFoundProblem(`Order ${id} does not exist.`);
    const parsed = statusBodySchema.safeParse(body);
    if (!parsed.success) return validationProblem(issuesToFieldErrors(parsed.error.issues), `status must be one of ${ORDER_STATUSES.join(', ')}.`);
    return jsonResponse(200, ctx.orders.setStatus(order, parsed.data.status));
  }
  return notFoundProblem(`No admin endpoint ${method} /_sandbox/${route.join('/')}.`);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
