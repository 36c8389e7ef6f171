/** EnterpriseData versions as 1C compares them, and the one two sides share. */

/** Compare two versions as 1C does, by their numeric parts (`1.8` < `1.16`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The highest version both sides declare (1C's choice of the exchange's format version), or null when none is shared. */
export function highestCommonVersion(ours: readonly string[], theirs: readonly string[]): string | null {
  const shared = ours.filter((version) => theirs.some((other) => compareVersions(version, other) === 0));
  if (shared.length === 0) return null;
  return shared.reduce((best, version) => (compareVersions(version, best) > 0 ? version : best));
}
