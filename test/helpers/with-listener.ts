/** Fixtures for the listener tests: a real listener on port 0 over a real SQLite file, and a signed-webhook builder. */
import http from 'node:http';
import path from 'node:path';
import { openStore, type Db } from '../../src/store/open-store.js';
import { webhookSchema, type WebhookConfig } from '../../src/config/webhook-schema.js';
import { createWebhookListener, type WebhookListener, type WebhookListenerDeps } from '../../src/webhook/create-webhook-listener.js';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from './temp-dir.js';

export const SECRET = 'whsec-test-secret';

export interface ListenerContext {
  url: string;
  db: Db;
  dir: string;
  listener: WebhookListener;
  config: WebhookConfig;
  stored: { count: number };
}

export async function withListener<T>(
  options: { config?: Partial<WebhookConfig>; deps?: Partial<WebhookListenerDeps> },
  fn: (ctx: ListenerContext) => Promise<T>,
): Promise<T> {
  return withTempDir(async (dir) => {
    const db = openStore(path.join(dir, 'state', 'connector.sqlite'));
    const config = webhookSchema.parse({ port: 0, secrets: [SECRET], ...options.config });
    const stored = { count: 0 };
    const listener = createWebhookListener({
      db,
      config,
      logger: silentLogger,
      onStored: () => {
        stored.count += 1;
      },
      ...options.deps,
    });
    try {
      const { url } = await listener.start();
      return await fn({ url, db, dir, listener, config, stored });
    } finally {
      await listener.stop();
      if (db.open) db.close();
    }
  });
}

let nextEvent = 1;
/** One valid `order.status.changed` event; each test breaks it in one way. */
export function buildEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const n = nextEvent++;
  return {
    eventId: `EVT-${String(n).padStart(6, '0')}`,
    eventType: 'order.status.changed',
    eventDate: '2026-06-12T10:15:00+03:00',
    orderId: 'ORD-2026-000042',
    status: 'shipped',
    ...overrides,
  };
}

export interface PostOptions {
  body?: string | Buffer;
  /** Defaults: JSON content type and a valid signature of `body` under SECRET. */
  headers?: Record<string, string | undefined>;
  method?: string;
  path?: string;
  secret?: string;
  /** Send without Content-Length (chunked), so the listener must count the bytes itself. */
  chunked?: boolean;
}

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: unknown;
}

/** POST (or another method) with node:http, signing the body unless told otherwise. */
export function postWebhook(url: string, event: unknown, options: PostOptions = {}): Promise<PostResult> {
  const body = options.body ?? JSON.stringify(event);
  const target = new URL(url);
  if (options.path) target.pathname = options.path;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-service-signature': signWebhookBody(options.secret ?? SECRET, body),
    'x-request-id': '2f1d7c8e-8a55-4c53-9e5d-1c2b3a4d5e6f',
  };
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === undefined) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        agent: false,
        method: options.method ?? 'POST',
        headers: options.chunked ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.method === 'GET' || options.method === 'HEAD' ? undefined : body);
  });
}

export function getPath(url: string, pathname: string): Promise<PostResult> {
  return postWebhook(url, null, { method: 'GET', path: pathname, body: '' });
}

export function countRows(db: Db, table: 'events' | 'exports' | 'order_statuses'): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}
