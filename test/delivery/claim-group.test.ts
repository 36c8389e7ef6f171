/**
 * How many rows one claim takes (`slot-filler.ts`, `claimGroupFor`): a claim's statement, sort and
 * commit are shared by its rows, but claimed rows wait in flight for a free slot.
 */
import { describe, expect, it } from 'vitest';
import { claimGroupFor } from '../../src/delivery/slot-filler.js';

describe('claimGroupFor', () => {
  it.each([
    [1, 16],
    [2, 32],
    [4, 64],
    [8, 64],
    [64, 64],
    [100, 100],
    [256, 256],
  ])('at %i slot(s) a claim takes %i rows: 16 a slot, at most 64, never fewer than the slots', (concurrency, rows) => {
    expect(claimGroupFor(concurrency)).toBe(rows);
  });
});
