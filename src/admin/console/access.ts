/**
 * Who may look and who may act: pure decisions over what a request says about itself, so each
 * rule is table-tested like `webhook/verify-signature.ts`.
 *
 * - A read-only page needs no login only when the admin listener is bound to loopback AND the
 *   request came straight from this host: its Host header names a loopback address (a page of
 *   another site that rebinds its DNS name to 127.0.0.1 sends its own name) and it carries no
 *   proxy header (a reverse proxy on this host would make loopback reachable from anywhere).
 * - Everything else, and every action, needs a session (the operator password).
 * - A form POST must come from the console's own origin: browsers send `Origin` with every POST;
 *   a request without it and without `Sec-Fetch-Site` is not a browser's, and CSRF needs a browser.
 */
import { isLoopback } from '../../config/config-warnings.js';

export type AccessNeed = 'read' | 'act';

export interface AccessRequest {
  /** The admin listener is bound to a loopback address (`metrics.host`). */
  loopbackListener: boolean;
  hostHeader: string | undefined;
  /** The request carries `Forwarded` or `X-Forwarded-For`. */
  forwarded: boolean;
  /** A valid, unexpired session came with it. */
  signedIn: boolean;
  /** `console.password` is configured (without it nobody can sign in). */
  passwordSet: boolean;
}

export type AccessVerdict = { ok: true } | { ok: false; reason: 'sign-in' | 'no-password' };

export function decideAccess(need: AccessNeed, request: AccessRequest): AccessVerdict {
  if (request.signedIn) return { ok: true };
  if (need === 'read' && isDirectLocalRequest(request)) return { ok: true };
  return { ok: false, reason: request.passwordSet ? 'sign-in' : 'no-password' };
}

/** Loopback listener, loopback Host, no proxy in between. */
export function isDirectLocalRequest(request: Pick<AccessRequest, 'loopbackListener' | 'hostHeader' | 'forwarded'>): boolean {
  return request.loopbackListener && !request.forwarded && isLoopbackHostHeader(request.hostHeader);
}

/** `127.0.0.1:9464`, `localhost:9464`, `[::1]:9464` (with or without the port). */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(host);
  if (bracketed) return isLoopback(bracketed[1]!);
  const plain = /^([^:]+)(?::\d{1,5})?$/.exec(host);
  return plain !== null && isLoopback(plain[1]!.toLowerCase());
}

/**
 * Does a state-changing request come from the console's own pages? `origin` and `fetchSite` are
 * the `Origin` and `Sec-Fetch-Site` headers, `host` the Host header.
 */
export function isSameOrigin(origin: string | undefined, fetchSite: string | undefined, host: string | undefined): boolean {
  if (origin !== undefined) {
    if (!host) return false;
    // Behind a TLS proxy the browser's origin is https; the Host it forwarded is the same.
    return origin === `http://${host}` || origin === `https://${host}`;
  }
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  return true;
}

/** Where to go after signing in: a path of this console only (never `//evil.example` or a full URL). */
export function safeNext(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\r\n]/.test(next)) return '/';
  return next;
}
