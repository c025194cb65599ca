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

/** The verdicts of one run's transcript: its own judging and any repeated ones (`rejudge --repeat`). */
export interface RunJudgings {
  passes: number;
  judgings: number;
}

/** The flip rate split into the judge's share and the agent's. */
export interface NoiseSplit {
  /** Runs judged at least twice: what the judge's share is measured on. */
  judgedTwice: number;
  /** The chance that two judgings of one transcript disagree, averaged over the transcripts; null when no run was judged twice. */
  judge: number | null;
  /** What is left of the flip rate: disagreement that comes from the transcripts differing; null without both. */
  agent: number | null;
}

/**
 * Splits a case's flip rate. With q_T the chance the judge passes transcript T and π = E[q_T],
 * the law of total variance gives π(1 − π) = E[q_T(1 − q_T)] + Var(q_T): twice the first term is
 * how often two judgings of one transcript disagree (the judge's noise), twice the second what
 * different transcripts add (the agent's). The judge's share is measured on runs judged twice or
 * more, each run's share of disagreeing pairs of its judgings, averaged over the runs.
 */
export function splitNoise(flip: number | null, runs: readonly RunJudgings[]): NoiseSplit {
  const twice = runs.filter((r) => r.judgings >= 2);
  if (twice.length === 0) return { judgedTwice: 0, judge: null, agent: null };
  const mean = twice.reduce((sum, r) => sum + (r.passes * (r.judgings - r.passes)) / ((r.judgings * (r.judgings - 1)) / 2), 0) / twice.length;
  // Capped at ½ as the flip rate is: a few runs judged twice can disagree on every pair.
  const judge = Math.min(0.5, mean);
  return { judgedTwice: twice.length, judge, agent: flip === null ? null : Math.max(0, flip - judge) };
}

function flipOf(p: number): number {
  return 2 * p * (1 - p);
}
