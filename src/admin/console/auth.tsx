/**
 * Signing in and out. A failed sign-in is logged with the address and the name given, never the
 * password, and counted per address (`login-limiter.ts`): past the limit the password is not even
 * compared and the answer is 429 with Retry-After. The session cookie is HttpOnly, SameSite=Strict,
 * with the session's lifetime.
 */
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, setCookie } from 'hono/cookie';
import { isSameOrigin, safeNext } from './access.js';
import { formatDuration } from './format.js';
import { passwordMatches } from './password.js';
import { html, refused } from './respond.js';
import { clientAddress, viewContext, wantsJson, type ConsoleEnv, type RequestContext, type Runtime } from './runtime.js';
import { SESSION_COOKIE, tokensMatch } from './sessions.js';
import { LoginPage } from './views/forms.js';

const MAX_NAME_LENGTH = 100;
const DEFAULT_ACTOR = 'operator';

export function addAuth(app: Hono<ConsoleEnv>, rt: Runtime): void {
  const loginPage = (c: RequestContext, o: { next: string; name: string; problem: string | null }, status: 200 | 401 | 403 | 429 = 200) =>
    html(c, <LoginPage ctx={viewContext(rt, c, false)} next={o.next} name={o.name} problem={o.problem} passwordSet={rt.passwordSet} />, status);

  app.get('/login', (c) => {
    const next = safeNext(c.req.query('next'));
    if (c.get('session')) return c.redirect(next, 303);
    return loginPage(c, { next, name: '', problem: null });
  });

  app.post('/login', bodyLimit({ maxSize: 16 * 1024, onError: (c) => refused(rt, c as RequestContext, 413, 'form too large') }), async (c) => {
    // Login CSRF: a page elsewhere must not sign a browser in to its own session.
    if (!isSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) return refused(rt, c, 403, 'foreign origin');
    const form = await c.req.parseBody();
    const text = (key: string) => (typeof form[key] === 'string' ? form[key] : '');
    const next = safeNext(text('next'));
    const name = text('name')
      .trim()
      .replace(/\p{Cc}/gu, '')
      .slice(0, MAX_NAME_LENGTH);
    const address = clientAddress(c);
    const log = { code: 'CONSOLE_LOGIN_REFUSED', address, name };

    const waitMs = rt.limiter.retryAfterMs(address);
    if (waitMs > 0) {
      rt.log.warn({ ...log, retryAfterMs: waitMs }, 'console sign-in refused: too many failed attempts from this address');
      c.header('retry-after', String(Math.ceil(waitMs / 1000)));
      const problem = rt.t('login.limited', { wait: formatDuration(waitMs, rt.deps.config.language) });
      return wantsJson(c) ? c.json({ error: { code: 'CONSOLE_LOGIN_REFUSED', message: problem } }, 429) : loginPage(c, { next, name, problem }, 429);
    }
    if (!rt.passwordSet) {
      rt.log.warn(log, 'console sign-in refused: console.password is not set');
      return wantsJson(c)
        ? c.json({ error: { code: 'CONSOLE_LOGIN_REFUSED', message: rt.t('login.noPassword') } }, 403)
        : loginPage(c, { next, name, problem: null }, 403);
    }
    if (!passwordMatches(text('password'), rt.deps.config.password)) {
      rt.limiter.fail(address);
      rt.log.warn(log, 'console sign-in refused: wrong password');
      return wantsJson(c)
        ? c.json({ error: { code: 'CONSOLE_LOGIN_REFUSED', message: rt.t('login.wrong') } }, 401)
        : loginPage(c, { next, name, problem: rt.t('login.wrong') }, 401);
    }
    rt.limiter.succeed(address);
    const session = rt.sessions.create(name || DEFAULT_ACTOR, address);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: Math.floor((session.expiresAt - session.createdAt) / 1000),
    });
    rt.log.info({ address, actor: session.actor }, 'console sign-in');
    return wantsJson(c)
      ? c.json({ actor: session.actor, csrfToken: session.csrfToken, expiresAt: new Date(session.expiresAt).toISOString() })
      : c.redirect(next, 303);
  });

  app.post('/logout', bodyLimit({ maxSize: 16 * 1024, onError: (c) => refused(rt, c as RequestContext, 413, 'form too large') }), async (c) => {
    const session = c.get('session');
    if (session) {
      if (!isSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) return refused(rt, c, 403, 'foreign origin');
      const form = await c.req.parseBody();
      const token = typeof form._csrf === 'string' ? form._csrf : c.req.header('x-csrf-token');
      if (!tokensMatch(token, session.csrfToken)) return refused(rt, c, 403, rt.t('error.csrf'));
      rt.sessions.drop(session.id);
      rt.log.info({ address: clientAddress(c), actor: session.actor }, 'console sign-out');
    }
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/', 303);
  });
}
