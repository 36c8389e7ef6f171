/**
 * Lets the event loop run once a stretch of work has held it for `sliceMs`. A loop whose awaits all
 * settle at once (synchronous calls on a local disk: `shared/disk-calls.ts`) never gives the loop a
 * turn by itself, and every socket, timer and thread-pool answer waits until it ends: a scan of
 * 5,000 small files held the console for seconds. Pausing after every file instead cost the
 * intake about a fifth of its rate; after 2 ms of work, nothing measurable.
 *
 * Hand-written: Node 20 has no `scheduler.yield`, and what this does is one `setImmediate`.
 */
import { setImmediate } from 'node:timers/promises';

/** Yield to the event loop when the work since the last turn took `sliceMs` or more. */
export type PauseIfDue = () => Promise<void>;

export function createTurnSlicer(sliceMs: number): PauseIfDue {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await setImmediate();
    since = performance.now();
  };
}
