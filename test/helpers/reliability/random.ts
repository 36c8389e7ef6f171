/** A seeded random source, so a failing run can be replayed with RELIABILITY_SEED=<seed>. */
import { seededRandom } from '../../../src/sandbox/faults.js';

export function createRandom(): { seed: number; next: () => number; between: (min: number, max: number) => number } {
  const fromEnv = Number(process.env.RELIABILITY_SEED);
  const seed = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31);
  const next = seededRandom(seed);
  return { seed, next, between: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}
