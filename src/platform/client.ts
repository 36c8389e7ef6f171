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
import { Pool } from 'undici';
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

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const base = new URL(options.baseUrl);
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
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
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
      signal: send.signal,
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers as HttpHeaders, body: text, requestId };
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
