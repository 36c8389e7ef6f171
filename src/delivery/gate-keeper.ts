/**
 * A flow's gate as the sender holds it: the state of `flow-gate.ts` moved by each answer, every
 * transition logged exactly once. The decisions stay pure in `flow-gate.ts`; this keeps the state,
 * the clock and the words.
 */
import type { Logger } from '../log.js';
import type { Classification } from '../platform/classify-failure.js';
import type { Clock } from '../shared/types.js';
import {
  gateAllowance,
  gateSignalOf,
  initialGate,
  markProbeStarted,
  probeNow,
  updateGate,
  type AttemptSlot,
  type GatePolicy,
  type GateState,
  type GateTransition,
} from './flow-gate.js';

export interface GateKeeperOptions {
  policy: GatePolicy;
  flowName: string;
  /** The flow's logger: transitions and the operator's resume are logged there. */
  log: Logger;
  clock: Clock;
  /** Called after the gate changed mode: rows may start again, or must wait. */
  onTransition: () => void;
}

export interface GateKeeper {
  state(): Readonly<GateState>;
  /** How many rows may start now, with `free` slots, and whether the one allowed is a probe. */
  allowance(now: number, free: number): { limit: number; probe: boolean };
  /** A probe row has started: no other starts until it is answered. */
  probeStarted(): void;
  /** Move the gate by an answer that was recorded. */
  hearAnswer(classification: Classification, slot: AttemptSlot): void;
  /** An attempt that says nothing about the platform (aborted by us, not classified, not recorded): it frees a probe slot. */
  hearNothing(slot: AttemptSlot): void;
  /** The operator's "resume": a paused or open gate probes now. False when the gate is closed. */
  resume(): boolean;
}

export function createGateKeeper(options: GateKeeperOptions): GateKeeper {
  const { policy, flowName, log, clock } = options;
  let gate = initialGate(policy);

  function logTransition(transition: GateTransition, classification: Classification): void {
    if (transition === 'paused') {
      log.error(
        { code: 'PLATFORM_UNAUTHORIZED', httpStatus: classification.httpStatus },
        `The platform refused the token of flow ${flowName} (${classification.httpStatus}); the flow is paused and its rows wait, a probe every ${policy.pauseProbeMs} ms`,
      );
    } else if (transition === 'resumed') {
      log.info(`The token of flow ${flowName} works again; the flow resumes`);
    } else if (transition === 'opened') {
      log.warn(
        { code: 'PLATFORM_UNAVAILABLE', consecutiveFailures: gate.consecutiveFailures },
        `The platform looks down (${gate.consecutiveFailures} failures in a row); circuit open, one probe every ${gate.probeIntervalMs} ms`,
      );
    } else if (transition === 'closed') {
      log.info('The platform answers again; circuit closed');
    }
  }

  return {
    state: () => gate,
    allowance: (now, free) => gateAllowance(gate, now, free),
    probeStarted() {
      gate = markProbeStarted(gate);
    },
    hearAnswer(classification, slot) {
      const { state, transition } = updateGate(gate, gateSignalOf(classification), slot, clock(), policy);
      gate = state;
      if (!transition) return;
      logTransition(transition, classification);
      options.onTransition();
    },
    hearNothing(slot) {
      // A neutral answer moves nothing but the probe slot.
      if (slot === 'probe') gate = updateGate(gate, 'neutral', slot, clock(), policy).state;
    },
    resume() {
      if (gate.mode === 'closed') return false;
      gate = probeNow(gate, clock());
      log.info({ mode: gate.mode }, `Flow ${flowName}: the operator asked to resume; probing now`);
      return true;
    },
  };
}
