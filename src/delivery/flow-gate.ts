/**
 * Per-flow gate in front of the sender: the circuit breaker (the platform looks down) and the
 * pause (the platform refuses our token). Pure: the state goes in, the next state comes out, and
 * the transition is named so the caller logs it exactly once.
 *
 * - closed: send freely; count consecutive platform failures.
 * - open: after `failureThreshold` consecutive failures; one probe row per interval, the interval
 *   doubling up to `capMs`; the first answer that is not an outage closes it.
 * - paused: after a 401/403; one probe row every `pauseProbeMs` until the token works.
 */
import type { Classification } from '../platform/classify-failure.js';

export const GATE_MODE = { closed: 'closed', open: 'open', paused: 'paused' } as const;
export type GateMode = (typeof GATE_MODE)[keyof typeof GATE_MODE];

export interface GateState {
  mode: GateMode;
  consecutiveFailures: number;
  probeIntervalMs: number;
  nextProbeAt: number;
  probeInFlight: boolean;
}

export interface GatePolicy {
  failureThreshold: number;
  probeIntervalMs: number;
  capMs: number;
  pauseProbeMs: number;
}

/** What an attempt meant for the gate. `neutral`: aborted by us, says nothing about the platform. */
export type GateSignal = 'success' | 'failure' | 'unauthorized' | 'neutral';
export type GateTransition = 'opened' | 'closed' | 'paused' | 'resumed' | null;
/** Which slot an attempt took: the open or paused gate's one probe, or a regular one. */
export type AttemptSlot = 'probe' | 'regular';

export function initialGate(policy: GatePolicy): GateState {
  return { mode: 'closed', consecutiveFailures: 0, probeIntervalMs: policy.probeIntervalMs, nextProbeAt: 0, probeInFlight: false };
}

/** How many rows may start now, and whether the one allowed is a probe. */
export function gateAllowance(state: GateState, now: number, free: number): { limit: number; probe: boolean } {
  if (state.mode === 'closed') return { limit: free, probe: false };
  if (state.probeInFlight || now < state.nextProbeAt || free < 1) return { limit: 0, probe: false };
  return { limit: 1, probe: true };
}

/**
 * The operator's "resume now" (the console): a paused or open gate probes at once instead of at
 * `nextProbeAt`. It does not close the gate: only an answer that is not a refusal or an outage does,
 * so a token still refused pauses the flow again after one row, not after a burst.
 */
export function probeNow(state: GateState, now: number): GateState {
  if (state.mode === 'closed') return state;
  return { ...state, nextProbeAt: Math.min(state.nextProbeAt, now) };
}

export function markProbeStarted(state: GateState): GateState {
  return { ...state, probeInFlight: true };
}

/** What a recorded answer means for the gate: a refused token, an outage, or neither. */
export function gateSignalOf(classification: Classification): GateSignal {
  if (classification.outcome === 'paused') return 'unauthorized';
  if (classification.countsAsPlatformFailure) return 'failure';
  return classification.outcome === 'retry' ? 'neutral' : 'success';
}

/** The gate after an attempt's answer. An attempt in the probe `slot` frees it. */
export function updateGate(
  state: GateState,
  signal: GateSignal,
  slot: AttemptSlot,
  now: number,
  policy: GatePolicy,
): { state: GateState; transition: GateTransition } {
  const wasProbe = slot === 'probe';
  const next: GateState = { ...state, probeInFlight: wasProbe ? false : state.probeInFlight };
  if (signal === 'neutral') return { state: next, transition: null };

  if (signal === 'unauthorized') {
    const wasPaused = state.mode === 'paused';
    return {
      state: { ...next, mode: 'paused', consecutiveFailures: 0, nextProbeAt: now + policy.pauseProbeMs },
      transition: wasPaused ? null : 'paused',
    };
  }

  if (signal === 'success') {
    const transition: GateTransition = state.mode === 'open' ? 'closed' : state.mode === 'paused' ? 'resumed' : null;
    return { state: { ...next, mode: 'closed', consecutiveFailures: 0, probeIntervalMs: policy.probeIntervalMs }, transition };
  }

  // failure: an outage
  if (state.mode === 'paused') {
    // The token question is still open; keep probing at the pause rhythm.
    return { state: { ...next, nextProbeAt: wasProbe ? now + policy.pauseProbeMs : next.nextProbeAt }, transition: null };
  }
  if (state.mode === 'open') {
    if (!wasProbe) return { state: next, transition: null };
    const interval = Math.min(state.probeIntervalMs * 2, Math.max(policy.capMs, policy.probeIntervalMs));
    return { state: { ...next, probeIntervalMs: interval, nextProbeAt: now + interval }, transition: null };
  }
  const failures = state.consecutiveFailures + 1;
  if (failures >= policy.failureThreshold) {
    return {
      state: { ...next, mode: 'open', consecutiveFailures: failures, probeIntervalMs: policy.probeIntervalMs, nextProbeAt: now + policy.probeIntervalMs },
      transition: 'opened',
    };
  }
  return { state: { ...next, consecutiveFailures: failures }, transition: null };
}
