import { describe, expect, it } from 'vitest';
import { createStartSpacing } from '../../src/delivery/start-spacing.js';

describe('createStartSpacing (a flow’s ratePerSecond)', () => {
  it('without a rate lets every allowed row start and never delays the loop', () => {
    const spacing = createStartSpacing(undefined);
    expect(spacing.limits).toBe(false);
    spacing.started(0);
    expect(spacing.limit(0, 5)).toBe(5);
    expect(spacing.sleepUntil(0, 40, 500)).toBe(40);
  });

  it('with a rate starts one row at a time, 1000 / rate ms apart', () => {
    const spacing = createStartSpacing(10);
    expect(spacing.limits).toBe(true);
    expect(spacing.limit(0, 4)).toBe(1);
    expect(spacing.limit(0, 0)).toBe(0);
    spacing.started(0);
    expect(spacing.limit(99, 4)).toBe(0);
    expect(spacing.limit(100, 4)).toBe(1);
    // Two starts in one tick: the second's slot follows the first's.
    spacing.started(100);
    spacing.started(100);
    expect(spacing.limit(299, 4)).toBe(0);
    expect(spacing.limit(300, 4)).toBe(1);
  });

  it('lets the loop sleep until the next start time, at most one poll interval from now', () => {
    const spacing = createStartSpacing(10);
    spacing.started(0);
    expect(spacing.sleepUntil(50, 60, 500)).toBe(100);
    expect(spacing.sleepUntil(50, 60, 20)).toBe(70);
    expect(spacing.sleepUntil(50, 200, 500)).toBe(200);
    expect(spacing.sleepUntil(100, 120, 500)).toBe(120);
  });
});
