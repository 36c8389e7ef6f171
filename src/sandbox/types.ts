/** Shapes shared by the sandbox's parts: recorded calls, stored requests and orders, HTTP answers. */
import type { ConfirmOrder, CreateRequest } from '../platform/contract.js';

/** An HTTP answer the sandbox has decided on, before it is written (and what idempotency replays). */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What became of a call: the status answered, or how the connection was dropped. */
export type CallOutcome = number | 'dropped' | 'dropped-after-commit' | null;

/** One API call as received (admin calls are not recorded). The token in `path` reads `<token>`. */
export interface RecordedCall {
  seq: number;
  receivedAt: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body was JSON, else the raw text (undefined when not read). */
  body: unknown;
  /** Status answered; `null` while the call is still being processed. */
  status: CallOutcome;
  /** Replayed from the idempotency store. */
  replayed: boolean;
}

/** A request the sandbox accepted. */
export interface SandboxRequest {
  id: string;
  externalId: string;
  createdAt: string;
  orderId: string;
  body: CreateRequest;
}

export const ORDER_STATUS = {
  created: 'created',
  confirmed: 'confirmed',
  shipped: 'shipped',
  delivered: 'delivered',
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export const ORDER_STATUSES = Object.values(ORDER_STATUS);

/** The lifecycle order; demo mode walks it step by step. */
export const NEXT_ORDER_STATUS: Record<OrderStatus, OrderStatus | null> = {
  created: 'confirmed',
  confirmed: 'shipped',
  shipped: 'delivered',
  delivered: null,
};

/** An order the sandbox made for an accepted request. */
export interface SandboxOrder {
  id: string;
  requestId: string;
  status: OrderStatus;
  /** lineIds of the request, the only lines a confirmation may name. */
  lineIds: string[];
  createdAt: string;
  updatedAt: string;
  supplierOrderId?: string;
  confirmation?: ConfirmOrder;
  history: { status: OrderStatus; at: string }[];
}
