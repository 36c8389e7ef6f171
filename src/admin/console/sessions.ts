/**
 * Console sessions, in memory: an unguessable id in an HttpOnly, SameSite=Strict cookie, a fixed
 * expiry (`console.sessionTtlMinutes`), a CSRF token per session. A restart signs everyone out,
 * which is the safe direction. Bounded: past `maxSessions` the oldest one goes.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../shared/types.js';

export interface Session {
  id: string;
  /** The name given at sign-in ("operator" when none): the audit's "who". */
  actor: string;
  address: string | null;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionStore {
  create(actor: string, address: string | null): Session;
  /** The session with this id, unless it is unknown or expired. */
  get(id: string | undefined): Session | undefined;
  drop(id: string | undefined): void;
}

export const SESSION_COOKIE = 'pc_console';

export function createSessionStore(options: { ttlMs: number; clock: Clock; maxSessions?: number }): SessionStore {
  const sessions = new Map<string, Session>();
  const max = options.maxSessions ?? 1_000;
  return {
    create(actor, address) {
      const now = options.clock();
      for (const [id, s] of sessions) if (s.expiresAt <= now) sessions.delete(id);
      while (sessions.size >= max) sessions.delete(sessions.keys().next().value!);
      const session: Session = {
        id: randomBytes(32).toString('base64url'),
        actor,
        address,
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: now,
        expiresAt: now + options.ttlMs,
      };
      sessions.set(session.id, session);
      return session;
    },
    get(id) {
      if (!id) return undefined;
      const session = sessions.get(id);
      if (!session) return undefined;
      if (session.expiresAt <= options.clock()) {
        sessions.delete(id);
        return undefined;
      }
      return session;
    },
    drop(id) {
      if (id) sessions.delete(id);
    },
  };
}

/** Constant-time comparison of two tokens (after a length check, which leaks only the length). */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
