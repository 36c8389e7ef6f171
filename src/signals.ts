/**
 * Process signals for `run` (after graphile-worker's signals.ts):
 * - SIGTERM / SIGINT: graceful stop (stop taking files, finish in-flight work within
 *   `shutdownTimeoutMs`, close the listeners and the store), exit 0;
 * - a second SIGTERM / SIGINT: exit at once with code 1 (the store stays consistent: every state
 *   change is a committed transaction, and the next start recovers what was in flight);
 * - SIGHUP: reload the mappings when they are valid, keep the old ones (and log why) when not.
 */
import type { Logger } from './log.js';

export interface Stoppable {
  stop(): Promise<void>;
  reloadMappings(): { ok: boolean };
}

export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** Resolves once the daemon has stopped after a signal. `exit` is called only for the forced exit. */
export function runUntilSignalled(daemon: Stoppable, logger: Logger, signals: SignalSource = process, exit: (code: number) => void = (code) => process.exit(code)): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onStop = (signal: NodeJS.Signals) => () => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        exit(1);
        return;
      }
      stopping = true;
      logger.info({ signal }, 'signal received: stopping (send it again to exit at once)');
      daemon
        .stop()
        .catch((error: unknown) => logger.error({ err: error }, 'stop failed'))
        .finally(() => {
          for (const [signal, listener] of handlers) signals.off(signal, listener);
          resolve();
        });
    };
    const onHup = () => {
      logger.info({ signal: 'SIGHUP' }, 'signal received: reloading mappings');
      daemon.reloadMappings();
    };
    const handlers: [NodeJS.Signals, () => void][] = [
      ['SIGTERM', onStop('SIGTERM')],
      ['SIGINT', onStop('SIGINT')],
      ['SIGHUP', onHup],
    ];
    for (const [signal, listener] of handlers) signals.on(signal, listener);
  });
}
