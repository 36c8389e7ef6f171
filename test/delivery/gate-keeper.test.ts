/** The gate as a flow's sender holds it (`gate-keeper.ts`): each transition logged once, and the loop told. */
import { describe, expect, it } from 'vitest';
import { createGateKeeper } from '../../src/delivery/gate-keeper.js';
import { createLogger } from '../../src/log.js';
import { classifyOutcome, type Classification } from '../../src/platform/classify-failure.js';

const policy = { failureThreshold: 2, probeIntervalMs: 100, capMs: 1_000, pauseProbeMs: 500 };

function answer(status: number): Classification {
  const body = status === 201 ? { id: 'PRC-REQ-000001', externalId: 'E1', status: 'accepted', createdAt: '2026-06-12T13:00:00+03:00' } : {};
  return classifyOutcome({ kind: 'request', correction: false, earlierAttempts: 0 }, { kind: 'response', status, headers: {}, body: JSON.stringify(body) }, 0);
}

/** A gate keeper on a clock the test moves, with the lines it logs and how often it told the loop. */
function keeperUnderTest() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  const clock = { now: 0 };
  let transitions = 0;
  const gate = createGateKeeper({ policy, flowName: 'requests', log, clock: () => clock.now, onTransition: () => (transitions += 1) });
  return { gate, clock, messages: () => lines.map((line) => line.msg), transitions: () => transitions };
}

describe('createGateKeeper', () => {
  it('opens after the threshold and closes on a probe’s success, logging each once and telling the loop', () => {
    const { gate, clock, messages, transitions } = keeperUnderTest();
    gate.hearAnswer(answer(503), 'regular');
    expect(transitions()).toBe(0);
    gate.hearAnswer(answer(503), 'regular');
    gate.hearAnswer(answer(503), 'regular');
    expect(gate.state().mode).toBe('open');
    expect(messages()).toEqual(['The platform looks down (2 failures in a row); circuit open, one probe every 100 ms']);
    expect(transitions()).toBe(1);
    expect(gate.allowance(50, 4)).toEqual({ limit: 0, probe: false });
    expect(gate.allowance(100, 4)).toEqual({ limit: 1, probe: true });
    gate.probeStarted();
    expect(gate.allowance(100, 4)).toEqual({ limit: 0, probe: false });
    clock.now = 150;
    gate.hearAnswer(answer(201), 'probe');
    expect(gate.state()).toMatchObject({ mode: 'closed', probeInFlight: false });
    expect(messages()).toHaveLength(2);
    expect(messages()[1]).toBe('The platform answers again; circuit closed');
    expect(transitions()).toBe(2);
  });

  it('pauses on a refused token; the operator’s resume probes at once, and a working token resumes the flow', () => {
    const { gate, clock, messages, transitions } = keeperUnderTest();
    gate.hearAnswer(answer(401), 'regular');
    gate.hearAnswer(answer(401), 'regular');
    expect(gate.state()).toMatchObject({ mode: 'paused', nextProbeAt: 500 });
    expect(messages()).toEqual(['The platform refused the token of flow requests (401); the flow is paused and its rows wait, a probe every 500 ms']);
    clock.now = 10;
    expect(gate.resume()).toBe(true);
    expect(gate.allowance(10, 1)).toEqual({ limit: 1, probe: true });
    expect(messages()[1]).toBe('Flow requests: the operator asked to resume; probing now');
    gate.probeStarted();
    gate.hearAnswer(answer(201), 'probe');
    expect(messages()[2]).toBe('The token of flow requests works again; the flow resumes');
    expect(transitions()).toBe(2);
    expect(gate.resume()).toBe(false);
    expect(messages()).toHaveLength(3);
  });

  it('hears nothing from an attempt that says nothing about the platform, but frees its probe slot', () => {
    const { gate, messages } = keeperUnderTest();
    gate.hearAnswer(answer(503), 'regular');
    gate.hearAnswer(answer(503), 'regular');
    gate.probeStarted();
    gate.hearNothing('regular');
    expect(gate.state()).toMatchObject({ mode: 'open', probeInFlight: true });
    gate.hearNothing('probe');
    expect(gate.state()).toMatchObject({ mode: 'open', probeInFlight: false, consecutiveFailures: 2, probeIntervalMs: 100 });
    expect(messages()).toHaveLength(1);
  });
});
