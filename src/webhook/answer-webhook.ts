/**
 * One webhook request, answered: admit it (`admit-webhook.ts`, the pure ladder of checks), store
 * the event through the batcher, answer. `200 {"received":true}` only once the batcher says the
 * event is durable; a refusal says why with a stable code, logged without the body (an unadmitted
 * body is untrusted input).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConnectorError, describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { endAfterDrain, type DrainLimits } from '../shared/end-after-drain.js';
import { isHealthProbe, sendHealthz } from '../shared/probes.js';
import { readBody } from '../shared/read-body.js';
import type { WebhookEvent } from '../platform/contract.js';
import { admitBody, admitWebhook, type Admission, type AdmissionPolicy, type RequestHead } from './admit-webhook.js';
import type { EventBatcher, StoreResult } from './event-batcher.js';
import { findEventConflict } from './event-conflict.js';

export interface AnswerWebhookDeps {
  policy: AdmissionPolicy;
  batcher: EventBatcher;
  /** What the rest of a too-large body may cost before the connection closes. */
  drainLimits: DrainLimits;
  log: Logger;
  /** Counts an outcome (a stored event's, or a refusal's code). */
  count: (outcome: string) => void;
  /** True once the listener is stopping: nothing new is stored (503 WEBHOOK_STOPPING). */
  stopping: () => boolean;
}

/** The listener's request handler. Rejects only on a bug of ours (the caller answers 500). */
export function createWebhookAnswerer(deps: AnswerWebhookDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { policy, batcher, log } = deps;
  // Kept small on purpose: an async function's every suspension saves its whole frame, and this one
  // runs for every event; the refusals and the stored event's answer are functions of their own.
  return async (req, res) => {
    if (isHealthProbe(req.url, req.method)) return sendHealthz(res);
    const head: RequestHead = { target: req.url, method: req.method, remote: req.socket.remoteAddress, headers: req.headers, stopping: deps.stopping() };
    if (log.isLevelEnabled('debug')) log.debug({ remote: head.remote, requestId: req.headers['x-request-id'], method: req.method }, 'webhook request received');
    let admission = admitWebhook(policy, head);
    if (admission.kind === 'read-body') {
      const read = await readBody(req, policy.maxBodyBytes, req.headers['content-length']);
      if (!read.ok && read.reason === 'aborted') return void req.destroy();
      admission = admitBody(policy, head, read.ok ? read.body : 'too-large');
    }
    if (admission.kind === 'refuse') return refuseRequest(deps, req, res, head, admission);
    // The ladder accepts nothing without the body, so a second `read-body` would be our own bug.
    if (admission.kind !== 'accept') throw new ConnectorError('WEBHOOK_INTERNAL_ERROR', 'The admission ladder asked for the body twice');
    const { event, text } = admission;
    answerStored(deps, res, event, text, await batcher.submit(event, text));
  };
}

/** Answer a refused request: why, with its stable code, logged without the body (an unadmitted body is untrusted input). */
function refuseRequest(
  deps: AnswerWebhookDeps,
  req: IncomingMessage,
  res: ServerResponse,
  head: RequestHead,
  admission: Extract<Admission, { kind: 'refuse' }>,
): void {
  const { log, count } = deps;
  const { status, code, message } = admission;
  if (code === null) {
    if (status === 405) res.setHeader('Allow', 'POST');
    return sendJson(res, status, { received: false, error: message });
  }
  count(code);
  const context = { remote: head.remote, requestId: req.headers['x-request-id'] };
  if (code === 'WEBHOOK_STOPPING') log.info({ ...context, code }, 'webhook refused with 503: the listener is stopping');
  else {
    const target = code === 'WEBHOOK_REQUEST_INVALID' ? { target: head.target?.slice(0, 200) } : {};
    log.warn({ ...context, ...target, code, problem: admission.signatureProblem, errors: admission.errors }, `webhook refused with ${status}: ${message}`);
  }
  if (code === 'WEBHOOK_TOO_LARGE' || code === 'WEBHOOK_REQUEST_INVALID') res.setHeader('Connection', 'close');
  const answer = admission.errors ? { received: false, code, errors: admission.errors } : { received: false, code, message };
  // A too-large body is still arriving: closing now would reset the connection before the
  // sender reads its 413 (it would see EPIPE and send again). Drain a bounded rest first; the
  // endpoint is unauthenticated, so the bound is small and within the request timeout.
  if (code === 'WEBHOOK_TOO_LARGE') return sendJson(res, status, answer, () => endAfterDrain(req, res, deps.drainLimits));
  sendJson(res, status, answer);
}

/** Answer an admitted event by what storing it came to: 200 once durable (a repeat too), 503 when it could not be stored. */
function answerStored(deps: AnswerWebhookDeps, res: ServerResponse, event: WebhookEvent, body: string, result: StoreResult): void {
  const { log, count } = deps;
  if (!result.ok) {
    const error = new ConnectorError('WEBHOOK_STORE_FAILED', `Event ${event.eventId} could not be stored: ${describeError(result.error)}`, {
      cause: result.error,
      details: { eventId: event.eventId },
    });
    log.error({ eventId: event.eventId, code: error.code, err: error }, error.message);
    count(error.code);
    return sendJson(res, 503, { received: false, code: error.code, message: 'event not stored; send again' });
  }
  const conflict = result.outcome === 'duplicate' ? findEventConflict(result.storedBody, body) : null;
  if (conflict) {
    log.warn(
      { eventId: event.eventId, code: 'WEBHOOK_EVENT_CONFLICT', eventType: event.eventType, orderId: event.orderId, ...conflict },
      `webhook event ${event.eventId} arrived again with a different body; the first one is kept`,
    );
    count('WEBHOOK_EVENT_CONFLICT');
    return sendReceived(res);
  }
  // Logged with its group by the batcher, once durable.
  count(result.outcome);
  sendReceived(res);
}

/** The answer to every stored event, built once: it is written thousands of times a second under load. */
const RECEIVED_BODY = JSON.stringify({ received: true });
const RECEIVED_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(RECEIVED_BODY) };

function sendReceived(res: ServerResponse): void {
  res.writeHead(200, RECEIVED_HEADERS);
  res.end(RECEIVED_BODY);
}

/** Answer with `body`; `end` ends the response in its own time (after draining the request), by default at once. */
export function sendJson(res: ServerResponse, status: number, body: unknown, end?: () => void): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  if (end === undefined) return void res.end(text);
  res.write(text);
  end();
}
