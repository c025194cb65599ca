import { fisherExact, smallestDetectableDifference } from './fisher.js';
import { wilsonInterval, type RateInterval } from './wilson.js';

/**
 * How one case changed from side A to side B:
 * - `regression` / `improvement`: the pass rates differ, Fisher's exact test p < alpha;
 * - `no_change`: they may differ, but not beyond what chance explains at these run counts;
 * - `insufficient_data`: no outcome of this many runs could reach p < alpha (with equal
 *   counts: fewer than 4 runs a side), so the case says nothing either way;
 * - `not_comparable`: a side has no completed run, or the two sides ran different versions
 *   of the case (its version or content hash differs).
 */
export type ComparisonLabel = 'regression' | 'improvement' | 'no_change' | 'insufficient_data' | 'not_comparable';

/** One side's runs of one case: only completed runs enter a rate; the others are counted apart. */
export interface CaseSide {
  caseId: string;
  version: string;
  hash: string;
  /** Completed (judged) runs and how many of them passed. */
  completed: number;
  passes: number;
  /** Runs that did not complete, by status (aborted, infra_error, judge_failed, needs_review, cancelled). */
  uncounted: Record<string, number>;
  /** Mean overall score of the completed runs; null when there is none. */
  meanOverall: number | null;
}

export interface CaseComparison {
  caseId: string;
  a: CaseSide | null;
  b: CaseSide | null;
  label: ComparisonLabel;
  rateA: RateInterval | null;
  rateB: RateInterval | null;
  /** Pass rate of B minus that of A; null when not comparable. */
  difference: number | null;
  /** Fisher's exact p-value; null when not comparable. */
  p: number | null;
  /** The smallest difference these run counts could show at p < alpha; null when none could. */
  detectable: number | null;
  /** Why the case is not comparable, when it is not. */
  reason?: string;
}

export function compareCase(caseId: string, a: CaseSide | null, b: CaseSide | null, alpha = 0.05): CaseComparison {
  const rateA = a ? wilsonInterval(a.passes, a.completed) : null;
  const rateB = b ? wilsonInterval(b.passes, b.completed) : null;
  const base = { caseId, a, b, rateA, rateB };
  const missing = !a || a.completed === 0 ? 'A' : !b || b.completed === 0 ? 'B' : null;
  if (missing) return { ...base, label: 'not_comparable', difference: null, p: null, detectable: null, reason: `side ${missing} has no completed run` };
  if (a!.version !== b!.version || a!.hash !== b!.hash) {
    return { ...base, label: 'not_comparable', difference: null, p: null, detectable: null, reason: `the case changed between the sides (${a!.version} ${a!.hash.slice(0, 8)} → ${b!.version} ${b!.hash.slice(0, 8)})` };
  }
  const difference = b!.passes / b!.completed - a!.passes / a!.completed;
  const p = fisherExact(a!.passes, a!.completed, b!.passes, b!.completed);
  const detectable = smallestDetectableDifference(a!.completed, b!.completed, alpha);
  const label: ComparisonLabel = detectable === null ? 'insufficient_data' : p < alpha ? (difference < 0 ? 'regression' : 'improvement') : 'no_change';
  return { ...base, label, difference, p, detectable };
}

/** The order a comparison is read in: regressions first, then improvements, then the rest. */
export const LABEL_ORDER: readonly ComparisonLabel[] = ['regression', 'improvement', 'no_change', 'insufficient_data', 'not_comparable'];
