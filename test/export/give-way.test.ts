import { describe, expect, it } from 'vitest';
import { GIVE_WAY, giveWayMs, writeConcurrency, type GiveWayPolicy } from '../../src/export/give-way.js';

const policy: GiveWayPolicy = { quietMs: 50, busyGroupIntervalMs: 200, busyConcurrency: 2, quietConcurrency: 4 };
const never = Number.NEGATIVE_INFINITY;

describe('giveWayMs', () => {
  it.each([
    ['never woken: write now', 1_000, never, never, 0],
    ['woken long ago: write now', 1_000, 900, 990, 0],
    ['woken just now, no group written yet: write now (a first group always goes)', 1_000, 999, never, 0],
    ['woken just now, a group written just now: wait for the quiet, 50 ms', 1_000, 1_000, 1_000, 50],
    ['woken 30 ms ago, a group 10 ms ago: wait 20 ms more for the quiet', 1_000, 970, 990, 20],
    ['woken just now, the last group 180 ms ago: the next is due in 20 ms', 1_000, 1_000, 820, 20],
    ['woken just now, the last group 200 ms ago: it is due, write now', 1_000, 1_000, 800, 0],
  ])('%s', (_, now, lastWakeAt, lastGroupAt, expected) => {
    expect(giveWayMs(policy, now, lastWakeAt, lastGroupAt)).toBe(expected);
  });

  it('under wake-ups that never stop, still lets a group through every busyGroupIntervalMs', () => {
    let lastGroupAt = 0;
    const groups: number[] = [];
    for (let now = 0; now <= 5_000; now += 1) {
      if (giveWayMs(GIVE_WAY, now, now, lastGroupAt) === 0) {
        groups.push(now);
        lastGroupAt = now;
      }
    }
    // The daemon's policy: a group a second, however long the storm.
    expect(groups).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
  });
});

describe('writeConcurrency', () => {
  it.each([
    ['never woken: four at a time', 1_000, Number.NEGATIVE_INFINITY, 4],
    ['woken 49 ms ago: producers are busy, two at a time', 1_000, 951, 2],
    ['woken 50 ms ago: quiet, four at a time', 1_000, 950, 4],
  ])('%s', (_, now, lastWakeAt, expected) => {
    expect(writeConcurrency(policy, now, lastWakeAt)).toBe(expected);
  });

  it("the daemon's policy: two at a time while producers are busy, and once quiet more than libuv's four threads, so that none waits idle for a file's next call", () => {
    expect(writeConcurrency(GIVE_WAY, 1_000, 990)).toBe(2);
    expect(writeConcurrency(GIVE_WAY, 1_000, Number.NEGATIVE_INFINITY)).toBe(8);
  });
});
