/**
 * A serial lane: async jobs run one after another, in the order they were added. The intake's
 * recovery, scans and retakes, the exporter's passes and the console's mapping saves each go
 * through one, so that two of them never interleave their steps.
 *
 * - A job starts once every job added before it has settled, whether it resolved or rejected.
 * - `run(job)` resolves or rejects exactly as `job` does: the caller hears its own failure, and
 *   the lane goes on with the next job (a failure never breaks the lane).
 * - `idle()` resolves (never rejects) once every job added so far has settled; a job added while
 *   waiting is not waited for. A component's `stop()` awaits it to let the work in progress end.
 *
 * Written here rather than taken from npm: p-limit(1) runs jobs the same way but cannot tell when
 * the lane is idle, so a stop would need a tail kept by hand beside it; p-queue's current major
 * needs Node 22, the one before brings an event emitter and timeouts we do not use, and its
 * `onIdle()` also waits for jobs added while it waits, so a stop would not be bounded by the work
 * queued when it began. What we need is two promises per job, below.
 */

export interface SerialLane {
  /** Run `job` after the jobs added before it; resolves or rejects as `job` does. */
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Resolves once every job added so far has settled. Never rejects. */
  idle(): Promise<void>;
}

export function createSerialLane(): SerialLane {
  let tail: Promise<void> = Promise.resolve();
  return {
    run(job) {
      const result = tail.then(job);
      tail = result.then(settled, settled);
      return result;
    },
    idle: () => tail,
  };
}

// One function for every job's settling, not two closures per job: the exporter runs a lane job per pass.
function settled(): void {}
