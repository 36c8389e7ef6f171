/**
 * Fault injection, per operation. Each request (or webhook attempt) draws one number; the
 * probabilities are stacked in a fixed order, so one seed gives one sequence of faults.
 *
 * For `create` and `confirm`: 500, 503 + Retry-After, 429 + Retry-After and a dropped connection
 * are drawn BEFORE processing (nothing is created, the idempotency key is released);
 * `dropAfterCommit` processes and stores the answer, then destroys the socket without answering.
 * `latencyMs` is slept before processing while the key is held in progress.
 *
 * For `webhook` (the sandbox is the sender there): 500/503/429/drop lose the attempt before it
 * reaches the receiver (recorded as a failed attempt and retried); `dropAfterCommit` delivers it
 * but counts it as failed, so the receiver gets the same event again; `latencyMs` delays each attempt.
 */
import { z } from 'zod';

const probability = z.number().min(0).max(1);

export const operationFaultsSchema = z
  .strictObject({
    /** Probability of a 500. */
    status500: probability.default(0),
    /** Probability of a 503 with Retry-After. */
    status503: probability.default(0),
    /** Probability of a 429 with Retry-After. */
    status429: probability.default(0),
    /** Probability of destroying the socket before processing. */
    drop: probability.default(0),
    /** Probability of processing, committing, then destroying the socket without an answer. */
    dropAfterCommit: probability.default(0),
    /** Added latency before processing, in ms (not scaled by timeScale). */
    latencyMs: z.number().int().min(0).default(0),
    /** Value of Retry-After on 503 and 429, in seconds. */
    retryAfterSeconds: z.number().int().min(0).default(1),
  })
  .refine((f) => f.status500 + f.status503 + f.status429 + f.drop + f.dropAfterCommit <= 1 + 1e-9, {
    message: 'the fault probabilities of one operation must add up to at most 1',
  });
export type OperationFaults = z.infer<typeof operationFaultsSchema>;
export type OperationFaultsInput = z.input<typeof operationFaultsSchema>;

export const FAULT_OPERATION = { create: 'create', confirm: 'confirm', webhook: 'webhook' } as const;
export type FaultOperation = (typeof FAULT_OPERATION)[keyof typeof FAULT_OPERATION];

export const faultConfigSchema = z.strictObject({
  create: operationFaultsSchema.optional(),
  confirm: operationFaultsSchema.optional(),
  webhook: operationFaultsSchema.optional(),
});
/** Faults per operation; an operation left out has none. */
export type FaultConfig = z.input<typeof faultConfigSchema>;
type ParsedFaultConfig = z.output<typeof faultConfigSchema>;

export const FAULT_KIND = {
  none: 'none',
  status500: 'status500',
  status503: 'status503',
  status429: 'status429',
  drop: 'drop',
  dropAfterCommit: 'dropAfterCommit',
} as const;
export type FaultKind = (typeof FAULT_KIND)[keyof typeof FAULT_KIND];

export interface FaultDraw {
  kind: FaultKind;
  latencyMs: number;
  retryAfterSeconds: number;
}

const STACK = ['status500', 'status503', 'status429', 'drop', 'dropAfterCommit'] as const;

/** Pick the fault for one draw `r` in [0, 1): pure, so it is table-tested. */
export function pickFault(faults: OperationFaults | undefined, roll: number): FaultDraw {
  if (!faults) return { kind: FAULT_KIND.none, latencyMs: 0, retryAfterSeconds: 0 };
  let edge = 0;
  for (const kind of STACK) {
    edge += faults[kind];
    if (roll < edge) return { kind, latencyMs: faults.latencyMs, retryAfterSeconds: faults.retryAfterSeconds };
  }
  return { kind: FAULT_KIND.none, latencyMs: faults.latencyMs, retryAfterSeconds: faults.retryAfterSeconds };
}

/** mulberry32: a tiny seeded generator, enough to make fault sequences reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The live fault settings of one sandbox and its random source. */
export class FaultInjector {
  #config: ParsedFaultConfig;
  readonly #random: () => number;

  constructor(config: FaultConfig = {}, seed?: number) {
    this.#config = faultConfigSchema.parse(config);
    this.#random = seed === undefined ? Math.random : seededRandom(seed);
  }

  /** Replace the whole configuration (throws a ZodError when it is invalid). */
  set(config: FaultConfig): void {
    this.#config = faultConfigSchema.parse(config);
  }

  get(): ParsedFaultConfig {
    return structuredClone(this.#config);
  }

  draw(operation: FaultOperation): FaultDraw {
    const faults = this.#config[operation];
    if (!faults) return pickFault(undefined, 0);
    return pickFault(faults, this.#random());
  }
}
