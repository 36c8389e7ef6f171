/** EnterpriseData versions compared by number, as 1C compares them, and the one both sides read (`exchange/versions.ts`). */
import { describe, expect, it } from 'vitest';
import { compareVersions, highestCommonVersion } from '../../src/exchange/versions.js';

describe('compareVersions', () => {
  it.each<[string, string, number]>([
    ['1.8', '1.16', -1],
    ['1.16', '1.8', 1],
    ['1.10', '1.8', 1],
    ['1.8', '1.10', -1],
    ['1.2.3', '1.2.3', 0],
    ['1.2.3', '1.2.4', -1],
    ['2.0', '1.21', 1],
    // A missing part counts as 0.
    ['1.8', '1.8.0', 0],
    ['1.8.1', '1.8', 1],
  ])('compares %s with %s as %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });
});

describe('highestCommonVersion', () => {
  it.each<[string, string[], string[], string | null]>([
    ['no version shared is null', ['1.6', '1.8'], ['1.5', '1.7'], null],
    ['1C declaring none is null', ['1.6', '1.8'], [], null],
    ['the one shared version', ['1.6', '1.8', '1.11'], ['1.8'], '1.8'],
    ['the numeric highest, not the string highest (1.10 above 1.9)', ['1.8', '1.9', '1.10'], ['1.10', '1.9', '1.8'], '1.10'],
    ['the numeric highest whatever the order either side lists them', ['1.16', '1.6', '1.8'], ['1.8', '1.6', '1.16', '1.2'], '1.16'],
    ['a version only 1C declares is not chosen', ['1.6', '1.8'], ['1.8', '1.21'], '1.8'],
  ])('%s', (_what, ours, theirs, expected) => {
    expect(highestCommonVersion(ours, theirs)).toBe(expected);
  });
});
