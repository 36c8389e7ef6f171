import { describe, expect, it } from 'vitest';
import { computeBackoff, computeRetryDelay } from '../../src/platform/backoff.js';
import { parseRetryAfter } from '../../src/platform/retry-after.js';

const policy = { baseMs: 100, capMs: 1_000 };

describe('computeBackoff', () => {
  it('grows exponentially at the top of the jitter range and stops at the cap', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6, 30].map((a) => computeBackoff(a, policy, top))).toEqual([99, 199, 399, 799, 999, 999, 999]);
  });

  it('uses full jitter: the bottom of the range is zero, the middle is half', () => {
    expect(computeBackoff(3, policy, () => 0)).toBe(0);
    expect(computeBackoff(3, policy, () => 0.5)).toBe(200);
  });

  it('stays within [0, min(cap, base*2^(n-1))] for many draws and attempts', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let attempt = 1; attempt <= 40; attempt += 1) {
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i += 1) {
        const delay = computeBackoff(attempt, policy, random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('does not overflow for huge attempt numbers and clamps a bad random source', () => {
    expect(computeBackoff(10_000, policy, () => 2)).toBe(1_000);
    expect(computeBackoff(0, policy, () => -1)).toBe(0);
  });
});

describe('computeRetryDelay', () => {
  it('honours Retry-After up to the cap, and falls back to backoff without it', () => {
    expect(computeRetryDelay(1, 300, policy, () => 0)).toBe(300);
    expect(computeRetryDelay(1, 60_000, policy, () => 0)).toBe(1_000);
    expect(computeRetryDelay(3, undefined, policy, () => 0.5)).toBe(200);
  });

  it('never waits less than the backoff: Retry-After 0, or shorter than the backoff, is a floor, not a shortcut', () => {
    expect(computeRetryDelay(3, 0, policy, () => 0.5)).toBe(200);
    expect(computeRetryDelay(3, 50, policy, () => 0.5)).toBe(200);
    // Every attempt answered "Retry-After: 0": the delays still grow to the cap, no hot loop.
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 20].map((a) => computeRetryDelay(a, 0, policy, top))).toEqual([99, 199, 399, 799, 999, 999]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-06-12T10:00:00Z');
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Fri, 12 Jun 2026 10:00:30 GMT', 30_000],
    ['Fri, 12 Jun 2026 09:00:00 GMT', 0],
    ['', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
  ])('%j → %j', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it('reads the first of repeated headers and tolerates a missing one', () => {
    expect(parseRetryAfter(['2', '9'], now)).toBe(2_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
