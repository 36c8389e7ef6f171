/**
 * One flow's sending loop: claim due rows under a lease, send up to `concurrency` at once (and at
 * most `ratePerSecond`), record each outcome in one transaction with the row's state change.
 * The loop never throws: each tick catches at its boundary and logs.
 *
 * State changes are grouped (docs/performance.md): while the circuit is closed and no rate limit
 * spaces the starts, one claim takes up to `CLAIM_GROUP` due rows at once and the loop feeds them to
 * free slots; answers are recorded in groups, one transaction each: at the end of the turn they
 * came in when one of them may move the gate (so the gate hears every answer of a turn before a
 * slot frees), otherwise with the acceptances of the next couple of milliseconds (`endOfTurn`).
 * Neither needs to be durable at once: a lost claim only makes its rows due again, a lost outcome
 * only sends the request again under the same Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { FlowConfig } from '../config/flow-schema.js';
import type { PlatformConfig } from '../config/platform-schema.js';
import { type Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RandomSource } from '../platform/backoff.js';
import { classifyOutcome, type AttemptOutcome, type Classification } from '../platform/classify-failure.js';
import type { PlatformClient } from '../platform/client.js';
import { requestKeyOf } from '../platform/idempotency-key.js';
import { ackChannel } from '../store/exports.js';
import type { Db } from '../store/open-store.js';
import {
  claimDueSubmissions,
  countOutstanding,
  nextDueAt,
  recordAttempt,
  recordAttempts,
  releaseInFlight,
  type AttemptToRecord,
  type RecordedAttempt,
} from '../store/outbox.js';
import type { SubmissionRow } from '../store/submissions.js';
import { abandonedUpdate, buildAckRecord, decideTransition } from './decide-transition.js';
import { gateAllowance, initialGate, markProbeStarted, probeNow, updateGate, type GatePolicy, type GateSignal, type GateState } from './flow-gate.js';
import { createWakeable } from './wakeable.js';
import { type Clock } from '../shared/types.js';

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
  /** How long an acceptance waits for others to share its commit (`endOfTurn`). Default 2 ms. */
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

/** Rows one claim takes while the circuit is closed and no rate limit applies. */
const CLAIM_GROUP = 32;

/** How long an acceptance waits by default for others to share its commit (`endOfTurn`). */
const OUTCOME_WINDOW_MS = 2;

function noop(): void {}

/** An answer waiting to be recorded with the others of its group. */
interface PendingOutcome extends AttemptToRecord {
  row: SubmissionRow;
  c: Classification;
  probe: boolean;
  itemLog: Logger;
  finalState: string | null;
  attemptOutcome: string;
  resolve: () => void;
}

export function createFlowSender(deps: FlowSenderDeps): FlowSender {
  const { db, flow, delivery, client, clock, random } = deps;
  const log = deps.logger.child({ component: 'delivery', flow: flow.name });
  const token = flow.token ?? deps.platform.token;
  const policy: GatePolicy = {
    failureThreshold: delivery.circuit.failureThreshold,
    probeIntervalMs: delivery.circuit.probeIntervalMs,
    capMs: delivery.backoff.capMs,
    pauseProbeMs: delivery.circuit.probeIntervalMs,
  };
  const minSpacingMs = delivery.ratePerSecond ? 1000 / delivery.ratePerSecond : 0;

  const wakeable = createWakeable();
  const stopLoop = new AbortController();
  const abortRequests = new AbortController();
  const inFlight = new Map<number, Promise<void>>();
  /** Rows claimed as a group, waiting for a free slot (in flight in the store, under their lease). */
  let queued: SubmissionRow[] = [];
  let outcomes: PendingOutcome[] = [];
  let outcomeTimer: NodeJS.Timeout | null = null;
  /** `endOfTurn` is scheduled. */
  let turnEnding = false;
  /** Acceptances' slots to free at the end of this turn. */
  let releasing: (() => void)[] = [];
  /** Queued answers that hold their slot (they may move the gate): nothing starts until they are recorded. */
  let holding = 0;
  let gate = initialGate(policy);
  let nextStartAt = 0;
  let loop: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;

  function tick(): number {
    const now = clock();
    // An answer that may move the gate is waiting for its record: a free slot must not start a
    // request the gate would have held back. The record resolves that answer's send, which wakes
    // the loop again.
    if (holding > 0) return delivery.pollIntervalMs;
    const free = delivery.concurrency - inFlight.size;
    if (gate.mode === 'closed' && minSpacingMs === 0) {
      if (free > 0 && queued.length < free) {
        const excludeIds = [...inFlight.keys(), ...queued.map((row) => row.id), ...outcomes.map((o) => o.submissionId)];
        queued.push(...claimDueSubmissions(db, { flow: flow.name, now, leaseMs: delivery.leaseMs, limit: CLAIM_GROUP - queued.length, excludeIds }));
      }
      while (inFlight.size < delivery.concurrency && queued.length > 0) begin(queued.shift()!, false, now);
      return sleepFor(clock());
    }
    // Probes and rate limits take one row at a time, straight from the store; rows claimed while
    // the circuit was closed go back to pending instead of waiting out an open circuit in flight.
    releaseQueued(now);
    const allowance = gateAllowance(gate, now, free);
    let limit = allowance.limit;
    if (minSpacingMs > 0) limit = now >= nextStartAt ? Math.min(limit, 1) : 0;
    if (limit > 0) {
      const rows = claimDueSubmissions(db, {
        flow: flow.name,
        now,
        leaseMs: delivery.leaseMs,
        limit,
        excludeIds: [...inFlight.keys(), ...outcomes.map((o) => o.submissionId)],
      });
      for (const row of rows) {
        if (allowance.probe) gate = markProbeStarted(gate);
        if (minSpacingMs > 0) nextStartAt = Math.max(now, nextStartAt) + minSpacingMs;
        begin(row, allowance.probe, now);
      }
    }
    return sleepFor(clock());
  }

  function begin(row: SubmissionRow, probe: boolean, now: number): void {
    const sending = send(row, probe, now).finally(() => {
      inFlight.delete(row.id);
      wakeable.wake();
    });
    inFlight.set(row.id, sending);
  }

  /** Hand rows claimed but not started back to pending (no attempt counted). */
  function releaseQueued(now: number): void {
    if (queued.length === 0) return;
    const ids = queued.map((row) => row.id);
    queued = [];
    releaseInFlight(db, flow.name, now, ids);
  }

  /** How long the loop may sleep: until the next due row, probe or rate slot, at most one poll interval. */
  function sleepFor(now: number): number {
    let until = now + delivery.pollIntervalMs;
    if (delivery.concurrency - inFlight.size > 0) {
      if (gate.mode === 'closed') {
        const due = nextDueAt(db, flow.name);
        if (due !== null) until = Math.min(until, due);
      } else if (!gate.probeInFlight) {
        until = Math.min(until, gate.nextProbeAt);
      }
      if (minSpacingMs > 0 && nextStartAt > now) until = Math.max(until, Math.min(nextStartAt, now + delivery.pollIntervalMs));
    }
    return Math.max(1, until - now);
  }

  async function run(): Promise<void> {
    while (!stopLoop.signal.aborted) {
      let delay = delivery.pollIntervalMs;
      try {
        delay = tick();
      } catch (error) {
        log.error({ err: error }, 'Delivery tick failed; retrying after the poll interval');
      }
      await wakeable.wait(delay, stopLoop.signal);
    }
  }

  /** Send one claimed row; `startedAt` is the tick's time, the one the rate limit decided by. */
  async function send(row: SubmissionRow, probe: boolean, startedAt: number): Promise<void> {
    const requestId = randomUUID();
    const itemLog = log.child({ externalId: row.external_id, requestId, submissionId: row.id });
    let attempt: AttemptOutcome;
    try {
      const options = { idempotencyKey: row.idempotency_key, requestId, signal: abortRequests.signal };
      const raw =
        row.kind === 'confirmation'
          ? await client.confirmOrder(token, row.order_id ?? row.external_id, row.payload, options)
          : await client.createRequest(token, row.payload, options);
      attempt = { type: 'response', status: raw.status, headers: raw.headers, body: raw.body };
    } catch (error) {
      if (abortRequests.signal.aborted) {
        recordAbandoned(row, requestId, startedAt, itemLog);
        if (probe) gate = updateGate(gate, 'neutral', true, clock(), policy).state;
        return;
      }
      attempt = { type: 'error', error };
    }
    const now = clock();
    let c: Classification;
    try {
      // A request sent under another key than its original one is a correction (`platform/idempotency-key.ts`).
      const correction = row.kind === 'request' && row.idempotency_key !== requestKeyOf(deps.platform.sourceSystem, row.external_id);
      c = classifyOutcome({ kind: row.kind, correction, earlierAttempts: row.attempts }, attempt, now);
    } catch (error) {
      itemLog.error({ err: error }, 'Could not classify the outcome of a delivery attempt; the lease hands the row back');
      if (probe) gate = updateGate(gate, 'neutral', true, clock(), policy).state;
      return;
    }
    const t = decideTransition(row, c, { backoff: delivery.backoff, startedAt, now, random });
    const ack = t.finalState
      ? { channel: ackChannel(flow.name), sourceKey: `${row.id}:${t.finalState}:${requestId}`, record: buildAckRecord(flow.name, row, c, t), now }
      : undefined;
    const attemptRecord = {
      requestId,
      startedAt,
      finishedAt: now,
      httpStatus: c.httpStatus,
      outcome: t.attemptOutcome,
      error: c.code ? c.reason : null,
      // Each attempt keeps the platform's own answer (scrubbed by the classification), so the console's timeline shows every problem.
      result: c.result ? JSON.stringify(c.result) : null,
    };
    const outcome = {
      submissionId: row.id,
      attempt: attemptRecord,
      update: t.update,
      ack,
      row,
      c,
      probe,
      itemLog,
      finalState: t.finalState,
      attemptOutcome: t.attemptOutcome,
    };
    // An acceptance while the circuit is closed frees its slot at the end of this turn and waits
    // for its group. Any other answer may move the gate (a failure, a refused token, a probe's
    // verdict): it holds its slot until it is recorded.
    if (!probe && gate.mode === 'closed' && c.outcome === 'accepted')
      await new Promise<void>((release) => queueOutcome({ ...outcome, resolve: noop }, release));
    else await new Promise<void>((resolve) => queueOutcome({ ...outcome, resolve }, null));
  }

  /**
   * Queue an answer for recording; `release` frees an acceptance's slot (null: the answer holds
   * its slot until it is recorded). Each commit writes its pages to the WAL, so an answer recorded
   * on its own cost about as much again as its rows (docs/performance.md); answers are recorded in
   * groups (`endOfTurn`). Until it is recorded the row stays in flight in the store, under its
   * lease: a crash meanwhile sends it again under the same key.
   */
  function queueOutcome(outcome: PendingOutcome, release: (() => void) | null): void {
    outcomes.push(outcome);
    if (release) releasing.push(release);
    else holding += 1;
    if (!turnEnding) {
      turnEnding = true;
      setImmediate(endOfTurn);
    }
  }

  /**
   * Once every answer of this turn is queued (as the group of one turn was always recorded): if
   * one of them may move the gate, or `concurrency` wait, the group is recorded now, so the gate
   * has heard every answer of the turn before a slot frees; otherwise the acceptances free their
   * slots and wait up to `outcomeWindowMs` for others to share their commit.
   */
  function endOfTurn(): void {
    turnEnding = false;
    if (holding > 0 || outcomes.length >= delivery.concurrency) recordOutcomes();
    else if (outcomes.length > 0) outcomeTimer ??= setTimeout(recordOutcomes, deps.outcomeWindowMs ?? OUTCOME_WINDOW_MS);
    const ready = releasing;
    releasing = [];
    for (const release of ready) release();
  }

  /** Record the answers queued so far in one transaction, then log them and move the gate. */
  function recordOutcomes(): void {
    if (outcomeTimer) clearTimeout(outcomeTimer);
    outcomeTimer = null;
    const batch = outcomes;
    outcomes = [];
    holding = 0;
    if (batch.length === 0) return;
    let results: RecordedAttempt[] | null = null;
    try {
      results = recordAttempts(db, batch);
    } catch (error) {
      // The answers could not be recorded (store failure). The rows stay in flight and their lease
      // hands them back later; the same Idempotency-Key makes the repeat safe.
      for (const item of batch) item.itemLog.error({ err: error }, 'Could not record the outcome of a delivery attempt');
    }
    for (const [index, item] of batch.entries()) {
      try {
        const result = results?.[index];
        if (result && 'error' in result) item.itemLog.error({ err: result.error }, 'Could not record the outcome of a delivery attempt');
        else if (result) report(item, result.written);
        applyGate(item.c, item.probe, clock(), result !== undefined && 'written' in result);
      } catch (error) {
        item.itemLog.error({ err: error }, 'Could not report the outcome of a delivery attempt');
      } finally {
        item.resolve();
      }
    }
  }

  function report(item: PendingOutcome, written: boolean): void {
    const { update } = item;
    const fields = {
      outcome: item.attemptOutcome,
      httpStatus: item.c.httpStatus,
      code: update.lastErrorCode,
      attempts: update.attempts,
      platformId: update.platformId,
    };
    if (!written) {
      item.itemLog.warn(fields, 'The row left the in-flight state while it was being sent; outcome not recorded');
      return;
    }
    if (item.ack) deps.onAcknowledged?.();
    deps.metrics?.submissions.inc({ flow: flow.name, outcome: item.attemptOutcome });
    if (item.attemptOutcome === 'retry') deps.metrics?.retries.inc({ flow: flow.name });
    if (item.attemptOutcome === 'accepted') item.itemLog.info(fields, item.c.reason);
    else if (item.attemptOutcome === 'retry')
      item.itemLog.info({ ...fields, nextAttemptAt: new Date(update.nextAttemptAt).toISOString() }, `Will retry: ${item.c.reason}`);
    else if (item.attemptOutcome === 'paused') item.itemLog.debug(fields, item.c.reason);
    else item.itemLog.warn(fields, update.lastError ?? item.c.reason);
  }

  function recordAbandoned(row: SubmissionRow, requestId: string, startedAt: number, itemLog: Logger): void {
    try {
      const now = clock();
      const attempt = { requestId, startedAt, finishedAt: now, httpStatus: null, outcome: 'aborted', error: 'Aborted by shutdown' };
      recordAttempt(db, row.id, attempt, abandonedUpdate(row, now));
      itemLog.info('Attempt aborted by shutdown; the row is pending again with the same Idempotency-Key');
    } catch (error) {
      itemLog.error({ err: error }, 'Could not return an aborted row to pending; its lease will');
    }
  }

  /** Move the gate by an answer; an answer that could not be recorded only frees a probe slot. */
  function applyGate(c: Classification, probe: boolean, now: number, recorded: boolean): void {
    const signal: GateSignal = !recorded
      ? 'neutral'
      : c.outcome === 'paused'
        ? 'unauthorized'
        : c.countsAsPlatformFailure
          ? 'failure'
          : c.outcome === 'retry'
            ? 'neutral'
            : 'success';
    const { state, transition } = updateGate(gate, signal, probe, now, policy);
    gate = state;
    if (transition === 'paused') {
      log.error(
        { code: 'PLATFORM_UNAUTHORIZED', httpStatus: c.httpStatus },
        `The platform refused the token of flow ${flow.name} (${c.httpStatus}); the flow is paused and its rows wait, a probe every ${policy.pauseProbeMs} ms`,
      );
    } else if (transition === 'resumed') {
      log.info(`The token of flow ${flow.name} works again; the flow resumes`);
    } else if (transition === 'opened') {
      log.warn(
        { code: 'PLATFORM_UNAVAILABLE', consecutiveFailures: state.consecutiveFailures },
        `The platform looks down (${state.consecutiveFailures} failures in a row); circuit open, one probe every ${state.probeIntervalMs} ms`,
      );
    } else if (transition === 'closed') {
      log.info('The platform answers again; circuit closed');
    }
    if (transition) wakeable.wake();
  }

  return {
    start() {
      if (loop || stopping) return;
      const released = releaseInFlight(db, flow.name, clock());
      if (released > 0) log.info({ released }, 'Rows left in flight by an earlier run are pending again');
      loop = run();
    },
    stop(timeoutMs) {
      stopping ??= (async () => {
        stopLoop.abort();
        await loop;
        if (inFlight.size > 0) {
          const grace = new AbortController();
          await Promise.race([Promise.allSettled([...inFlight.values()]), createWakeable().wait(timeoutMs, grace.signal)]);
          grace.abort();
        }
        abortRequests.abort();
        await Promise.allSettled([...inFlight.values()]);
        recordOutcomes();
        releaseQueued(clock());
      })();
      return stopping;
    },
    wake: () => wakeable.wake(),
    isIdle() {
      if (inFlight.size > 0 || queued.length > 0 || outcomes.length > 0) return false;
      if (gate.mode === 'paused') return true;
      return countOutstanding(db, flow.name) === 0;
    },
    gate: () => gate,
    resume() {
      if (gate.mode === 'closed') return false;
      gate = probeNow(gate, clock());
      log.info({ mode: gate.mode }, `Flow ${flow.name}: the operator asked to resume; probing now`);
      wakeable.wake();
      return true;
    },
  };
}
