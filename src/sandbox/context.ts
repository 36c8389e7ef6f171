/** Everything a route handler of one sandbox can reach. */
import type { Logger } from '../log.js';
import type { DemoDriver } from './demo-driver.js';
import type { FaultInjector } from './faults.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { OrderBook } from './order-book.js';
import type { RecordedCall, SandboxRequest } from './types.js';
import type { WebhookSender } from './webhook-sender.js';

export interface SandboxContext {
  options: ResolvedSandboxOptions;
  logger: Logger;
  now: () => Date;
  idempotency: IdempotencyStore;
  faults: FaultInjector;
  orders: OrderBook;
  webhooks: WebhookSender;
  demo: DemoDriver | null;
  requests: RequestBook;
  calls: RecordedCall[];
  /** Aborted by stop(): ends added-latency sleeps. */
  signal: AbortSignal;
  /** Reset counters and state (admin reset). */
  reset: () => Promise<void>;
}

/** Accepted requests, by id and by (token, externalId). */
export class RequestBook {
  readonly #byId = new Map<string, SandboxRequest>();
  readonly #byExternalId = new Map<string, string>();
  #sequence = 0;

  nextId(prefix: string): string {
    this.#sequence += 1;
    return `${prefix}-REQ-${String(this.#sequence).padStart(6, '0')}`;
  }

  add(token: string, request: SandboxRequest): void {
    this.#byId.set(request.id, request);
    this.#byExternalId.set(`${token}\u0000${request.externalId}`, request.id);
  }

  findByExternalId(token: string, externalId: string): SandboxRequest | undefined {
    const id = this.#byExternalId.get(`${token}\u0000${externalId}`);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  list(): SandboxRequest[] {
    return [...this.#byId.values()];
  }

  clear(): void {
    this.#byId.clear();
    this.#byExternalId.clear();
    this.#sequence = 0;
  }
}
