import type { FlipRate } from './flipRate.js';
import { wilsonInterval } from './wilson.js';

/** The verdicts of one run's transcript: its own judging and any more (`run --judges N`, `rejudge --repeat`). */
export interface RunJudgings {
  passes: number;
  judgings: number;
}

/** The flip rate split into the judge's share and the agent's, each with a 95% interval. */
export interface NoiseSplit {
  /** Runs judged at least twice: what the judge's share is measured on. */
  judgedTwice: number;
  /** The chance that two judgings of one transcript disagree, averaged over the transcripts; null when no run was judged twice. */
  judge: number | null;
  judgeLow: number | null;
  judgeHigh: number | null;
  /** What is left of the flip rate: disagreement that comes from the transcripts differing; null without both. */
  agent: number | null;
  agentLow: number | null;
  agentHigh: number | null;
}

const NO_SPLIT: NoiseSplit = { judgedTwice: 0, judge: null, judgeLow: null, judgeHigh: null, agent: null, agentLow: null, agentHigh: null };

/**
 * Splits a case's flip rate. With q_T the chance the judge passes transcript T and π = E[q_T],
 * the law of total variance gives π(1 − π) = E[q_T(1 − q_T)] + Var(q_T): twice the first term is
 * how often two judgings of one transcript disagree (the judge's noise), twice the second what
 * different transcripts add (the agent's). The judge's share is measured on runs judged twice or
 * more, each run's share of disagreeing pairs of its judgings, averaged over the runs.
 */
export function splitNoise(flip: FlipRate, runs: readonly RunJudgings[]): NoiseSplit {
  const twice = runs.filter((r) => r.judgings >= 2);
  if (twice.length === 0) return NO_SPLIT;
  const disagreeing = twice.reduce((sum, r) => sum + (r.passes * (r.judgings - r.passes)) / ((r.judgings * (r.judgings - 1)) / 2), 0);
  return splitOf(flip, twice.length, disagreeing / twice.length);
}

/**
 * The split from the judge's mean share over `judgedTwice` runs (as a calibration stores it).
 * The judge's interval is Wilson's with the mean share as the proportion of `judgedTwice`: each
 * run's share lies in [0, 1], and a variable in [0, 1] with mean μ varies at most as a coin with
 * chance μ does, so the interval is at least as wide as the mean of the shares needs. The agent's
 * is f − j with Newcombe's square-and-add of the two intervals' half-widths (as for a difference
 * of independent rates); f and j are measured on the same runs and f contains j, so they rise
 * together, which makes the spread of f − j smaller than that sum supposes: a wide interval, not
 * a narrow one. Both are capped at ½ like the flip rate.
 */
export function splitOf(flip: FlipRate, judgedTwice: number, meanShare: number): NoiseSplit {
  if (judgedTwice <= 0) return NO_SPLIT;
  const judge = Math.min(0.5, meanShare);
  const interval = wilsonInterval(Math.min(judgedTwice, Math.max(0, meanShare * judgedTwice)), judgedTwice)!;
  const judgeLow = Math.min(judge, interval.low);
  const judgeHigh = Math.min(0.5, Math.max(judge, interval.high));
  if (flip.rate === null) return { judgedTwice, judge, judgeLow, judgeHigh, agent: null, agentLow: null, agentHigh: null };
  const difference = flip.rate - judge;
  const below = Math.hypot(flip.rate - flip.low!, judgeHigh - judge);
  const above = Math.hypot(flip.high! - flip.rate, judge - judgeLow);
  return {
    judgedTwice,
    judge,
    judgeLow,
    judgeHigh,
    agent: Math.max(0, difference),
    agentLow: Math.max(0, difference - below),
    agentHigh: Math.min(0.5, Math.max(0, difference + above)),
  };
}
