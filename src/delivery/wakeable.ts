/**
 * An abortable sleep that can also be cut short by `wake()`: the dispatcher loop sleeps until
 * the next row is due, and intake, a finished send or the retry sweep wakes it early.
 */

export interface Wakeable {
  /** Resolve after `ms`, on `wake()`, or when `signal` aborts, whichever comes first. Never rejects. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** End the current wait (or make the next one return at once). */
  wake(): void;
}

export function createWakeable(): Wakeable {
  let pendingWake = false;
  let release: (() => void) | null = null;
  return {
    wait(ms, signal) {
      if (pendingWake || signal?.aborted) {
        pendingWake = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          release = null;
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
        release = done;
      });
    },
    wake() {
      if (release) release();
      else pendingWake = true;
    },
  };
}

/** A plain abortable sleep. Never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return createWakeable().wait(ms, signal);
}
