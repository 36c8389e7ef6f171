/**
 * Process signals for `run` (after graphile-worker's signals.ts):
 * - SIGTERM / SIGINT: graceful stop (stop taking files, finish in-flight work within
 *   `shutdownTimeoutMs`, close the listeners and the store), exit 0; when the stop's bound passes
 *   first, exit 1 (what is still open is recovered at the next start);
 * - a second SIGTERM / SIGINT: exit at once with code 1 (the store stays consistent: every state
 *   change is a committed transaction, and the next start recovers what was in flight);
 * - SIGHUP: reload the mappings and the listener's TLS certificate when they are valid, keep the
 *   old ones (and log why) when not.
 */
import type { StopOutcome } from './daemon/index.js';
import type { Logger } from './log.js';

export interface Stoppable {
  stop(): Promise<StopOutcome>;
  reload(): { ok: boolean };
}

export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** How the run ended: a clean stop, a stop whose bound passed, or a stop that threw. */
export type RunOutcome = StopOutcome | 'failed';

/** The exit code for a run's outcome: 0 only after a clean stop. */
export function exitCodeForOutcome(outcome: RunOutcome): number {
  return outcome === 'stopped' ? 0 : 1;
}

/**
 * Resolves with the outcome once the daemon has stopped after a signal. `exit` is called only for
 * the forced exit (second signal); the caller exits for a stop that timed out or failed.
 */
export function runUntilSignalled(
  daemon: Stoppable,
  logger: Logger,
  signals: SignalSource = process,
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<RunOutcome> {
  return new Promise<RunOutcome>((resolve) => {
    let stopping = false;
    const onStop = (signal: NodeJS.Signals) => () => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        exit(1);
        return;
      }
      stopping = true;
      logger.info({ signal }, 'signal received: stopping (send it again to exit at once)');
      void daemon
        .stop()
        .catch((error: unknown): RunOutcome => {
          logger.error({ err: error }, 'stop failed');
          return 'failed';
        })
        .then((outcome) => {
          for (const [signal, listener] of handlers) signals.off(signal, listener);
          resolve(outcome);
        });
    };
    const onHup = () => {
      logger.info({ signal: 'SIGHUP' }, 'signal received: reloading mappings and the TLS certificate');
      daemon.reload();
    };
    const handlers: [NodeJS.Signals, () => void][] = [
      ['SIGTERM', onStop('SIGTERM')],
      ['SIGINT', onStop('SIGINT')],
      ['SIGHUP', onHup],
    ];
    for (const [signal, listener] of handlers) signals.on(signal, listener);
  });
}
