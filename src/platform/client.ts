/**
 * The HTTP client of the platform: one undici `Pool` (keep-alive) for the base URL, with the
 * connect, headers and body timeouts of `platform.*TimeoutMs`.
 *
 * It sends and returns the raw outcome `{ status, headers, body }`; what the outcome means is
 * decided in `classify-failure.ts`, and retries are the dispatcher's business (the row is the
 * truth of the schedule). It never logs: URLs carry the token as a path segment, so only the
 * caller, with a scrubbed view, talks about a request.
 */
import { randomUUID } from 'node:crypto';
import { errors, Pool, type Dispatcher } from 'undici';
import { declaresMoreThan } from '../shared/read-body.js';
import { confirmOrderPath, createRequestPath } from './contract.js';
import type { HttpHeaders } from './classify-failure.js';

export interface PlatformClientOptions {
  /** Base address without `/api-gateway/api/v1`; may carry a path prefix. */
  baseUrl: string;
  /** TCP connect timeout. Default 10 s. */
  connectTimeoutMs?: number;
  /** Time to wait for the response headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Time to wait between body chunks. Default 30 s. */
  bodyTimeoutMs?: number;
  /**
   * Longest time one attempt may take from sending to the last byte of the answer. Default 120 s.
   * The other timeouts bound each wait; this bounds their sum, against an answer trickling in a
   * byte at a time (each within `bodyTimeoutMs`), which would hold the row in flight for ever.
   */
  attemptTimeoutMs?: number;
  /** Largest answer read, in bytes; a longer one is abandoned (a failed attempt). Default 1 MiB. */
  maxResponseBytes?: number;
  /** Most sockets kept open to the platform. Default 16. */
  connections?: number;
}

export interface SendOptions {
  /** Stable per submission: identical on every attempt. */
  idempotencyKey: string;
  /** Fresh per attempt (X-Request-Id); generated when omitted. */
  requestId?: string;
  signal?: AbortSignal;
}

export interface RawOutcome {
  status: number;
  headers: HttpHeaders;
  body: string;
  /** The X-Request-Id this attempt was sent with. */
  requestId: string;
}

export interface PlatformClient {
  /** `POST …/<token>/requests` with a JSON body (a string is sent as is, exactly as recorded). */
  createRequest(token: string, payload: unknown, options: SendOptions): Promise<RawOutcome>;
  /** `POST …/<token>/supplier/orders/<orderId>/confirm`. */
  confirmOrder(token: string, orderId: string, payload: unknown, options: SendOptions): Promise<RawOutcome>;
  /** Close the pool; waits for requests in flight. Idempotent. */
  close(): Promise<void>;
}

/** The platform's answer was longer than `maxResponseBytes` (a failed attempt: retried under the same key). */
export class ResponseTooLargeError extends Error {
  readonly code = 'PLATFORM_RESPONSE_TOO_LARGE';
  constructor(limit: number) {
    super(`the platform's answer is longer than ${limit} bytes (platform.maxResponseBytes); it was not read`);
  }
}

/** The attempt took longer than `attemptTimeoutMs` in all (a failed attempt: retried under the same key). */
export class AttemptTimeoutError extends Error {
  readonly code = 'PLATFORM_ATTEMPT_TIMEOUT';
  constructor(limit: number) {
    super(`no complete answer within ${limit} ms (platform.attemptTimeoutMs)`);
  }
}

/** An attempt's way to end early: the deadline's error, or the caller's abort. */
type AbortAttempt = (reason: Error) => void;

/** The attempts open under each caller's signal, aborted together when it aborts (one listener per signal). */
const openAttempts = new WeakMap<AbortSignal, Set<AbortAttempt>>();

function attemptsUnder(signal: AbortSignal): Set<AbortAttempt> {
  let open = openAttempts.get(signal);
  if (!open) {
    const attempts = new Set<AbortAttempt>();
    open = attempts;
    openAttempts.set(signal, attempts);
    signal.addEventListener(
      'abort',
      () => {
        for (const abort of attempts) abort(new errors.RequestAbortedError());
      },
      { once: true },
    );
  }
  return open;
}

/** The whole answer to one attempt, read. */
interface Answer {
  status: number;
  headers: HttpHeaders;
  body: Buffer;
}

/**
 * Send one request and read its whole answer, up to `maxBytes`, through undici's handler
 * interface rather than `request()`: `request()` hands the body over as a stream (a `Readable`,
 * its events and ticks, and our listeners on it), which cost more CPU per request than anything
 * but the store and the socket (docs/performance.md, Delivery). Here the chunks are gathered as
 * they come. A longer answer, declared or not, aborts the attempt (`ResponseTooLargeError`), which
 * closes the connection rather than reading the rest. `abort` ends the attempt with its reason,
 * also before the request has a connection.
 */
function dispatchAttempt(pool: Pool, request: Dispatcher.DispatchOptions, maxBytes: number): { answer: Promise<Answer>; abort: AbortAttempt } {
  let controller: Dispatcher.DispatchController | undefined;
  let early: Error | undefined;
  let status = 0;
  let headers: HttpHeaders = {};
  const chunks: Buffer[] = [];
  let size = 0;
  const answer = new Promise<Answer>((resolve, reject) => {
    const tooLarge = (at: Dispatcher.DispatchController): void => at.abort(new ResponseTooLargeError(maxBytes));
    pool.dispatch(request, {
      onRequestStart(at) {
        controller = at;
        if (early) at.abort(early);
      },
      onResponseStart(at, statusCode, responseHeaders) {
        if (statusCode < 200) return; // an informational answer (103 Early Hints): the real one follows
        status = statusCode;
        headers = responseHeaders as HttpHeaders;
        if (declaresMoreThan(responseHeaders['content-length'], maxBytes)) tooLarge(at);
      },
      onResponseData(at, chunk) {
        if (at.aborted) return;
        size += chunk.length;
        if (size > maxBytes) tooLarge(at);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        resolve({ status, headers, body: Buffer.concat(chunks, size) });
      },
      onResponseError(_at, error) {
        reject(error);
      },
    });
  });
  return {
    answer,
    abort(reason) {
      early ??= reason;
      controller?.abort(reason);
    },
  };
}

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const base = new URL(options.baseUrl);
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 120_000;
  const maxResponseBytes = options.maxResponseBytes ?? 1024 * 1024;
  const prefix = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 16,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    keepAliveTimeout: 30_000,
  });
  let closing: Promise<void> | undefined;

  async function post(path: string, payload: unknown, send: SendOptions): Promise<RawOutcome> {
    const requestId = send.requestId ?? randomUUID();
    // A claimed row's payload comes as the UTF-8 bytes the store holds: sent as they are.
    const body = typeof payload === 'string' || payload instanceof Uint8Array ? payload : JSON.stringify(payload);
    // Each attempt ends early through its own `abort`, called by the deadline or by the caller's
    // signal. Not an AbortController per attempt, nor `AbortSignal.any` (on Node 20 it keeps a
    // reference to every signal it combined with the sender's long-lived one): measured here, a
    // fresh AbortSignal per request cost delivery several per cent of its throughput. The caller's
    // signal gets one listener, which aborts the attempts still open under it.
    if (send.signal?.aborted) throw send.signal.reason;
    const attempt = dispatchAttempt(
      pool,
      {
        method: 'POST',
        path: prefix + path,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
          'x-request-id': requestId,
          'idempotency-key': send.idempotencyKey,
        },
        body,
      },
      maxResponseBytes,
    );
    const open = send.signal ? attemptsUnder(send.signal) : null;
    open?.add(attempt.abort);
    // The deadline becomes a failed attempt; the caller's own abort (a stop) stays what it is.
    const deadline = setTimeout(() => attempt.abort(new AttemptTimeoutError(attemptTimeoutMs)), attemptTimeoutMs);
    try {
      const { status, headers, body: answer } = await attempt.answer;
      return { status, headers, body: answer.toString('utf8'), requestId };
    } finally {
      clearTimeout(deadline);
      open?.delete(attempt.abort);
    }
  }

  return {
    createRequest: (token, payload, send) => post(createRequestPath(token), payload, send),
    confirmOrder: (token, orderId, payload, send) => post(confirmOrderPath(token, orderId), payload, send),
    close() {
      closing ??= pool.close();
      return closing;
    },
  };
}
