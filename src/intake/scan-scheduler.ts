/**
 * When the intake scans: at start, every `rescanIntervalMs`, when a waiting file may have become
 * complete, and when asked (a watcher hint, a retake, `scanNow()`). Scans run in the intake's lane,
 * one at a time with recovery and retakes; requests made before a scan starts share it, so a burst
 * of watcher events costs one scan, not one each.
 */
import type { Clock } from '../shared/types.js';
import type { SerialLane } from '../shared/serial-lane.js';

export interface ScanSchedulerOptions {
  lane: SerialLane;
  clock: Clock;
  rescanIntervalMs: number;
  /** One scan; resolves with the earliest time a waiting file may be ready (null: none waits on time). Never rejects. */
  scan: () => Promise<number | null>;
  /** True once the intake is stopping: no scan is requested or started, no timer set. */
  stopping: () => boolean;
}

export interface ScanScheduler {
  /** A scan after whatever runs now; requests made before it starts share it. Never rejects. */
  request(): Promise<void>;
  /** Let scans set the rescan timer (once the intake has recovered). */
  resume(): void;
  /** Set no timer any more, and clear the one set. */
  pause(): void;
}

/**
 * Time added to a waiting file's ready time, so that the re-check lands after it (a timer and the
 * wall clock can disagree by a millisecond). Should it land early all the same, the tracker answers
 * "wait" again and the next re-check is scheduled: a scan more, never a file taken early. Every
 * millisecond here is a millisecond of every file's latency.
 */
export const RECHECK_SLACK_MS = 5;

export function createScanScheduler(options: ScanSchedulerOptions): ScanScheduler {
  const { lane, clock, rescanIntervalMs, stopping } = options;
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let queued: Promise<void> | null = null;

  function schedule(nextCheckAt: number | null): void {
    if (!running || stopping()) return;
    if (timer) clearTimeout(timer);
    const now = clock();
    const rescanAt = now + rescanIntervalMs;
    const at = nextCheckAt === null ? rescanAt : Math.min(rescanAt, nextCheckAt + RECHECK_SLACK_MS);
    timer = setTimeout(() => void request(), Math.max(0, at - now));
  }

  function request(): Promise<void> {
    if (stopping()) return Promise.resolve();
    if (queued) return queued;
    const scan = lane.run(async () => {
      queued = null;
      if (!stopping()) schedule(await options.scan());
    });
    queued = scan;
    return scan;
  }

  return {
    request,
    resume() {
      running = true;
    },
    pause() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
