import type { ComparisonLabel } from './compareCases.js';
import { newcombeDifference, type DifferenceInterval } from './newcombe.js';

/**
 * A sequential comparison of two arms' pass rates on one case, for batches that add runs until
 * the answer is clear: a truncated sequential probability ratio test (Wald 1947) on the
 * interleaved pairs (run i of A, run i of B). Only a discordant pair (one side passed, the other
 * failed) carries evidence: when A and B pass equally often, whatever that rate and even when it
 * drifts from round to round, a discordant pair is B's with probability exactly ½, so the test
 * of "A = B" becomes a test of a fair coin (Wald 1947, the chapter on double dichotomies).
 * docs/how-many-runs.md has the formulas, the sources and how to read an open case.
 */

/** What the design is for; `maxPairs` is the limit of runs a side for one case. */
export interface SequentialOptions {
  maxPairs: number;
  /** The rate of false regressions or improvements per case when A = B (default 0.05). */
  alpha?: number;
  /** The chance to decide a true difference of `detect` within `maxPairs` (default 0.8). */
  power?: number;
  /** The difference in pass rate worth detecting, at pass rates around ½ (default 0.4). */
  detect?: number;
}

export interface SequentialDesign {
  maxPairs: number;
  alpha: number;
  power: number;
  detect: number;
  /** What one pair that only A passed adds to the log likelihood ratio of "B is worse" (and one B alone, to "B is better"). */
  logToward: number;
  /** What one pair the other way adds to it (negative). */
  logAway: number;
  /** A case is decided different once its e-value reaches e^logUpper. */
  logUpper: number;
  /** A case is decided unchanged once both ratios fall to e^logLower; −Infinity when the limit is too low to stop for that. */
  logLower: number;
  /** The chance to decide a true difference of `detect` (at ½ ± detect/2) within the limit; null beyond the exact calibration's reach. */
  reachedPower: number | null;
}

/** One case's pairs so far: both complete runs, counted by which side passed. */
export interface PairTally {
  pairs: number;
  bothPassed: number;
  onlyA: number;
  onlyB: number;
}

export type StopReason = 'evidence' | 'futility' | 'limit';

export interface SequentialVerdict {
  /** Decided: a boundary was crossed and the label is final. Open: more runs could still decide. */
  state: 'decided' | 'open';
  label: ComparisonLabel;
  /** Why the case stopped, or `null` while it should get another round. */
  stoppedBy: StopReason | null;
  /** One line: the evidence against its threshold, or what stopped it. */
  why: string;
  pairs: number;
  /** The e-value of "A and B differ": the test's evidence, 1 at the start. */
  evidence: number;
  /** B − A pass rate with its 95% Newcombe interval; null before the first pair. */
  interval: DifferenceInterval | null;
}

const DEFAULTS = { alpha: 0.05, power: 0.8, detect: 0.4 };
/**
 * Beyond this many pairs the exact calibration is skipped (its cost grows with the square of the
 * limit, and a workflow recomputes the design on replay): Ville's 1/alpha holds at any length,
 * and Wald's β/(1 − α) stands in for the futility bound.
 */
const EXACT_LIMIT = 400;
const BISECTIONS = 40;
const CALIBRATION_ROUNDS = 4;

/** The boundaries for these options: the threshold and the futility bound calibrated exactly for the limit. */
export function sequentialDesign(options: SequentialOptions): SequentialDesign {
  const { alpha, power, detect } = { ...DEFAULTS, ...options };
  const { maxPairs } = options;
  if (!Number.isInteger(maxPairs) || maxPairs < 1) throw new RangeError(`sequentialDesign: maxPairs ${maxPairs} is not a positive integer`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`sequentialDesign: alpha ${alpha} is not in (0, 1)`);
  if (!(power > 0 && power < 1)) throw new RangeError(`sequentialDesign: power ${power} is not in (0, 1)`);
  if (!(detect > 0 && detect < 1)) throw new RangeError(`sequentialDesign: detect ${detect} is not in (0, 1)`);
  const theta = awayShare(detect);
  const logToward = Math.log(2 * (1 - theta));
  const logAway = Math.log(2 * theta);
  const steps = { logToward, logAway };
  if (maxPairs > EXACT_LIMIT) {
    return { maxPairs, alpha, power, detect, logToward, logAway, logUpper: Math.log(1 / alpha), logLower: Math.log((1 - power) / (1 - alpha)), reachedPower: null };
  }
  const discordance = 0.5 + (detect * detect) / 2;
  // Each bound depends on the other: the futility bound stops paths the threshold then need not
  // guard against, and a lower threshold buys power the futility bound can spend. A few rounds settle.
  let logUpper = calibrateUpper(steps, maxPairs, alpha, -Infinity);
  let logLower = -Infinity;
  let reachedPower = powerWithin(steps, logUpper, logLower, maxPairs, theta, discordance);
  if (reachedPower < power) return { maxPairs, alpha, power, detect, logToward, logAway, logUpper, logLower, reachedPower };
  for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
    const lower = calibrateLower(steps, logUpper, maxPairs, theta, discordance, power);
    const upper = calibrateUpper(steps, maxPairs, alpha, lower);
    const reached = powerWithin(steps, upper, lower, maxPairs, theta, discordance);
    if (reached < power) break;
    [logUpper, logLower, reachedPower] = [upper, lower, reached];
  }
  return { maxPairs, alpha, power, detect, logToward, logAway, logUpper, logLower, reachedPower };
}

/** Where a case stands after its pairs so far. */
export function sequentialVerdict(design: SequentialDesign, tally: PairTally): SequentialVerdict {
  const { pairs, bothPassed, onlyA, onlyB } = tally;
  if (pairs < 0 || bothPassed < 0 || onlyA < 0 || onlyB < 0 || bothPassed + onlyA + onlyB > pairs) throw new RangeError(`sequentialVerdict: impossible tally ${JSON.stringify(tally)}`);
  const worse = onlyA * design.logToward + onlyB * design.logAway;
  const better = onlyB * design.logToward + onlyA * design.logAway;
  const logEvidence = logMixture(worse, better);
  const evidence = Math.exp(logEvidence);
  const interval = newcombeDifference(bothPassed + onlyA, pairs, bothPassed + onlyB, pairs);
  const base = { pairs, evidence, interval };
  const threshold = Math.exp(design.logUpper);
  const shown = `e = ${evidence.toFixed(2)}`;
  if (logEvidence >= design.logUpper) {
    const label: ComparisonLabel = onlyA > onlyB ? 'regression' : 'improvement';
    return { ...base, state: 'decided', label, stoppedBy: 'evidence', why: `${shown} reached ${threshold.toFixed(1)} after ${pairs} pairs (${onlyA} passed on A alone, ${onlyB} on B alone)` };
  }
  if (Math.max(worse, better) <= design.logLower) {
    return { ...base, state: 'decided', label: 'no_change', stoppedBy: 'futility', why: `a difference of ${design.detect} is ${(1 / Math.exp(Math.max(worse, better))).toFixed(1)}× less likely than none after ${pairs} pairs (${onlyA} passed on A alone, ${onlyB} on B alone)` };
  }
  if (pairs >= design.maxPairs) {
    return { ...base, state: 'open', label: 'insufficient_data', stoppedBy: 'limit', why: `reached the limit of ${design.maxPairs} pairs with ${shown}, below ${threshold.toFixed(1)}, and no bound for "unchanged" crossed` };
  }
  return { ...base, state: 'open', label: 'insufficient_data', stoppedBy: null, why: `${shown} of ${threshold.toFixed(1)} after ${pairs} pairs` };
}

/** Counts interleaved pairs of verdicts (true = passed) into a tally. */
export function tallyPairs(pairs: readonly (readonly [boolean, boolean])[]): PairTally {
  const tally: PairTally = { pairs: pairs.length, bothPassed: 0, onlyA: 0, onlyB: 0 };
  for (const [a, b] of pairs) {
    if (a && b) tally.bothPassed++;
    else if (a) tally.onlyA++;
    else if (b) tally.onlyB++;
  }
  return tally;
}

/** The share of discordant pairs that go against the worse side when the rates are ½ ± detect/2. */
function awayShare(detect: number): number {
  const high = (0.5 + detect / 2) ** 2;
  const low = (0.5 - detect / 2) ** 2;
  return low / (high + low);
}

/** log(½ e^x + ½ e^y) without overflow: the two one-sided ratios mixed, so either direction counts. */
function logMixture(x: number, y: number): number {
  const top = Math.max(x, y);
  return top + Math.log(0.5 * Math.exp(x - top) + 0.5 * Math.exp(y - top));
}

interface Steps {
  logToward: number;
  logAway: number;
}

/**
 * The smallest threshold whose chance of being reached, before the futility bound, within
 * `maxPairs` discordant pairs of a fair coin is at most alpha. More concordant pairs only mean
 * fewer discordant ones, so this bounds the error for any common pass rate. The futility bound is
 * binding: a case stopped as unchanged must not be resumed, or the bound no longer holds.
 */
function calibrateUpper(steps: Steps, maxPairs: number, alpha: number, logLower: number): number {
  let low = 0;
  let high = Math.log(1 / alpha);
  for (let i = 0; i < BISECTIONS; i++) {
    const mid = (low + high) / 2;
    if (crossingProbability(steps, mid, logLower, maxPairs) <= alpha) high = mid;
    else low = mid;
  }
  return high;
}

function crossingProbability(steps: Steps, logUpper: number, logLower: number, maxPairs: number): number {
  let alive = new Float64Array(1).fill(1);
  let crossed = 0;
  for (let d = 1; d <= maxPairs; d++) {
    const next = new Float64Array(d + 1);
    for (let onlyA = 0; onlyA < d; onlyA++) {
      const p = alive[onlyA]! / 2;
      if (p === 0) continue;
      for (const a of [onlyA, onlyA + 1]) {
        if (crosses(steps, a, d - a, logUpper)) crossed += p;
        else if (!futile(steps, a, d - a, logLower)) next[a]! += p;
      }
    }
    alive = next;
  }
  return crossed;
}

/** The largest futility bound that keeps the power: stopping early for "no difference" saves runs on unchanged cases. */
function calibrateLower(steps: Steps, logUpper: number, maxPairs: number, theta: number, discordance: number, power: number): number {
  let low = -logUpper - 10;
  let high = 0;
  for (let i = 0; i < BISECTIONS; i++) {
    const mid = (low + high) / 2;
    if (powerWithin(steps, logUpper, mid, maxPairs, theta, discordance) >= power) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * The chance that a case whose B is worse by `detect` is decided a regression within `maxPairs`
 * pairs: the walk over discordant pairs, each against B with probability 1 − theta, weighted by
 * how likely `maxPairs` pairs hold at least that many discordant ones.
 */
function powerWithin(steps: Steps, logUpper: number, logLower: number, maxPairs: number, theta: number, discordance: number): number {
  const atLeast = binomialUpperTails(maxPairs, discordance);
  let alive = new Float64Array(1).fill(1);
  let power = 0;
  for (let d = 1; d <= maxPairs; d++) {
    const next = new Float64Array(d + 1);
    let decidedNow = 0;
    for (let onlyA = 0; onlyA < d; onlyA++) {
      const p = alive[onlyA]!;
      if (p === 0) continue;
      for (const [a, share] of [[onlyA + 1, 1 - theta], [onlyA, theta]] as const) {
        const onlyB = d - a;
        if (crosses(steps, a, onlyB, logUpper)) {
          if (a > onlyB) decidedNow += p * share;
        } else if (!futile(steps, a, onlyB, logLower)) next[a]! += p * share;
      }
    }
    power += decidedNow * atLeast[d]!;
    alive = next;
  }
  return power;
}

function crosses(steps: Steps, onlyA: number, onlyB: number, logUpper: number): boolean {
  return logMixture(onlyA * steps.logToward + onlyB * steps.logAway, onlyB * steps.logToward + onlyA * steps.logAway) >= logUpper;
}

function futile(steps: Steps, onlyA: number, onlyB: number, logLower: number): boolean {
  return Math.max(onlyA * steps.logToward + onlyB * steps.logAway, onlyB * steps.logToward + onlyA * steps.logAway) <= logLower;
}

/** P(X ≥ d) for X ~ Binomial(n, p), d = 0..n. */
function binomialUpperTails(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  // In logs: (1 − p)^n alone underflows for a few hundred pairs.
  let logPmf = n * Math.log(1 - p);
  pmf[0] = Math.exp(logPmf);
  for (let k = 1; k <= n; k++) {
    logPmf += Math.log(((n - k + 1) * p) / (k * (1 - p)));
    pmf[k] = Math.exp(logPmf);
  }
  const tails = new Float64Array(n + 2);
  for (let k = n; k >= 0; k--) tails[k] = tails[k + 1]! + pmf[k]!;
  return tails;
}
