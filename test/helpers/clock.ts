/**
 * A clock the test moves by hand, for the stages that take one (`clock: () => number`). Time then
 * passes when the test says so, not when the machine happens to be slow: a check like "not taken
 * before the file settled" cannot flip on a loaded two-core runner.
 */
export interface ManualClock {
  (): number;
  /** Move the time forward by `ms`. */
  advance(ms: number): void;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}
