/**
 * Fills a flow's free send slots with due rows, claimed under a lease. While the circuit is closed
 * and no rate limit spaces the starts, one claim takes up to `claimGroupFor` due rows at once and
 * free slots are fed from them (docs/performance.md); probes and rate-limited starts take one row
 * at a time, straight from the store. A claim needs no durability: a lost one only makes its rows
 * due again.
 */
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { Db } from '../store/open-store.js';
import { claimDueToSend, nextDueAt, releaseInFlight } from '../store/outbox.js';
import type { ClaimedSubmission } from '../store/submissions.js';
import type { Clock } from '../shared/types.js';
import type { AttemptSlot } from './flow-gate.js';
import type { GateKeeper } from './gate-keeper.js';
import type { OutcomeBatcher } from './outcome-batcher.js';
import type { ClassifiedAttempt, SendRow } from './send-row.js';
import type { StartSpacing } from './start-spacing.js';

/** Rows a claim takes for each slot of the flow: claimed rows wait in flight for a free slot. */
const CLAIM_ROWS_PER_SLOT = 16;
/** The most rows one claim takes (unless the flow has more slots). */
const MAX_CLAIM_GROUP = 64;

/**
 * Rows one claim takes while the circuit is closed and no rate limit applies: 16 for each slot, at
 * most 64, and never fewer than the slots. A claim costs a statement, its sort and its commit
 * however many rows it takes: at four slots, claims of 64 rows cost the dispatcher about 3 % less
 * CPU a request than claims of 32 (docs/performance.md, *2. Delivery*). Per slot, so that at one
 * slot and a slow platform no more than 16 rows wait in flight for their turn.
 */
export function claimGroupFor(concurrency: number): number {
  return Math.max(concurrency, Math.min(MAX_CLAIM_GROUP, CLAIM_ROWS_PER_SLOT * concurrency));
}

export interface SlotFillerOptions {
  db: Db;
  flowName: string;
  delivery: Pick<DeliveryConfig, 'concurrency' | 'leaseMs' | 'pollIntervalMs'>;
  clock: Clock;
  gate: GateKeeper;
  spacing: StartSpacing;
  /** The outcomes not yet recorded: their rows are still ours, and one awaiting its record holds every start back. */
  outcomes: OutcomeBatcher<ClassifiedAttempt>;
  sendRow: SendRow;
  /** Called when a send has settled and its slot is free. */
  onSlotFreed: () => void;
}

export interface SlotFiller {
  /** Start every row that may start now; returns how long the loop may sleep, in ms. */
  fill(): number;
  /** True while a row is being sent, or claimed and waiting for a slot. */
  holdsRows(): boolean;
  /** Resolves once every send started so far has settled. Never rejects. */
  settled(): Promise<void>;
  /** Hand rows claimed but not started back to pending (no attempt counted). */
  releaseClaimed(now: number): void;
}

export function createSlotFiller(options: SlotFillerOptions): SlotFiller {
  const { db, flowName, delivery, clock, gate, spacing, outcomes } = options;
  const inFlight = new Map<number, Promise<void>>();
  const claimGroup = claimGroupFor(delivery.concurrency);
  /** Rows claimed as a group, waiting for a free slot (in flight in the store, under their lease). */
  let claimed: ClaimedSubmission[] = [];

  function fill(): number {
    const now = clock();
    // An answer that may move the gate is waiting for its record: a free slot must not start a
    // request the gate would have held back. The record resolves that answer's send, which frees
    // its slot and wakes the loop again.
    if (outcomes.isAwaitingRecord()) return delivery.pollIntervalMs;
    if (gate.state().mode === 'closed' && !spacing.limits) startGroup(now);
    else startGated(now);
    return sleepFor(clock());
  }

  /** The circuit is closed and no rate limit applies: claim rows as a group and feed them to free slots. */
  function startGroup(now: number): void {
    const free = delivery.concurrency - inFlight.size;
    if (free > 0 && claimed.length < free) {
      const limit = claimGroup - claimed.length;
      claimed.push(...claimDueToSend(db, { flow: flowName, now, leaseMs: delivery.leaseMs, limit, excludeIds: busyIds() }));
    }
    while (inFlight.size < delivery.concurrency && claimed.length > 0) start(claimed.shift()!, 'regular', now);
  }

  /** One probe or rate slot at a time; rows claimed as a group go back to pending rather than wait out an open circuit in flight. */
  function startGated(now: number): void {
    releaseClaimed(now);
    const allowance = gate.allowance(now, delivery.concurrency - inFlight.size);
    const limit = spacing.limit(now, allowance.limit);
    if (limit === 0) return;
    const slot: AttemptSlot = allowance.probe ? 'probe' : 'regular';
    for (const row of claimDueToSend(db, { flow: flowName, now, leaseMs: delivery.leaseMs, limit, excludeIds: busyIds() })) {
      if (slot === 'probe') gate.probeStarted();
      spacing.started(now);
      start(row, slot, now);
    }
  }

  function start(row: ClaimedSubmission, slot: AttemptSlot, now: number): void {
    const sending = options.sendRow(row, slot, now).finally(() => {
      inFlight.delete(row.id);
      options.onSlotFreed();
    });
    inFlight.set(row.id, sending);
  }

  /** Rows this process holds: being sent, claimed and waiting for a slot, or waiting for their outcome's record. */
  function busyIds(): number[] {
    const ids = [...inFlight.keys()];
    for (const row of claimed) ids.push(row.id);
    for (const outcome of outcomes.queued()) ids.push(outcome.submissionId);
    return ids;
  }

  function releaseClaimed(now: number): void {
    if (claimed.length === 0) return;
    const ids = claimed.map((row) => row.id);
    claimed = [];
    releaseInFlight(db, flowName, now, ids);
  }

  /** Until the next due row, probe or rate slot, at most one poll interval. */
  function sleepFor(now: number): number {
    let until = now + delivery.pollIntervalMs;
    if (delivery.concurrency - inFlight.size > 0) {
      const state = gate.state();
      if (state.mode === 'closed') {
        const due = nextDueAt(db, flowName);
        if (due !== null) until = Math.min(until, due);
      } else if (!state.probeInFlight) {
        until = Math.min(until, state.nextProbeAt);
      }
      until = spacing.sleepUntil(now, until, delivery.pollIntervalMs);
    }
    return Math.max(1, until - now);
  }

  return {
    fill,
    holdsRows: () => inFlight.size > 0 || claimed.length > 0,
    settled: () => Promise.allSettled([...inFlight.values()]).then(noop),
    releaseClaimed,
  };
}

function noop(): void {}
