/**
 * The admission ladder of the webhook listener, as one pure function: what arrived (the request's
 * head, then its body) in, a verdict out. The listener only reads, admits, stores and answers.
 *
 * The rungs, in order, each with the answer that stops there:
 *   target (400 WEBHOOK_REQUEST_INVALID) → path (404) → method (405) → source (403
 *   WEBHOOK_FORBIDDEN_SOURCE) → stopping (503 WEBHOOK_STOPPING) → media type (415
 *   WEBHOOK_MEDIA_TYPE) → size (413 WEBHOOK_TOO_LARGE) → signature over the raw bytes (401
 *   WEBHOOK_SIGNATURE_INVALID) → JSON (400 WEBHOOK_BODY_INVALID) → event schema (400
 *   WEBHOOK_BODY_INVALID).
 * Everything up to the declared size is decided on the head alone (`read-body`: read the body,
 * then ask again), so an unauthenticated client cannot make the listener hold a body it would
 * refuse anyway. Cheap checks come first and the signature comes before any parsing of the body.
 */
import type { ErrorCode } from '../errors.js';
import { SIGNATURE_HEADER } from '../platform/webhook-signature.js';
import { issuesToFieldErrors, webhookEventSchema, type WebhookEvent } from '../platform/contract.js';
import { quickWebhookEvent } from '../platform/webhook-event-check.js';
import type { AllowList } from './allow-from.js';
import { verifySignature, type SignatureProblem } from './verify-signature.js';

/** What the listener admits by: its config, already parsed. */
export interface AdmissionPolicy {
  path: string;
  allowList: AllowList;
  maxBodyBytes: number;
  requireSignature: boolean;
  secrets: readonly string[];
}

/** What is known of a request before its body is read. */
export interface RequestHead {
  /** The request target as sent (`req.url`). */
  target: string | undefined;
  method: string | undefined;
  /** The peer's address. */
  remote: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** True once the listener is stopping: nothing new is stored. */
  stopping: boolean;
}

/** The body as read: its bytes, or `too-large` when reading stopped at the limit. */
export type BodyRead = Buffer | 'too-large';

export type Admission =
  /** Refused: answer `status`; `code` is what it is counted and logged as (null for 404/405, which are not webhook refusals). */
  | {
      kind: 'refuse';
      status: number;
      code: ErrorCode | null;
      message: string;
      /** The schema's complaints, by field, for a 400 on the event's shape. */
      errors?: { path: string; message: string }[];
      /** Why a signature was refused (logged, never the body). */
      signatureProblem?: SignatureProblem;
    }
  /** The head passed: read the body (at most `maxBodyBytes`) and ask again with it. */
  | { kind: 'read-body' }
  /** A signed, well-formed event, ready to store, and its body as text (decoded once, here). */
  | { kind: 'accept'; event: WebhookEvent; text: string };

const refuse = (status: number, code: ErrorCode | null, message: string, extra: Partial<Extract<Admission, { kind: 'refuse' }>> = {}): Admission => ({
  kind: 'refuse',
  status,
  code,
  message,
  ...extra,
});

/** The one answer that asks for the body: no object per request for it. */
const READ_BODY: Admission = { kind: 'read-body' };

/** Walk the ladder for `head` (and `body`, once read). */
export function admitWebhook(policy: AdmissionPolicy, head: RequestHead, body?: BodyRead): Admission {
  const refused = refuseHead(policy, head);
  if (refused) return refused;
  return body === undefined ? READ_BODY : admitBody(policy, head, body);
}

/**
 * The rest of the ladder once the body is read (the size as read, the signature, the JSON, the
 * schema), for a head `admitWebhook` already passed: the listener asks the head's rungs once, not
 * again with the body.
 */
export function admitBody(policy: AdmissionPolicy, head: RequestHead, body: BodyRead): Admission {
  if (body === 'too-large') return refuse(413, 'WEBHOOK_TOO_LARGE', `body exceeds ${policy.maxBodyBytes} bytes`);
  if (policy.requireSignature) {
    const signature = verifySignature(body, head.headers[SIGNATURE_HEADER], policy.secrets);
    if (!signature.ok) return refuse(401, 'WEBHOOK_SIGNATURE_INVALID', `signature ${signature.problem}`, { signatureProblem: signature.problem });
  }
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse(400, 'WEBHOOK_BODY_INVALID', 'body is not valid JSON');
  }
  // The quick check first; the schema only for a body it refuses, for the issues the 400 names.
  const event = quickWebhookEvent(json);
  if (event !== undefined) return { kind: 'accept', event, text };
  const parsed = webhookEventSchema.safeParse(json);
  if (!parsed.success) return refuse(400, 'WEBHOOK_BODY_INVALID', 'body does not match the event schema', { errors: issuesToFieldErrors(parsed.error.issues) });
  return { kind: 'accept', event: parsed.data, text };
}

/** The rungs decided on the head alone, up to the declared size: the refusal, or undefined when the body is to be read. */
function refuseHead(policy: AdmissionPolicy, head: RequestHead): Admission | undefined {
  const pathname = pathOf(head.target);
  if (pathname === null) return refuse(400, 'WEBHOOK_REQUEST_INVALID', 'request target cannot be parsed');
  if (pathname !== policy.path) return refuse(404, null, 'not found');
  if (head.method !== 'POST') return refuse(405, null, 'method not allowed');
  if (!policy.allowList.allows(head.remote)) return refuse(403, 'WEBHOOK_FORBIDDEN_SOURCE', 'source address not allowed');
  if (head.stopping) return refuse(503, 'WEBHOOK_STOPPING', 'shutting down; send again later');
  if (!isJsonContentType(header(head, 'content-type'))) return refuse(415, 'WEBHOOK_MEDIA_TYPE', 'Content-Type must be application/json');
  const declared = Number(header(head, 'content-length'));
  if (Number.isFinite(declared) && declared > policy.maxBodyBytes) return refuse(413, 'WEBHOOK_TOO_LARGE', `body exceeds ${policy.maxBodyBytes} bytes`);
  return undefined;
}

/** True for `application/json`, with or without parameters (`; charset=utf-8`), any letter case. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'application/json' || value === 'application/json; charset=utf-8') return true;
  return value.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * A target of plain path characters only (no `.`, `%`, `\\`, query, or a leading `//`, which
 * WHATWG URL parsing would rewrite) is its own path: no URL to build for every request.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*$/;

/** The path of a request target, or null when it cannot be a URL (`//[/`). */
function pathOf(target: string | undefined): string | null {
  if (target !== undefined && PLAIN_PATH.test(target)) return target;
  try {
    return new URL(target ?? '/', 'http://listener').pathname;
  } catch {
    return null;
  }
}

function header(head: RequestHead, name: string): string | undefined {
  const value = head.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
