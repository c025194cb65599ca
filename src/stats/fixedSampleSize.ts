import { fisherExact } from './fisher.js';

/** A fixed-n design: runs a side, and its power at the rates it was sized for. */
export interface FixedDesign {
  pairs: number;
  power: number;
}

/**
 * The chance that Fisher's exact test (evalflow's comparison of fixed batches) finds p < alpha
 * with `n` runs a side when the true pass rates are `passA` and `passB`: every table weighed
 * by its binomial probability.
 */
export function fisherPower(n: number, passA: number, passB: number, alpha = 0.05): number {
  const pmfA = binomialPmf(n, passA);
  const pmfB = binomialPmf(n, passB);
  let power = 0;
  for (let a = 0; a <= n; a++) {
    for (let b = 0; b <= n; b++) if (pmfA[a]! * pmfB[b]! > 0 && fisherExact(a, n, b, n) < alpha) power += pmfA[a]! * pmfB[b]!;
  }
  return power;
}

/**
 * The fewest runs a side with which Fisher's exact test reaches `power` at these rates, or null
 * when not even `limit` do. Power is not monotone in n for an exact test (it zigzags with the
 * discrete p-values), so this is the first n that reaches it, as a planner would pick.
 */
export function fixedSampleSize(passA: number, passB: number, options: { alpha?: number; power?: number; limit?: number } = {}): FixedDesign | null {
  const { alpha = 0.05, power = 0.8, limit = 500 } = options;
  for (let n = 1; n <= limit; n++) {
    const reached = fisherPower(n, passA, passB, alpha);
    if (reached >= power) return { pairs: n, power: reached };
  }
  return null;
}

function binomialPmf(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) pmf[k] = Math.exp(logChoose(n, k) + (k === 0 ? 0 : k * Math.log(p)) + (k === n ? 0 : (n - k) * Math.log(1 - p)));
  return pmf;
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log((n - k + i) / i);
  return sum;
}
