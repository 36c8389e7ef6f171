/** Fixtures and a tiny HTTP caller for the sandbox tests. */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { confirmOrderPath, createRequestPath } from '../../src/platform/contract.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { validRequest } from './fixtures.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

export interface PostOptions {
  key?: string | null;
  method?: string;
  contentType?: string;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** POST a JSON body (or raw text) and read the whole answer. */
export async function post(url: string, body: unknown, options: PostOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json; charset=utf-8',
    accept: 'application/json',
    'x-request-id': randomUUID(),
    ...options.headers,
  };
  const key = options.key === undefined ? randomUUID() : options.key;
  if (key !== null) headers['idempotency-key'] = key;
  const response = await request(url, {
    method: (options.method ?? 'POST') as 'POST',
    headers,
    body: options.method === 'GET' ? undefined : (options.rawBody ?? JSON.stringify(body)),
  });
  const text = await response.body.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: tests look at `text`
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

export function createUrl(sandbox: Sandbox, token = sandbox.token): string {
  return sandbox.url + createRequestPath(token);
}

export function confirmUrl(sandbox: Sandbox, orderId: string, token = sandbox.supplierToken): string {
  return sandbox.url + confirmOrderPath(token, orderId);
}

/** Create a request and return its id and order id. */
export async function createAccepted(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Promise<{ requestId: string; orderId: string }> {
  const reply = await post(createUrl(sandbox), validRequest(overrides));
  if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${reply.text}`);
  const requestId = reply.json.id as string;
  const order = sandbox.requests().find((r) => r.id === requestId);
  if (!order) throw new Error('created request not found in sandbox state');
  return { requestId, orderId: order.orderId };
}

export interface ReceivedWebhook {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
}

/**
 * A real webhook receiver on port 0. `answer(n)` gives the status of the n-th (0-based) delivery;
 * default 200 `{received:true}`. Always closed afterwards.
 */
export async function withReceiver<T>(answer: (index: number, hook: ReceivedWebhook) => number, fn: (receiver: Receiver) => Promise<T>): Promise<T> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const hook = { headers: req.headers, rawBody, body: JSON.parse(rawBody) as Record<string, unknown> };
      const status = answer(received.length, hook);
      received.push(hook);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ received: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await fn({ url: `http://127.0.0.1:${port}/webhooks/service`, received });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
