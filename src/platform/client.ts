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
import { EventEmitter } from 'node:events';
import { Pool } from 'undici';
import { readBody } from '../shared/read-body.js';
import { confirmOrderPath, createRequestPath } from './contract.js';
import type { HttpHeaders } from './classify-failure.js';
import { ConnectorError } from '../errors.js';

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

/** The attempts open under each caller's signal, aborted together when it aborts (one listener per signal). */
const openAttempts = new WeakMap<AbortSignal, Set<EventEmitter>>();

function attemptsUnder(signal: AbortSignal): Set<EventEmitter> {
  let open = openAttempts.get(signal);
  if (!open) {
    const attempts = new Set<EventEmitter>();
    open = attempts;
    openAttempts.set(signal, attempts);
    signal.addEventListener(
      'abort',
      () => {
        for (const attempt of attempts) attempt.emit('abort');
      },
      { once: true },
    );
  }
  return open;
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
    // Each attempt gets its own abort handle, fired by the deadline or by the caller's signal: an
    // EventEmitter, which undici takes as a request's `signal` ('abort' aborts it). Not an
    // AbortController per attempt, nor `AbortSignal.any` (on Node 20 it keeps a reference to every
    // signal it combined with the sender's long-lived one): measured here, a fresh AbortSignal per
    // request cost delivery several per cent of its throughput. The caller's signal gets one
    // listener, which aborts the attempts still open under it.
    if (send.signal?.aborted) throw send.signal.reason;
    const attempt = new EventEmitter();
    const open = send.signal ? attemptsUnder(send.signal) : null;
    open?.add(attempt);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      attempt.emit('abort');
    }, attemptTimeoutMs);
    try {
      const response = await pool.request({
        method: 'POST',
        path: prefix + path,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
          'x-request-id': requestId,
          'idempotency-key': send.idempotencyKey,
        },
        body,
        signal: attempt,
      });
      const read = await readBody(response.body, maxResponseBytes, response.headers['content-length']);
      if (!read.ok) {
        // Destroying the body closes the connection: the rest of a long answer is not waited for.
        response.body.destroy();
        throw read.reason === 'tooLarge'
          ? new ResponseTooLargeError(maxResponseBytes)
          : (read.error ?? new ConnectorError('PLATFORM_UNAVAILABLE', 'the answer ended before it was complete'));
      }
      return { status: response.statusCode, headers: response.headers as HttpHeaders, body: read.body.toString('utf8'), requestId };
    } catch (error) {
      // The caller's own abort (a stop) stays what it is; the deadline becomes a failed attempt.
      if (timedOut && !send.signal?.aborted) throw new AttemptTimeoutError(attemptTimeoutMs);
      throw error;
    } finally {
      clearTimeout(deadline);
      open?.delete(attempt);
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
