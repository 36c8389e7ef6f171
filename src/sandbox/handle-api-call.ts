/**
 * The pipeline of one API call, in the order a strict platform checks things:
 * method (405) → token (401/403) → content type (415) → size (413) → JSON (400) →
 * Idempotency-Key present (400) → idempotency lookup (replay / 409 in progress / 422 reused) →
 * added latency (key held in progress) → injected fault → the operation → store the answer →
 * answer (or drop after commit). A 413 is answered while the rest of the body is drained
 * (`answer-too-large.ts`), so that it is not lost to a reset.
 *
 * What the idempotency store does not remember: 405/401/403/415/413/400 (checked before the key is
 * looked at: the request never reached the operation) and any 5xx (the client must retry afresh).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeError } from '../errors.js';
import type { ApiRoute } from './api-routes.js';
import { sleep } from './abortable-sleep.js';
import { hashCanonicalJson } from './canonical-hash.js';
import { confirmOrder } from './confirm-order.js';
import type { SandboxContext } from './context.js';
import { createRequest } from './create-request.js';
import { FAULT_KIND, type FaultDraw } from './faults.js';
import type { BeginResult } from './idempotency-store.js';
import { answerTooLarge } from './answer-too-large.js';
import { problemResponse, SANDBOX_PROBLEM_TYPES as P } from './problem.js';
import { isJsonContentType, readTextBody } from './request-body.js';
import { writeResponse } from './write-response.js';
import type { ApiResponse, RecordedCall } from './types.js';

export async function handleApiCall(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, route: ApiRoute, call: RecordedCall): Promise<void> {
  const requestIdHeader = req.headers['x-request-id'];
  const requestId = typeof requestIdHeader === 'string' && requestIdHeader !== '' ? requestIdHeader : randomUUID();
  const answer = (response: ApiResponse, extraHeaders: Record<string, string> = {}): void => {
    call.status = response.status;
    writeResponse(res, response, { 'x-request-id': requestId, ...extraHeaders });
  };

  const refusal = refuseUnread({ method: req.method, contentType: req.headers['content-type'] }, route, ctx.options);
  if (refusal !== undefined) {
    req.resume();
    return answer(refusal);
  }
  const read = await readTextBody(req, ctx.options.maxBodyBytes);
  if (!read.ok && read.reason === 'aborted') {
    call.status = 'dropped';
    return;
  }
  if (!read.ok) {
    const tooLarge = problemResponse({
      type: P.tooLarge,
      title: 'Payload too large',
      status: 413,
      detail: `The body is larger than ${ctx.options.maxBodyBytes} bytes.`,
    });
    call.status = tooLarge.status;
    return answerTooLarge(req, res, tooLarge, { 'x-request-id': requestId });
  }
  let body: unknown;
  try {
    body = JSON.parse(read.text);
    call.body = body;
  } catch (error) {
    call.body = read.text;
    return answer(
      problemResponse({ type: P.malformedJson, title: 'Malformed JSON', status: 400, detail: `The body is not valid JSON: ${describeError(error)}` }),
    );
  }
  const keyHeader = req.headers['idempotency-key'];
  const key = typeof keyHeader === 'string' ? keyHeader.trim() : '';
  if (key === '') {
    return answer(
      problemResponse({ type: P.idempotencyKeyMissing, title: 'Idempotency-Key missing', status: 400, detail: 'Every POST needs an Idempotency-Key header.' }),
    );
  }

  const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
  const begun = ctx.idempotency.begin(route.token, key, { path, bodyHash: hashCanonicalJson(body) });
  if (begun.kind === 'replay') {
    call.replayed = true;
    return answer(begun.response, { 'idempotent-replayed': 'true' });
  }
  if (begun.kind !== 'acquired') return answer(keyNotFreeProblem(begun));
  await operateHoldingKey(ctx, res, route, key, body, answer, call);
}

/**
 * The checks made before the body is read, in a strict platform's order: the method (405), the
 * token (401) and its role (403), the content type (415). The refusal to answer, or undefined.
 */
export function refuseUnread(
  req: { method: string | undefined; contentType: string | undefined },
  route: ApiRoute,
  tokens: { token: string; supplierToken: string },
): ApiResponse | undefined {
  if (req.method !== 'POST') {
    return problemResponse({
      type: P.methodNotAllowed,
      title: 'Method not allowed',
      status: 405,
      detail: `${req.method ?? '?'} is not allowed here; use POST.`,
      headers: { allow: 'POST' },
    });
  }
  const role = route.token === tokens.token ? 'buyer' : route.token === tokens.supplierToken ? 'supplier' : null;
  if (role === null) return problemResponse({ type: P.unauthorized, title: 'Unauthorized', status: 401, detail: 'The access token in the path is not known.' });
  if (role !== route.role) {
    return problemResponse({ type: P.forbidden, title: 'Forbidden', status: 403, detail: `A ${role} token cannot call the ${route.operation} operation.` });
  }
  if (!isJsonContentType(req.contentType)) {
    return problemResponse({
      type: P.unsupportedMediaType,
      title: 'Unsupported media type',
      status: 415,
      detail: 'The body must be sent as application/json (UTF-8).',
    });
  }
  return undefined;
}

/** A key another request holds (409, retry later) or used with another path or body (422). */
function keyNotFreeProblem(begun: Extract<BeginResult, { kind: 'in-progress' | 'mismatch' }>): ApiResponse {
  if (begun.kind === 'in-progress') {
    return problemResponse({
      type: P.idempotencyInProgress,
      title: 'Request in progress',
      status: 409,
      detail: 'A request with this Idempotency-Key is still being processed; retry later.',
      headers: { 'retry-after': '1' },
    });
  }
  return problemResponse({
    type: P.idempotencyKeyReused,
    title: 'Idempotency-Key reused',
    status: 422,
    detail: `This Idempotency-Key was used with a different ${begun.what}.`,
  });
}

/**
 * With the key claimed: the added latency, an injected fault, the operation, its answer stored
 * under the key. The key is released whenever no answer is stored (a dropped call, a fault, a crash).
 */
async function operateHoldingKey(
  ctx: SandboxContext,
  res: ServerResponse,
  route: ApiRoute,
  key: string,
  body: unknown,
  answer: (response: ApiResponse) => void,
  call: RecordedCall,
): Promise<void> {
  const released = (): void => ctx.idempotency.release(route.token, key);
  try {
    const fault = ctx.faults.draw(route.operation);
    if (fault.latencyMs > 0 && !(await sleep(fault.latencyMs, ctx.signal))) {
      released();
      call.status = 'dropped';
      res.destroy();
      return;
    }
    if (answerFault(fault, answer, res, call)) {
      released();
      return;
    }
    const response = operate(ctx, route, body);
    ctx.idempotency.complete(route.token, key, response);
    if (fault.kind === FAULT_KIND.dropAfterCommit) {
      call.status = 'dropped-after-commit';
      res.destroy();
      return;
    }
    answer(response);
  } catch (error) {
    released();
    ctx.logger.error({ err: error }, 'sandbox operation crashed');
    answer(problemResponse({ type: P.internal, title: 'Internal error', status: 500, detail: 'The sandbox failed while processing the request.' }));
  }
}

/** The operation each API route calls. */
function operate(ctx: SandboxContext, route: ApiRoute, body: unknown): ApiResponse {
  switch (route.operation) {
    case 'create':
      return createRequest(ctx, route.token, body);
    case 'confirm':
      return confirmOrder(ctx, route.orderId, body);
  }
}

/** Answer an injected before-processing fault; false when there is none to answer. */
function answerFault(fault: FaultDraw, answer: (r: ApiResponse) => void, res: ServerResponse, call: RecordedCall): boolean {
  const retryAfter = { 'retry-after': String(fault.retryAfterSeconds) };
  switch (fault.kind) {
    case FAULT_KIND.status500:
      answer(problemResponse({ type: P.internal, title: 'Internal error', status: 500, detail: 'Injected fault: internal error.' }));
      return true;
    case FAULT_KIND.status503:
      answer(problemResponse({ type: P.unavailable, title: 'Service unavailable', status: 503, detail: 'Injected fault: unavailable.', headers: retryAfter }));
      return true;
    case FAULT_KIND.status429:
      answer(problemResponse({ type: P.rateLimited, title: 'Too many requests', status: 429, detail: 'Injected fault: rate limited.', headers: retryAfter }));
      return true;
    case FAULT_KIND.drop:
      call.status = 'dropped';
      res.destroy();
      return true;
    default:
      return false;
  }
}
