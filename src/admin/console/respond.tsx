/** How the console answers: a page (HTML with a doctype), the same data as JSON, a refusal, a missing thing, a sign-in redirect. */
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../../errors.js';
import type { AccessVerdict } from './access.js';
import { paths } from './paths.js';
import { logRefusal, pathWithQuery, viewContext, wantsJson, type RequestContext, type Runtime } from './runtime.js';
import { MessagePage } from './views/forms.js';
import { renderHtml } from './render-html.js';

export async function html(c: RequestContext, page: JSX.Element, status: ContentfulStatusCode = 200): Promise<Response> {
  return c.html(`<!DOCTYPE html>${await renderHtml(page)}`, status);
}

/**
 * A page: its data as JSON for a script, or rendered for a browser. The data is shown as the store
 * holds it: the ERP's and the platform's values are never rewritten, and what could carry a secret
 * (the platform's error bodies) was scrubbed before it was stored (`platform/classify-failure.ts`).
 */
export async function page<T>(c: RequestContext, data: T, render: (data: T) => JSX.Element): Promise<Response> {
  if (wantsJson(c)) return c.json(data as object);
  return html(c, render(data));
}

export async function refused(
  rt: Runtime,
  c: RequestContext,
  status: 401 | 403 | 413 | 429,
  reason: string,
  code: ErrorCode = 'CONSOLE_REQUEST_REFUSED',
): Promise<Response> {
  if (code === 'CONSOLE_REQUEST_REFUSED') logRefusal(rt, c, reason);
  if (wantsJson(c)) return c.json({ error: { code, message: reason } }, status);
  return html(c, <MessagePage ctx={viewContext(rt, c, false)} title={rt.t('error.refused', { reason: '' }).replace(/:\s*$/, '')} message={reason} />, status);
}

export async function notFound(rt: Runtime, c: RequestContext, message: string): Promise<Response> {
  if (wantsJson(c)) return c.json({ error: { code: 'NOT_FOUND', message } }, 404);
  return html(c, <MessagePage ctx={viewContext(rt, c, false)} title={rt.t('error.notFound')} message={message} />, 404);
}

/** Not allowed without a session: a browser goes to the sign-in page (and comes back), a script gets 401. */
export async function signInFirst(rt: Runtime, c: RequestContext, verdict: Extract<AccessVerdict, { ok: false }>): Promise<Response> {
  const message = verdict.reason === 'no-password' ? rt.t('login.noPassword') : rt.t('login.why');
  if (wantsJson(c)) {
    logRefusal(rt, c, verdict.reason);
    return c.json({ error: { code: 'CONSOLE_REQUEST_REFUSED', message } }, 401);
  }
  return c.redirect(paths.login(pathWithQuery(c)), 303);
}
