import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScanScheduler, RECHECK_SLACK_MS } from '../../src/intake/scan-scheduler.js';
import { createSerialLane } from '../../src/shared/serial-lane.js';
import { manualClock } from '../helpers/clock.js';

/** A scheduler over a scan that counts its runs and answers `next()` as the earliest check time. */
function scheduler(options: { rescanIntervalMs?: number; next?: () => number | null; stopping?: () => boolean; scanStarts?: Promise<void> } = {}) {
  const clock = manualClock(1_000_000);
  const lane = createSerialLane();
  let scans = 0;
  const scans$ = createScanScheduler({
    lane,
    clock,
    rescanIntervalMs: options.rescanIntervalMs ?? 30_000,
    scan: async () => {
      scans += 1;
      await options.scanStarts;
      return options.next?.() ?? null;
    },
    stopping: options.stopping ?? (() => false),
  });
  return { clock, lane, scheduler: scans$, scans: () => scans };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createScanScheduler', () => {
  it('folds the requests made before a scan starts into that scan', async () => {
    const { scheduler: s, scans } = scheduler();
    const first = s.request();
    expect(s.request()).toBe(first);
    await first;
    expect(scans()).toBe(1);
  });

  it('runs another scan for a request made while one runs (it may have missed the change)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { scheduler: s, scans } = scheduler({ scanStarts: held });
    const first = s.request();
    await vi.waitFor(() => expect(scans()).toBe(1));
    const second = s.request();
    expect(second).not.toBe(first);
    release();
    await Promise.all([first, second]);
    expect(scans()).toBe(2);
  });

  it('neither requests nor starts a scan once stopping', async () => {
    let stopping = false;
    const { scheduler: s, scans } = scheduler({ stopping: () => stopping });
    const queued = s.request();
    stopping = true;
    await queued;
    await s.request();
    expect(scans()).toBe(0);
  });

  it('sets no timer before resume(): a scan before the intake has recovered does not start the rescans', async () => {
    vi.useFakeTimers();
    const { scheduler: s, scans } = scheduler({ rescanIntervalMs: 100 });
    await s.request();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(scans()).toBe(1);
  });

  it('scans again after rescanIntervalMs, or just after a waiting file may be ready when that is sooner', async () => {
    vi.useFakeTimers();
    let next: number | null = null;
    const { clock, scheduler: s, scans } = scheduler({ rescanIntervalMs: 1_000, next: () => next });
    s.resume();
    next = clock() + 200;
    await s.request();
    next = null;
    await vi.advanceTimersByTimeAsync(200 + RECHECK_SLACK_MS - 1);
    expect(scans()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(scans()).toBe(2);
    // That scan found no file waiting: the next one comes after the interval.
    await vi.advanceTimersByTimeAsync(999);
    expect(scans()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(scans()).toBe(3);
    s.pause();
  });

  it('clears the timer on pause()', async () => {
    vi.useFakeTimers();
    const { scheduler: s, scans } = scheduler({ rescanIntervalMs: 100 });
    s.resume();
    await s.request();
    s.pause();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(scans()).toBe(1);
  });
});
