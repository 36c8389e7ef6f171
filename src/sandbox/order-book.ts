/**
 * Orders of the sandbox and their lifecycle `created → confirmed → shipped → delivered`.
 * Every status change is reported to `onStatusChanged` (which emits the webhook and drives demo mode).
 */
import type { ConfirmOrder } from '../platform/contract.js';
import { ORDER_STATUS, type OrderStatus, type SandboxOrder } from './types.js';

export interface OrderBookOptions {
  orderIdPrefix: string;
  now: () => Date;
  onStatusChanged: (order: SandboxOrder) => void;
}

export class OrderBook {
  readonly #orders = new Map<string, SandboxOrder>();
  readonly #options: OrderBookOptions;
  #sequence = 0;

  constructor(options: OrderBookOptions) {
    this.#options = options;
  }

  /** A new order for an accepted request: `ORD-<year>-<6 digits>`, status `created` (no webhook). */
  create(requestId: string, lineIds: string[]): SandboxOrder {
    const now = this.#options.now();
    this.#sequence += 1;
    const id = `${this.#options.orderIdPrefix}-${now.getUTCFullYear()}-${String(this.#sequence).padStart(6, '0')}`;
    const at = now.toISOString();
    const order: SandboxOrder = {
      id,
      requestId,
      status: ORDER_STATUS.created,
      lineIds: [...lineIds],
      createdAt: at,
      updatedAt: at,
      history: [{ status: ORDER_STATUS.created, at }],
    };
    this.#orders.set(id, order);
    return order;
  }

  get(id: string): SandboxOrder | undefined {
    return this.#orders.get(id);
  }

  list(): SandboxOrder[] {
    return [...this.#orders.values()];
  }

  /**
   * Record a supplier confirmation. A `created` order becomes `confirmed` (webhook); a `confirmed`
   * one is updated in place (no status change, so no webhook). The caller refuses later states.
   */
  confirm(order: SandboxOrder, confirmation: ConfirmOrder): SandboxOrder {
    order.supplierOrderId = confirmation.supplierOrderId;
    order.confirmation = structuredClone(confirmation);
    if (order.status === ORDER_STATUS.created) return this.#move(order, ORDER_STATUS.confirmed);
    order.updatedAt = this.#options.now().toISOString();
    return order;
  }

  /** Set any status (admin and demo); a change emits the webhook, the same status is a no-op. */
  setStatus(order: SandboxOrder, status: OrderStatus): SandboxOrder {
    if (order.status === status) return order;
    return this.#move(order, status);
  }

  clear(): void {
    this.#orders.clear();
    this.#sequence = 0;
  }

  #move(order: SandboxOrder, status: OrderStatus): SandboxOrder {
    const at = this.#options.now().toISOString();
    order.status = status;
    order.updatedAt = at;
    order.history.push({ status, at });
    this.#options.onStatusChanged(order);
    return order;
  }
}
