/**
 * One flow's sending loop: claim due rows under a lease, send up to `concurrency` at once (and at
 * most `ratePerSecond`), record each outcome in one transaction with the row's state change.
 * The loop never throws: each tick catches at its boundary and logs.
 *
 * The parts it wires: the gate (`gate-keeper.ts`: circuit breaker and pause), the claims that fill
 * free slots (`slot-filler.ts`) within the rate limit (`start-spacing.ts`), the send of one row
 * (`send-row.ts`), the group commit of outcomes (`outcome-batcher.ts`) and what a recorded outcome
 * reports (`report-outcome.ts`).
 */
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { FlowConfig } from '../config/flow-schema.js';
import type { PlatformConfig } from '../config/platform-schema.js';
import { type Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RandomSource } from '../platform/backoff.js';
import type { PlatformClient } from '../platform/client.js';
import type { Db } from '../store/open-store.js';
import { countOutstanding, recordAttempts, releaseInFlight, type RecordedAttempt } from '../store/outbox.js';
import { type Clock } from '../shared/types.js';
import type { GatePolicy, GateState } from './flow-gate.js';
import { createGateKeeper, type GateKeeper } from './gate-keeper.js';
import { createOutcomeBatcher } from './outcome-batcher.js';
import { createOutcomeReport, type OutcomeReport } from './report-outcome.js';
import { createRowSender, type ClassifiedAttempt } from './send-row.js';
import { claimGroupFor, createSlotFiller, type SlotFiller } from './slot-filler.js';
import { createStartSpacing } from './start-spacing.js';
import { createWakeable, type Wakeable } from './wakeable.js';

export interface FlowSenderDeps {
  db: Db;
  flow: FlowConfig;
  platform: PlatformConfig;
  delivery: DeliveryConfig;
  client: PlatformClient;
  logger: Logger;
  clock: Clock;
  random: RandomSource;
  /** Prometheus counters (the daemon's); optional. */
  metrics?: Pick<Metrics, 'submissions' | 'retries'> | undefined;
  /** Called after an outcome enqueued an acknowledgement. */
  onAcknowledged?: (() => void) | undefined;
  /** How long an acceptance waits for others to share its commit (`outcome-batcher.ts`). Default 10 ms. */
  outcomeWindowMs?: number | undefined;
}

export interface FlowSender {
  start(): void;
  stop(timeoutMs: number): Promise<void>;
  wake(): void;
  /**
   * True when the flow has nothing left to do on its own: nothing in flight and no row pending,
   * including rows waiting out a backoff or an open circuit. A paused flow (its token refused)
   * counts as idle whatever it holds: only a person can move it on.
   */
  isIdle(): boolean;
  gate(): Readonly<GateState>;
  /** A paused or open flow probes now (the operator's "resume"); false when the gate is closed. */
  resume(): boolean;
}

/**
 * How long an acceptance waits by default for others to share its commit (`outcome-batcher.ts`):
 * at a few thousand answers a second, a few dozen answers. A commit writes every page it touched,
 * so the rows' own work per answer halves from groups of four to groups of 32 (docs/performance.md,
 * *2. Delivery*); the cost is an acknowledgement up to this much later, and after a crash at most
 * this many milliseconds of answers sent again under their keys.
 */
const OUTCOME_WINDOW_MS = 10;

export function createFlowSender(deps: FlowSenderDeps): FlowSender {
  const { db, flow, delivery, clock } = deps;
  const log = deps.logger.child({ component: 'delivery', flow: flow.name });
  const wakeable = createWakeable();
  const stopLoop = new AbortController();
  const abortRequests = new AbortController();
  const gate = createGateKeeper({ policy: gatePolicyOf(delivery), flowName: flow.name, log, clock, onTransition: () => wakeable.wake() });
  const report = createOutcomeReport({ flowName: flow.name, metrics: deps.metrics, onAcknowledged: deps.onAcknowledged });
  const outcomes = createOutcomeBatcher<ClassifiedAttempt>({
    record: (group) => recordAttempts(db, group),
    onRecorded: (outcome, result) => hearRecorded(outcome, result, report, gate),
    // The answers to one claim's rows (at least one per slot).
    capacity: claimGroupFor(delivery.concurrency),
    windowMs: deps.outcomeWindowMs ?? OUTCOME_WINDOW_MS,
  });
  const sendRow = createRowSender({ ...deps, log, signal: abortRequests.signal, gate, outcomes });
  const spacing = createStartSpacing(delivery.ratePerSecond);
  const slots = createSlotFiller({ db, flowName: flow.name, delivery, clock, gate, spacing, outcomes, sendRow, onSlotFreed: () => wakeable.wake() });
  let loop: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;

  async function stop(timeoutMs: number): Promise<void> {
    stopLoop.abort();
    await loop;
    if (slots.holdsRows()) {
      const grace = new AbortController();
      await Promise.race([slots.settled(), createWakeable().wait(timeoutMs, grace.signal)]);
      grace.abort();
    }
    abortRequests.abort();
    await slots.settled();
    outcomes.stop();
    slots.releaseClaimed(clock());
  }

  return {
    start() {
      if (loop || stopping) return;
      try {
        const released = releaseInFlight(db, flow.name, clock());
        if (released > 0) log.info({ released }, 'Rows left in flight by an earlier run are pending again');
      } catch (error) {
        // A store that takes no writes now (a full disk) must not stop the start: rows left in
        // flight are claimed again anyway once their lease runs out, under the same key.
        log.warn({ err: error }, 'Rows left in flight by an earlier run could not be released now; they are sent again once their lease runs out');
      }
      loop = runLoop(slots, wakeable, stopLoop.signal, delivery.pollIntervalMs, log);
    },
    stop(timeoutMs) {
      stopping ??= stop(timeoutMs);
      return stopping;
    },
    wake: () => wakeable.wake(),
    isIdle() {
      if (slots.holdsRows() || outcomes.queued().length > 0) return false;
      if (gate.state().mode === 'paused') return true;
      return countOutstanding(db, flow.name) === 0;
    },
    gate: () => gate.state(),
    resume() {
      if (!gate.resume()) return false;
      wakeable.wake();
      return true;
    },
  };
}

/** Fill the slots, then sleep as long as they say (a wake-up cuts it short), until `signal` aborts. A tick that throws is logged and tried again after the poll interval. */
async function runLoop(slots: SlotFiller, wakeable: Wakeable, signal: AbortSignal, pollIntervalMs: number, log: Logger): Promise<void> {
  while (!signal.aborted) {
    let delay = pollIntervalMs;
    try {
      delay = slots.fill();
    } catch (error) {
      log.error({ err: error }, 'Delivery tick failed; retrying after the poll interval');
    }
    await wakeable.wait(delay, signal);
  }
}

/** A recorded outcome is reported, then moves the gate; one that could not be recorded only frees a probe slot. */
function hearRecorded(outcome: ClassifiedAttempt, result: RecordedAttempt, report: OutcomeReport, gate: GateKeeper): void {
  if (!('written' in result)) return gate.hearNothing(outcome.slot);
  if (result.written) report.written(outcome);
  else report.notWritten(outcome);
  gate.hearAnswer(outcome.classification, outcome.slot);
}

function gatePolicyOf(delivery: DeliveryConfig): GatePolicy {
  return {
    failureThreshold: delivery.circuit.failureThreshold,
    probeIntervalMs: delivery.circuit.probeIntervalMs,
    capMs: delivery.backoff.capMs,
    pauseProbeMs: delivery.circuit.probeIntervalMs,
  };
}
