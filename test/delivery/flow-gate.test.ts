import { describe, expect, it } from 'vitest';
import {
  gateAllowance,
  gateSignalOf,
  initialGate,
  markProbeStarted,
  probeNow,
  updateGate,
  type AttemptSlot,
  type GateState,
} from '../../src/delivery/flow-gate.js';
import type { Classification } from '../../src/platform/classify-failure.js';

const policy = { failureThreshold: 3, probeIntervalMs: 100, capMs: 350, pauseProbeMs: 1_000 };

function fail(state: GateState, now: number, slot: AttemptSlot = 'regular') {
  return updateGate(state, 'failure', slot, now, policy);
}

describe('flow gate', () => {
  it('opens after the threshold of consecutive failures (a success in between resets the count)', () => {
    let s = initialGate(policy);
    s = fail(s, 0).state;
    s = fail(s, 0).state;
    s = updateGate(s, 'success', 'regular', 0, policy).state;
    s = fail(s, 0).state;
    s = fail(s, 0).state;
    expect(s.mode).toBe('closed');
    const opened = fail(s, 10);
    expect(opened.transition).toBe('opened');
    expect(opened.state).toMatchObject({ mode: 'open', nextProbeAt: 110 });
    expect(gateAllowance(opened.state, 50, 4)).toEqual({ limit: 0, probe: false });
    expect(gateAllowance(opened.state, 110, 4)).toEqual({ limit: 1, probe: true });
  });

  it('probes one at a time, doubles the interval up to capMs, closes on the first success (logged once)', () => {
    let s = fail(fail(fail(initialGate(policy), 0).state, 0).state, 0).state;
    s = markProbeStarted(s);
    expect(gateAllowance(s, 10_000, 4).limit).toBe(0);
    const intervals: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const r = fail(s, 1_000, 'probe');
      expect(r.transition).toBeNull();
      s = markProbeStarted(r.state);
      intervals.push(r.state.probeIntervalMs);
    }
    expect(intervals).toEqual([200, 350, 350, 350]);
    // A late failure of a row sent before the circuit opened does not move the schedule.
    expect(fail(s, 2_000, 'regular').state.nextProbeAt).toBe(s.nextProbeAt);
    const closed = updateGate(s, 'success', 'probe', 2_000, policy);
    expect(closed.transition).toBe('closed');
    expect(closed.state).toMatchObject({ mode: 'closed', consecutiveFailures: 0, probeIntervalMs: 100, probeInFlight: false });
    expect(updateGate(closed.state, 'success', 'regular', 2_001, policy).transition).toBeNull();
  });

  it('pauses on 401/403 once, probes every pauseProbeMs, resumes once when the token works', () => {
    const paused = updateGate(initialGate(policy), 'unauthorized', 'regular', 0, policy);
    expect(paused).toMatchObject({ transition: 'paused', state: { mode: 'paused', nextProbeAt: 1_000 } });
    const again = updateGate(markProbeStarted(paused.state), 'unauthorized', 'probe', 1_000, policy);
    expect(again.transition).toBeNull();
    expect(again.state).toMatchObject({ nextProbeAt: 2_000, probeInFlight: false });
    expect(updateGate(again.state, 'neutral', 'regular', 1_500, policy).state.mode).toBe('paused');
    expect(updateGate(again.state, 'success', 'probe', 2_000, policy)).toMatchObject({ transition: 'resumed', state: { mode: 'closed' } });
  });
});

describe('probeNow (the operator resumes a flow)', () => {
  it('makes a paused or open gate probe at once, and leaves a closed gate alone', () => {
    const paused = updateGate(initialGate(policy), 'unauthorized', 'regular', 0, policy).state;
    expect(gateAllowance(paused, 10, 4)).toEqual({ limit: 0, probe: false });
    const resumed = probeNow(paused, 10);
    expect(resumed.mode).toBe('paused');
    expect(gateAllowance(resumed, 10, 4)).toEqual({ limit: 1, probe: true });

    const open = fail(fail(fail(initialGate(policy), 0).state, 0).state, 0).state;
    expect(gateAllowance(probeNow(open, 5), 5, 4)).toEqual({ limit: 1, probe: true });

    const closed = initialGate(policy);
    expect(probeNow(closed, 5)).toBe(closed);
  });

  it('does not let a second probe start while one is in flight', () => {
    const probing = markProbeStarted(updateGate(initialGate(policy), 'unauthorized', 'regular', 0, policy).state);
    expect(gateAllowance(probeNow(probing, 10), 10, 4)).toEqual({ limit: 0, probe: false });
  });
});

describe('gateSignalOf (what a recorded answer means for the gate)', () => {
  const answer = (outcome: Classification['outcome'], countsAsPlatformFailure: boolean): Classification => ({
    outcome,
    countsAsPlatformFailure,
    code: null,
    reason: 'test',
    details: '',
    httpStatus: null,
  });
  it.each([
    ['accepted', false, 'success'],
    ['rejected', false, 'success'],
    ['held', false, 'success'],
    ['paused', false, 'unauthorized'],
    ['retry', true, 'failure'],
    ['retry', false, 'neutral'],
  ] as const)('%s (counts as a platform failure: %s) is %s', (outcome, countsAsPlatformFailure, signal) => {
    expect(gateSignalOf(answer(outcome, countsAsPlatformFailure))).toBe(signal);
  });
});
