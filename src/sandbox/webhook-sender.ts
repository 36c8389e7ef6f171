/**
 * Sends order status webhooks: signed, retried on a schedule, one order's events strictly in order.
 *
 * Each order has a chain: an event starts only when the previous event of the same order was
 * delivered or ran out of attempts, so a receiver never sees `shipped` before `confirmed` from us
 * (events of different orders are independent). Every attempt is recorded for the admin API.
 */
import { randomUUID } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Logger } from '../log.js';
import { describeError } from '../errors.js';
import { sleep } from './abortable-sleep.js';
import { FAULT_KIND, type FaultInjector } from './faults.js';
import { signWebhookBody } from '../platform/webhook-signature.js';

/** Exactly the body the sandbox sends. */
export interface OrderStatusEvent {
  eventId: string;
  eventType: 'order.status.changed';
  eventDate: string;
  orderId: string;
  status: string;
}

/** One delivery attempt and its outcome. */
export interface WebhookAttempt {
  eventId: string;
  orderId: string;
  status: string;
  /** 1-based. */
  attempt: number;
  at: string;
  requestId: string;
  /** HTTP status answered by the receiver, when it answered. */
  httpStatus?: number;
  /** Connection error, timeout or injected fault, when it did not. */
  error?: string;
  outcome: 'delivered' | 'failed';
}

export const EVENT_DELIVERY_STATE = {
  pending: 'pending',
  delivered: 'delivered',
  exhausted: 'exhausted',
  /** No webhookUrl configured: the event exists but is not sent. */
  unsent: 'unsent',
} as const;
export type EventDeliveryState = (typeof EVENT_DELIVERY_STATE)[keyof typeof EVENT_DELIVERY_STATE];

export interface WebhookSenderOptions {
  url?: string;
  secret?: string;
  /** PEM certificate(s) trusted besides the public roots (a self-signed listener in demos and tests). */
  ca?: string | undefined;
  scheduleMs: readonly number[];
  timeScale: number;
  timeoutMs: number;
  faults: FaultInjector;
  logger: Logger;
  now: () => Date;
}

export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #agent: Agent;
  readonly #chains = new Map<string, Promise<void>>();
  readonly #running = new Set<Promise<void>>();
  readonly #attempts: WebhookAttempt[] = [];
  readonly #events: { event: OrderStatusEvent; state: EventDeliveryState }[] = [];
  #abort = new AbortController();
  #stopped = false;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    // The extra certificate is added to the public roots, not put in their place, and the
    // certificate is still verified: a listener with a CA-issued certificate keeps working.
    const connect = options.ca ? { connect: { ca: [...rootCertificates, options.ca] } } : {};
    this.#agent = new Agent({ keepAliveTimeout: 1_000, ...connect });
  }

  /** Queue an event behind the earlier events of the same order. */
  enqueue(event: OrderStatusEvent): void {
    const record = { event, state: this.#options.url ? EVENT_DELIVERY_STATE.pending : EVENT_DELIVERY_STATE.unsent } as {
      event: OrderStatusEvent;
      state: EventDeliveryState;
    };
    this.#events.push(record);
    if (!this.#options.url || this.#stopped) return;
    const previous = this.#chains.get(event.orderId) ?? Promise.resolve();
    const signal = this.#abort.signal;
    const next = previous.then(() => this.#deliver(record, signal));
    this.#chains.set(event.orderId, next);
    this.#running.add(next);
    void next.finally(() => {
      this.#running.delete(next);
      if (this.#chains.get(event.orderId) === next) this.#chains.delete(event.orderId);
    });
  }

  attempts(): WebhookAttempt[] {
    return this.#attempts.map((a) => ({ ...a }));
  }

  events(): { event: OrderStatusEvent; state: EventDeliveryState }[] {
    return this.#events.map((e) => ({ event: { ...e.event }, state: e.state }));
  }

  /** Resolves when no event is waiting or being sent. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Cancel pending retries and forget everything (admin reset). */
  async reset(): Promise<void> {
    this.#abort.abort();
    await this.idle();
    this.#abort = new AbortController();
    this.#attempts.length = 0;
    this.#events.length = 0;
  }

  /** Cancel pending retries and close connections; idempotent. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#abort.abort();
    await this.idle();
    await this.#agent.destroy();
  }

  async #deliver(record: { event: OrderStatusEvent; state: EventDeliveryState }, signal: AbortSignal): Promise<void> {
    const { scheduleMs, timeScale, logger } = this.#options;
    const log = logger.child({ eventId: record.event.eventId, orderId: record.event.orderId });
    const rawBody = JSON.stringify(record.event);
    try {
      for (let index = 0; index < scheduleMs.length; index += 1) {
        if (!(await sleep((scheduleMs[index] ?? 0) * timeScale, signal))) return;
        const fault = this.#options.faults.draw('webhook');
        if (fault.latencyMs > 0 && !(await sleep(fault.latencyMs, signal))) return;
        const attempt = await this.#attempt(record.event, rawBody, index + 1, fault.kind, signal);
        if (signal.aborted) return;
        this.#attempts.push(attempt);
        if (attempt.outcome === 'delivered') {
          record.state = EVENT_DELIVERY_STATE.delivered;
          log.debug({ attempt: attempt.attempt }, 'webhook delivered');
          return;
        }
        log.debug({ attempt: attempt.attempt, httpStatus: attempt.httpStatus, error: attempt.error }, 'webhook attempt failed');
      }
      record.state = EVENT_DELIVERY_STATE.exhausted;
      log.warn('webhook retries exhausted');
    } catch (error) {
      // A background chain must never reject: the next event of the order waits on it.
      record.state = EVENT_DELIVERY_STATE.exhausted;
      log.error({ err: error }, 'webhook delivery crashed');
    }
  }

  async #attempt(
    event: OrderStatusEvent,
    rawBody: string,
    attempt: number,
    fault: (typeof FAULT_KIND)[keyof typeof FAULT_KIND],
    signal: AbortSignal,
  ): Promise<WebhookAttempt> {
    const requestId = randomUUID();
    const base = { eventId: event.eventId, orderId: event.orderId, status: event.status, attempt, requestId };
    const at = (): string => this.#options.now().toISOString();
    if (fault !== FAULT_KIND.none && fault !== FAULT_KIND.dropAfterCommit) {
      return { ...base, at: at(), error: `injected fault: ${fault}`, outcome: 'failed' };
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
    };
    if (this.#options.secret) headers['x-service-signature'] = signWebhookBody(this.#options.secret, rawBody);
    try {
      const response = await request(this.#options.url as string, {
        method: 'POST',
        headers,
        body: rawBody,
        dispatcher: this.#agent,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.#options.timeoutMs)]),
      });
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      if (ok && fault === FAULT_KIND.dropAfterCommit) {
        return { ...base, at: at(), httpStatus: response.statusCode, error: 'injected fault: dropAfterCommit', outcome: 'failed' };
      }
      return { ...base, at: at(), httpStatus: response.statusCode, outcome: ok ? 'delivered' : 'failed' };
    } catch (error) {
      return { ...base, at: at(), error: describeError(error), outcome: 'failed' };
    }
  }
}
