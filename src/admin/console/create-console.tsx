/**
 * The operator console: server-rendered pages on the admin listener (Hono, its JSX escaping every
 * value), each also answering `Accept: application/json` with the data it shows; actions behind a
 * confirmation, a session and a CSRF token; a strict Content-Security-Policy (`script-src 'self'`,
 * nothing inline, no other origin). `createConsole` returns a node:http handler that the admin
 * listener calls for everything that is not `/metrics`, `/healthz` or `/readyz`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { addActions } from './actions.js';
import { loadAssets } from './assets.js';
import { addAuth } from './auth.js';
import type { ConsoleDeps } from './deps.js';
import { addPages } from './pages.js';
import { html, notFound } from './respond.js';
import { addMappingStudio } from './studio/routes.js';
import { createRuntime, sessionOf, viewContext, wantsJson, type ConsoleEnv } from './runtime.js';
import { MessagePage } from './views/forms.js';

export type { ConsoleDeps, FlowGateView, OperatorActions } from './deps.js';

export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Everything the console serves comes from itself; forms post only to it; no page may frame it. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function createConsole(deps: ConsoleDeps): ConsoleHandler {
  const rt = createRuntime(deps);
  const { assets, missing } = loadAssets();
  if (missing.length > 0) rt.log.error({ missing }, 'console assets are missing (run npm run build); the pages work without style and live refresh');

  const app = new Hono<ConsoleEnv>();
  app.use(async (c, next) => {
    c.set('session', sessionOf(rt, c));
    await next();
    c.header('content-security-policy', CONTENT_SECURITY_POLICY);
    c.header('x-content-type-options', 'nosniff');
    c.header('x-frame-options', 'DENY');
    c.header('referrer-policy', 'same-origin');
    c.header('cross-origin-opener-policy', 'same-origin');
    c.header('cross-origin-resource-policy', 'same-origin');
    if (!c.res.headers.has('cache-control')) c.header('cache-control', 'no-store');
  });

  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'));
    if (!asset) return c.text('not found\n', 404);
    c.header('etag', asset.etag);
    c.header('cache-control', 'no-cache');
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304);
    return c.body(asset.body, 200, { 'content-type': asset.contentType });
  });

  addAuth(app, rt);
  addPages(app, rt);
  addActions(app, rt);
  addMappingStudio(app, rt);

  // The page's title says "not found"; its text says what was not found, in the words typed.
  app.notFound((c) => notFound(rt, c, rt.t('error.noPage', { path: readablePath(c.req.url) })));
  app.onError((error, c) => {
    rt.log.error({ err: error, path: new URL(c.req.url).pathname }, 'console request failed');
    if (wantsJson(c)) return c.json({ error: { code: 'INTERNAL', message: 'internal error' } }, 500);
    return html(c, <MessagePage ctx={viewContext(rt, c, false)} title="500" message="internal error" />, 500);
  });

  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  return (req, res) => listener(req, res);
}

/** A request's path as typed (`/заявки`, not `/%D0%B7…`), or as sent when it is not valid UTF-8. */
function readablePath(url: string): string {
  const { pathname } = new URL(url);
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
