/**
 * The daemon's stop, bounded: it must end before systemd's `TimeoutStopSec` kills the process, so
 * past its bound it stops waiting and says so, and the caller exits. Giving up is safe: every state
 * change is already committed, so the next start recovers whatever was still open.
 */
import type { Logger } from '../log.js';

/** How a stop ended: everything closed, or the bound passed first (the caller should exit). */
export type StopOutcome = 'stopped' | 'timeout';

/**
 * What the closing gets beyond `shutdownTimeoutMs`: in-flight submissions get most of that bound
 * (delivery's `stopGraceMs`), and the listeners and the store close after them.
 */
const CLOSING_MS = 3_000;

/** The whole stop's bound for a `shutdownTimeoutMs`. */
export function stopBoundMs(shutdownTimeoutMs: number): number {
  return shutdownTimeoutMs + CLOSING_MS;
}

/** `stop` raced against `boundMs`; the timer is cleared either way, so nothing of it outlives the stop. */
export async function stopWithinBound(stop: () => Promise<void>, boundMs: number): Promise<StopOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), boundMs);
  });
  try {
    return await Promise.race([stop().then(() => 'stopped' as const), bound]);
  } finally {
    clearTimeout(timer);
  }
}

export interface BoundedStopDeps {
  /** Stops every started component (the lifecycle's `stopAll`). */
  stopAll: () => Promise<void>;
  shutdownTimeoutMs: number;
  logger: Logger;
}

/** The daemon's `stop()`: bounded by `stopBoundMs`, logged, and once only (a second call gets the first call's promise). */
export function createBoundedStop(deps: BoundedStopDeps): () => Promise<StopOutcome> {
  const { shutdownTimeoutMs, logger } = deps;
  let stopping: Promise<StopOutcome> | null = null;
  const stopOnce = async (): Promise<StopOutcome> => {
    logger.info({ shutdownTimeoutMs }, 'connector stopping');
    const outcome = await stopWithinBound(deps.stopAll, stopBoundMs(shutdownTimeoutMs));
    if (outcome === 'timeout') logger.error({ shutdownTimeoutMs }, 'stop took longer than its bound; exiting anyway');
    else logger.info('connector stopped');
    return outcome;
  };
  return () => (stopping ??= stopOnce());
}
