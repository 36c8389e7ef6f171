/**
 * The idempotency store (IETF Idempotency-Key draft, with Stripe's choices where the draft leaves
 * room). Keys are scoped per token. A key is first `in-progress` (a second request with it gets
 * 409), then holds the final answer, which is replayed to any retry with the same body and path.
 *
 * Only final answers are remembered: a 5xx is not (the client must be able to retry it afresh);
 * a 4xx is (a validation error does not heal by retrying with the same key, as at Stripe).
 * A key expires `ttlMs` after its answer was stored.
 */
import type { ApiResponse } from './types.js';

interface Entry {
  path: string;
  bodyHash: string;
  state: 'in-progress' | 'done';
  response?: ApiResponse;
  expiresAtMs: number;
}

export type BeginResult =
  { kind: 'acquired' } | { kind: 'replay'; response: ApiResponse } | { kind: 'in-progress' } | { kind: 'mismatch'; what: 'body' | 'path' };

export interface RequestFingerprint {
  path: string;
  bodyHash: string;
}

export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #nowMs: () => number;

  constructor(ttlMs: number, nowMs: () => number) {
    this.#ttlMs = ttlMs;
    this.#nowMs = nowMs;
  }

  /** Look the key up and, when it is new (or expired), claim it as in progress. */
  begin(token: string, key: string, fingerprint: RequestFingerprint): BeginResult {
    const id = scope(token, key);
    const entry = this.#entries.get(id);
    if (entry && entry.state === 'done' && entry.expiresAtMs <= this.#nowMs()) this.#entries.delete(id);
    const live = this.#entries.get(id);
    if (!live) {
      this.#entries.set(id, { ...fingerprint, state: 'in-progress', expiresAtMs: Number.POSITIVE_INFINITY });
      return { kind: 'acquired' };
    }
    if (live.path !== fingerprint.path) return { kind: 'mismatch', what: 'path' };
    if (live.bodyHash !== fingerprint.bodyHash) return { kind: 'mismatch', what: 'body' };
    if (live.state === 'in-progress' || !live.response) return { kind: 'in-progress' };
    return { kind: 'replay', response: live.response };
  }

  /** Store the final answer of a claimed key; a 5xx releases the key instead. */
  complete(token: string, key: string, response: ApiResponse): void {
    const id = scope(token, key);
    const entry = this.#entries.get(id);
    if (!entry) return;
    if (response.status >= 500) {
      this.#entries.delete(id);
      return;
    }
    entry.state = 'done';
    entry.response = response;
    entry.expiresAtMs = this.#nowMs() + this.#ttlMs;
  }

  /** Forget a claimed key without an answer (an injected fault, a crash in processing, a stop). */
  release(token: string, key: string): void {
    const id = scope(token, key);
    if (this.#entries.get(id)?.state === 'in-progress') this.#entries.delete(id);
  }

  /** Drop expired answers; called now and then so a long demo does not grow without bound. */
  purgeExpired(): void {
    const now = this.#nowMs();
    for (const [id, entry] of this.#entries) if (entry.state === 'done' && entry.expiresAtMs <= now) this.#entries.delete(id);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

function scope(token: string, key: string): string {
  return `${token}\u0000${key}`;
}
