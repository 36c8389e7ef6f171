/**
 * The console's actions that belong to other stages (`OperatorActions`), done by those stages: the
 * admin stage never imports intake or delivery, so the root hands it these.
 */
import type { FlowGateView, OperatorActions } from '../admin/console/create-console.js';
import type { Dispatcher } from '../delivery/dispatcher.js';
import { ConnectorError } from '../errors.js';
import type { Intake } from '../intake/index.js';
import type { ReloadResult } from './reload.js';

export interface OperatorActionDeps {
  /** The running intakes, by flow name. */
  intakes: ReadonlyMap<string, Pick<Intake, 'retake'>>;
  dispatcher: Pick<Dispatcher, 'resume' | 'gate' | 'wake'>;
  /** The daemon's reload (SIGHUP's): all or nothing. */
  reload: () => ReloadResult;
}

export function createOperatorActions(deps: OperatorActionDeps): OperatorActions {
  const { intakes, dispatcher } = deps;
  return {
    retakeFile: async (flow, fileId) => {
      const intake = intakes.get(flow);
      if (!intake) throw new ConnectorError('CONSOLE_ACTION_FAILED', `There is no flow ${flow}`);
      return intake.retake(fileId);
    },
    resumeFlow: (flow) => dispatcher.resume(flow),
    flowGate: (flow) => gateView(dispatcher, flow),
    wakeDelivery: () => dispatcher.wake(),
    reloadMappings: () => deps.reload(),
  };
}

/** What the console shows of a flow's gate: a copy of four fields, not delivery's live state. */
function gateView(dispatcher: Pick<Dispatcher, 'gate'>, flow: string): FlowGateView | undefined {
  const gate = dispatcher.gate(flow);
  return gate && { mode: gate.mode, nextProbeAt: gate.nextProbeAt, consecutiveFailures: gate.consecutiveFailures, probeInFlight: gate.probeInFlight };
}
