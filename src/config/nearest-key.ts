/**
 * The known key an unknown one was probably meant to be: `sourceSytem` → `sourceSystem`,
 * `externalld` → `externalId`, `StableForMs` → `stableForMs`.
 *
 * The distance is written here rather than taken from a package: the small, well-used ones
 * (`leven`, `fastest-levenshtein`) count plain Levenshtein edits, where two neighbouring letters
 * typed in the wrong order (`stableFroMs`) are two edits, and the one that counts a swap as one
 * (`damerau-levenshtein`) is CommonJS without types and computes more than this needs. The lists
 * compared are a dozen short keys, so the textbook table is fast enough.
 */

/** Further than this many edits, a key is not taken for a typo of another (the console's editor uses the same bound). */
export const MAX_TYPO_EDITS = 2;

/**
 * The known key within `MAX_TYPO_EDITS` edits of `key`, ignoring case, when exactly one is
 * nearest; undefined when none is close or two are equally close (a guess between them would mislead).
 */
export function nearestKey(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_TYPO_EDITS + 1;
  let tie = false;
  for (const candidate of known) {
    const distance = typoDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/**
 * Edits between `a` and `b`: a letter added, dropped, changed, or two neighbours swapped (the
 * optimal string alignment distance, Damerau-Levenshtein without edits inside a swapped pair).
 */
export function typoDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
