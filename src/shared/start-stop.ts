/**
 * The idempotent `start()` and `stop()` every component promises (`lifecycle.ts`), written once.
 * A component hands over its own start and stop work; this decides when each runs:
 *
 * - `start()` runs the start work once; a second call returns the first call's promise.
 * - `stop()` first calls `interrupt` (at once: it ends the waits of a start in progress, say by
 *   aborting a signal), then waits for the start to settle, then runs the stop work, even after a
 *   failed start, which may have left parts running. A second call returns the same promise.
 * - `stop()` before any `start()` runs nothing.
 * - After a stop, `afterStop` decides: `'restart'` lets `start()` run the start work anew once the
 *   stop has ended (during it, `start()` returns the old start's promise, and a stop after it has
 *   ended runs nothing); a function makes the component one-shot: `start()` rejects with the error
 *   it returns, from the first `stop()` on (even one before any start).
 */

export interface StartStopWork<Started> {
  start: () => Promise<Started>;
  /** Called as `stop()` is, before waiting for the start in progress. */
  interrupt?: () => void;
  stop: () => Promise<void>;
  afterStop: 'restart' | (() => Error);
}

export interface StartStop<Started> {
  start(): Promise<Started>;
  stop(): Promise<void>;
  /** True from `stop()` on (a restartable component's: from a stop of a start, until the next start). */
  readonly stopping: boolean;
}

export function createStartStop<Started>(work: StartStopWork<Started>): StartStop<Started> {
  const restartable = work.afterStop === 'restart';
  let started: Promise<Started> | null = null;
  let stopped: Promise<void> | null = null;

  const stopAfter = async (starting: Promise<Started>): Promise<void> => {
    work.interrupt?.();
    await starting.catch(ignore);
    await work.stop();
  };

  return {
    start() {
      if (stopped && work.afterStop !== 'restart') return Promise.reject(work.afterStop());
      if (!started) {
        stopped = null;
        started = work.start();
      }
      return started;
    },
    stop() {
      if (!started) {
        if (restartable) return Promise.resolve();
        stopped ??= Promise.resolve();
        return stopped;
      }
      if (!stopped) {
        const stopping = stopAfter(started);
        stopped = restartable ? stopping.finally(() => (started = null)) : stopping;
      }
      return stopped;
    },
    get stopping() {
      return stopped !== null;
    },
  };
}

function ignore(): void {}
