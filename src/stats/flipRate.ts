import { wilsonInterval } from './wilson.js';

/**
 * How often identical inputs give different verdicts. A case's flip rate is the chance that two
 * runs of it, on the same inputs, disagree (one passes, the other fails): 2π(1 − π) for a case
 * that passes with probability π, so it lies between 0 (always the same verdict) and ½ (a coin).
 * docs/how-many-runs.md has the definitions and how the judge's share is split off.
 */
export interface FlipRate {
  /** Judged runs, and how many passed. */
  runs: number;
  passes: number;
  /** The share of pairs of these runs that disagree, s(n − s) / C(n, 2), capped at ½; null below two runs. */
  rate: number | null;
  /** 95% interval: the Wilson interval of the pass rate carried through 2p(1 − p). */
  low: number | null;
  high: number | null;
}

/**
 * The flip rate of `passes` out of `runs` judged runs. The share of disagreeing pairs estimates
 * 2π(1 − π) without bias, but at few runs it can pass ½ (two runs that disagree: every pair
 * does), which no case can flip; it is capped there.
 */
export function flipRate(passes: number, runs: number): FlipRate {
  if (!Number.isInteger(runs) || !Number.isInteger(passes) || passes < 0 || passes > runs) throw new RangeError(`flipRate: ${passes} passes out of ${runs}`);
  if (runs < 2) return { runs, passes, rate: null, low: null, high: null };
  const rate = Math.min(0.5, (passes * (runs - passes)) / ((runs * (runs - 1)) / 2));
  const interval = wilsonInterval(passes, runs)!;
  const [atLow, atHigh] = [flipOf(interval.low), flipOf(interval.high)];
  // 2p(1 − p) peaks at p = ½: an interval of p around ½ reaches the peak between its ends.
  const high = interval.low <= 0.5 && interval.high >= 0.5 ? 0.5 : Math.max(atLow, atHigh);
  return { runs, passes, rate, low: Math.min(atLow, atHigh, rate), high: Math.max(high, rate) };
}

function flipOf(p: number): number {
  return 2 * p * (1 - p);
}
