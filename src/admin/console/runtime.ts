/**
 * The console's runtime: what it builds once from its deps (`deps.ts`, what the daemon hands it) and
 * every route shares (the sessions, the sign-in limiter, the translator), and the helpers that read
 * one request's `RequestContext` into an access decision, a `ViewContext` for its page, or a
 * refusal's answer (a page for a browser, `{ error: { code, message } }` for a script asking for JSON).
 * Words kept apart: deps and runtime live as long as the console; a context lives for one request.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { isLoopback } from '../../config/config-warnings.js';
import type { Logger } from '../../log.js';
import { alreadyDurable, type WaitDurable } from '../../shared/types.js';
import { getAuditEntry } from '../../store/audit.js';
import { decideAccess, type AccessNeed, type AccessRequest, type AccessVerdict } from './access.js';
import type { ConsoleDeps } from './deps.js';
import { translator, type Translate } from './i18n.js';
import { createLoginLimiter, type LoginLimiter } from './login-limiter.js';
import { createSessionStore, SESSION_COOKIE, type Session, type SessionStore } from './sessions.js';
import { auditDetail } from './views/parts.js';
import type { ViewContext } from './views/view-context.js';

export type ConsoleEnv = { Bindings: HttpBindings; Variables: { session: Session | undefined } };
/** Hono's context of one request (`c` in a route). */
export type RequestContext = Context<ConsoleEnv>;

/** Built once by `createRuntime` and passed to every route (`rt`). */
export interface Runtime {
  deps: ConsoleDeps;
  sessions: SessionStore;
  limiter: LoginLimiter;
  t: Translate;
  loopbackListener: boolean;
  passwordSet: boolean;
  log: Logger;
  flowNames: readonly string[];
  /** Resolves once every commit made so far is on disk (`deps.durable`, or at once). */
  durable: WaitDurable;
}

export function createRuntime(deps: ConsoleDeps): Runtime {
  return {
    deps,
    sessions: createSessionStore({ ttlMs: deps.config.sessionTtlMinutes * 60_000, clock: deps.clock }),
    limiter: createLoginLimiter({ clock: deps.clock }),
    t: translator(deps.config.language),
    loopbackListener: isLoopback(deps.listenerHost),
    passwordSet: deps.config.password !== undefined,
    log: deps.logger.child({ component: 'console' }),
    flowNames: deps.flows.map((flow) => flow.name),
    durable: deps.durable ?? alreadyDurable,
  };
}

/** The session a request's cookie names, if it is valid. */
export function sessionOf(rt: Runtime, c: RequestContext): Session | undefined {
  return rt.sessions.get(getCookie(c, SESSION_COOKIE));
}

export function clientAddress(c: RequestContext): string | null {
  return c.env.incoming.socket.remoteAddress ?? null;
}

export function accessRequest(rt: Runtime, c: RequestContext): AccessRequest {
  return {
    loopbackListener: rt.loopbackListener,
    hostHeader: c.req.header('host'),
    forwarded: c.req.header('forwarded') !== undefined || c.req.header('x-forwarded-for') !== undefined,
    signedIn: c.get('session') !== undefined,
    passwordSet: rt.passwordSet,
  };
}

export function checkAccess(rt: Runtime, c: RequestContext, need: AccessNeed): AccessVerdict {
  return decideAccess(need, accessRequest(rt, c));
}

/** A script asks for JSON (`Accept: application/json`); a browser asks for HTML first. */
export function wantsJson(c: RequestContext): boolean {
  const accept = c.req.header('accept') ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

/** The request's path with its query, for "come back here after signing in". */
export function pathWithQuery(c: RequestContext): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

export function viewContext(rt: Runtime, c: RequestContext, withFlash = true): ViewContext {
  const session = c.get('session');
  return {
    t: rt.t,
    language: rt.deps.config.language,
    session: session ? { actor: session.actor, csrfToken: session.csrfToken } : null,
    actionsOn: rt.passwordSet,
    flows: rt.flowNames,
    path: pathWithQuery(c),
    flash: withFlash ? flashOf(rt, c) : null,
  };
}

/** `?done=<audit id>` after an action: the audit row it wrote, announced once at the top of the page it touched. */
function flashOf(rt: Runtime, c: RequestContext): ViewContext['flash'] {
  const done = c.req.query('done');
  if (!done || !/^\d{1,15}$/.test(done)) return null;
  const entry = getAuditEntry(rt.deps.db, Number(done));
  if (!entry || rt.deps.clock() - entry.at > 10 * 60_000) return null;
  return { action: entry.action, result: entry.result, detail: auditDetail(rt.t, { detail: entry.detail, detail_text: entry.detailText }) };
}

/** Log a refused request with its code (never a password or a token) and answer it. */
export function logRefusal(rt: Runtime, c: RequestContext, reason: string): void {
  rt.log.warn(
    { code: 'CONSOLE_REQUEST_REFUSED', address: clientAddress(c), method: c.req.method, path: new URL(c.req.url).pathname, reason },
    'console request refused',
  );
}
