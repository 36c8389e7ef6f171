/**
 * The console's deps, what it needs from the daemon: the store (read), the config, the metrics, readiness, and
 * the few operator actions that belong to other stages, declared here as `OperatorActions` and
 * implemented by `daemon/operator-actions.ts` (the admin stage never imports intake or delivery).
 */
import type { ConsoleConfig } from '../../config/console-schema.js';
import type { FlowConfig } from '../../config/flow-schema.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Clock, WaitDurable } from '../../shared/types.js';
import type { Db } from '../../store/open-store.js';
import type { Readiness } from '../admin-server.js';

/** A flow's delivery gate as the console shows it. */
export interface FlowGateView {
  /** closed: sending; open: the platform looks down (one probe per interval); paused: the token is refused (401/403). */
  mode: 'closed' | 'open' | 'paused';
  nextProbeAt: number;
  consecutiveFailures: number;
  probeInFlight: boolean;
}

/** The actions of other stages the console may trigger; `daemon/operator-actions.ts` implements them. */
export interface OperatorActions {
  /** Move rejected file `fileId` of `flow` back into its inbox; resolves with its name there. Throws `CONSOLE_ACTION_FAILED` saying why not. */
  retakeFile(flow: string, fileId: number): Promise<{ inboxName: string }>;
  /** A paused or open flow probes now; false when it was sending freely. */
  resumeFlow(flow: string): boolean;
  flowGate(flow: string): FlowGateView | undefined;
  /** Rows were requeued: let delivery look for them now instead of at its next poll. */
  wakeDelivery(): void;
  /**
   * Reload every flow's mapping from its file, as SIGHUP does: all or nothing. The mapping page
   * calls it after saving a mapping; on `ok: false` the daemon keeps the mappings it had.
   */
  reloadMappings(): { ok: true } | { ok: false; errors: string[] };
}

export interface ConsoleDeps {
  db: Db;
  config: ConsoleConfig;
  /** Where the admin listener is bound (`metrics.host`): loopback or not decides who may look. */
  listenerHost: string;
  flows: readonly FlowConfig[];
  metrics: Pick<Metrics, 'webhookEvents'>;
  readiness: () => Promise<Readiness>;
  operator: OperatorActions;
  logger: Logger;
  clock: Clock;
  /** The webhook listener, when one is configured; its URL once it listens. */
  webhook: { url: string | null } | null;
  /** Export channels to show: `status` (with `export:`) and `ack:<flow>`. */
  exportChannels: readonly string[];
  /**
   * The store's group commit: an action (and its audit entry) is answered only once its commit is
   * on disk, so an operator never reads "requeued" for a change a power cut then takes back.
   * Default: commits are durable already.
   */
  durable?: WaitDurable;
}
