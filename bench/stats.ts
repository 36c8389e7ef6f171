/** Small statistics helpers for the benchmarks. */

/** CPU time of this process (all threads, user + system) since `start`, in ms. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The p-th percentile (0..100) of `values`, by the nearest-rank method. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function max(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
}

/**
 * Run the steps of a round in the order given (ceiling, daemon), `rounds` times: ceiling, daemon,
 * ceiling, daemon, … On a shared machine a noisy second then spoils one round of each side, not
 * all of one, and the medians of the rounds decide. Returns each step's results in round order.
 */
export async function alternatingRounds<S extends Record<string, (round: number) => Promise<unknown>>>(
  rounds: number,
  steps: S,
): Promise<{ [K in keyof S]: Awaited<ReturnType<S[K]>>[] }> {
  const names = Object.keys(steps);
  const results: Record<string, unknown[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) results[name]!.push(await steps[name]!(round));
  }
  return results as { [K in keyof S]: Awaited<ReturnType<S[K]>>[] };
}

/** `values[i] / ceilings[i]` for rounds that ran side by side, each rounded to two decimals (for notes and logs). */
export function roundRatios(values: readonly number[], ceilings: readonly number[]): number[] {
  return values.map((value, i) => Math.round((value / ceilings[i]!) * 100) / 100);
}
