/**
 * The outbox dispatcher: one sender per flow (`flow-sender.ts`), started and stopped together.
 * `wake()` is for intake (rows recorded) and the retry sweep; `drain()` is for tests and the
 * one-shot paths: it resolves once nothing is in flight and nothing sendable is due.
 */
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { FlowConfig } from '../config/flow-schema.js';
import type { PlatformConfig } from '../config/platform-schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RandomSource } from '../platform/backoff.js';
import type { PlatformClient } from '../platform/client.js';
import { type Db } from '../store/open-store.js';
import { createFlowSender, type FlowSender } from './flow-sender.js';
import type { GateState } from './flow-gate.js';
import { ConnectorError } from '../errors.js';
import type { Component } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';
import { createWakeable } from './wakeable.js';
import { systemClock, type Clock } from '../shared/types.js';

export interface DispatcherDeps {
  db: Db;
  flows: readonly FlowConfig[];
  platform: PlatformConfig;
  delivery: DeliveryConfig;
  client: PlatformClient;
  logger: Logger;
  clock?: Clock;
  random?: RandomSource;
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'submissions' | 'retries'>;
  /** How long `stop()` lets requests in flight finish before aborting them. Default 10 s. */
  stopGraceMs?: number;
  /** Called after an outcome enqueued an acknowledgement (the daemon wakes the exporter here). */
  onAcknowledged?: () => void;
  /** How long an acceptance waits for others to share its commit (`outcome-batcher.ts`). Default 10 ms. */
  outcomeWindowMs?: number;
}

export interface Dispatcher extends Component {
  /** Release rows a crash left in flight, then start every flow's loop. Idempotent. */
  start(): Promise<void>;
  /**
   * Stop claiming, let requests in flight finish for up to `stopGraceMs`, then abort them;
   * aborted rows are pending again, due now, with their key. Idempotent.
   */
  stop(): Promise<void>;
  /** Look for due rows now instead of at the next poll. */
  wake(): void;
  /**
   * Resolve once every flow is idle: nothing in flight and no row outstanding in the store (rows
   * waiting out a backoff count; a paused flow, which only an operator or a working token resumes,
   * counts as idle), or once stopped.
   */
  drain(signal?: AbortSignal): Promise<void>;
  /** The circuit/pause state of a flow (metrics, health, tests). */
  gate(flow: string): Readonly<GateState> | undefined;
  /**
   * A paused (401/403) or open (platform down) flow sends its probe now instead of at the next
   * probe time. True when it was paused or open; false when it sends freely or is unknown.
   */
  resume(flow: string): boolean;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const senders = new Map<string, FlowSender>();
  for (const flow of deps.flows) {
    senders.set(flow.name, createFlowSender({ ...deps, flow, clock, random }));
  }
  const graceMs = deps.stopGraceMs ?? 10_000;
  // One-shot: a flow sender's loop ends for good at its stop.
  const lifecycle = createStartStop({
    async start() {
      for (const sender of senders.values()) sender.start();
    },
    async stop() {
      await Promise.all([...senders.values()].map((sender) => sender.stop(graceMs)));
    },
    afterStop: () => new ConnectorError('INTERNAL_ERROR', 'The dispatcher was stopped; create a new one'),
  });
  const stopped = (): boolean => lifecycle.stopping;

  return {
    name: 'delivery',
    start: lifecycle.start,
    stop: lifecycle.stop,
    wake() {
      for (const sender of senders.values()) sender.wake();
    },
    async drain(signal) {
      const pause = createWakeable();
      while (!stopped() && !signal?.aborted && ![...senders.values()].every((sender) => sender.isIdle())) {
        await pause.wait(10, signal);
      }
    },
    gate: (flow) => senders.get(flow)?.gate(),
    resume: (flow) => (stopped() ? false : (senders.get(flow)?.resume() ?? false)),
  };
}
