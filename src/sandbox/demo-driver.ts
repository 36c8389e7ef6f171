/**
 * Demo mode: each order moves one step along its lifecycle `demoDelaysMs × timeScale` after its
 * last change, including the confirmation nobody sent, so a demo shows the full cycle unattended.
 */
import { NEXT_ORDER_STATUS, type OrderStatus, type SandboxOrder } from './types.js';

export interface DemoDriverOptions {
  delayMs: number;
  advance: (orderId: string, expected: OrderStatus, next: OrderStatus) => void;
}

export class DemoDriver {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #options: DemoDriverOptions;
  #stopped = false;

  constructor(options: DemoDriverOptions) {
    this.#options = options;
  }

  /** Plan the next step of an order from its current status (skipped if it moved meanwhile). */
  schedule(order: SandboxOrder): void {
    const next = NEXT_ORDER_STATUS[order.status];
    if (!next || this.#stopped) return;
    const expected = order.status;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#options.advance(order.id, expected, next);
    }, this.#options.delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  stop(): void {
    this.#stopped = true;
    this.clear();
  }
}
