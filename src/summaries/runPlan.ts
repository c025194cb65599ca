import { runsToDetect, type DetectOptions } from '../stats/runsToDetect.js';
import type { RunWithVerdict } from '../store/index.js';
import type { Prices } from '../vocabulary/prices.js';
import { isUnfinished } from '../vocabulary/runStatus.js';
import { runCost } from './prices.js';

/** One case's plan: its measured pass rate, the runs per side a comparison needs, and their cost. */
export interface CasePlan {
  caseId: string;
  judged: number;
  passes: number;
  /** passes / judged; null when no run of the case was judged. */
  passRate: number | null;
  /** Runs per side (A and B each); null when there is no pass rate or no change of that size can happen from it. */
  runsPerSide: number | null;
  /** Mean recorded cost of the case's finished runs in US dollars; null when a price or a run's usage is missing. */
  costPerRun: number | null;
  /** costPerRun × both sides' runs (2 × runsPerSide); null when either is unknown. */
  batchCost: number | null;
  /** Why a number is missing, or null. */
  note: string | null;
  /** Where the pass rate comes from: the batch's runs, or the calibration of the case's version (`evalflow calibrate`). */
  source: 'batch' | 'calibration';
  /** The calibration's flip rate when the pass rate comes from one (null below two runs), else null. */
  flipRate: number | null;
}

/** A case version's calibration as a plan reads it: its A/A runs judged and passed. */
export interface CalibratedRate {
  caseHash: string;
  runs: number;
  passes: number;
  flipRate: number | null;
}

export interface RunPlan {
  cases: CasePlan[];
  totals: {
    /** Runs per side summed over the cases that have a number. */
    runsPerSide: number;
    /** Both sides: 2 × runsPerSide. */
    runs: number;
    /** Null when any planned case's cost is unknown: a partial sum would read as the whole. */
    cost: number | null;
    /** Cases left out of the sums (no judged run, or no change of that size possible). */
    unplanned: number;
  };
}

/**
 * Per case of `entries` (one side's runs, the baseline), the runs per side a two-sided
 * comparison needs to detect `options.detect` from the case's measured pass rate (its
 * calibration's, when `calibrated` holds one of the version the batch ran), and what an
 * A/B batch of that size costs at `prices` (cost as the summaries count it: usage × price).
 */
export function planRuns(entries: readonly RunWithVerdict[], options: DetectOptions, prices: Prices, calibrated: ReadonlyMap<string, CalibratedRate> = new Map()): RunPlan {
  const byCase = new Map<string, RunWithVerdict[]>();
  for (const entry of entries) byCase.set(entry.run.case_id, [...(byCase.get(entry.run.case_id) ?? []), entry]);
  const cases = [...byCase.keys()].sort().map((caseId) => casePlan(caseId, byCase.get(caseId)!, options, prices, calibrated.get(caseId)));
  const planned = cases.filter((c) => c.runsPerSide !== null);
  const runsPerSide = planned.reduce((sum, c) => sum + c.runsPerSide!, 0);
  const cost = planned.length === 0 || planned.some((c) => c.batchCost === null) ? null : planned.reduce((sum, c) => sum + c.batchCost!, 0);
  return { cases, totals: { runsPerSide, runs: 2 * runsPerSide, cost, unplanned: cases.length - planned.length } };
}

function casePlan(caseId: string, entries: readonly RunWithVerdict[], options: DetectOptions, prices: Prices, calibration: CalibratedRate | undefined): CasePlan {
  const judgedRuns = entries.filter(({ run, verdict }) => run.status === 'completed' && verdict);
  // A calibration of the version the batch ran measured the case on identical inputs, usually
  // with more runs than a batch's side: its pass rate is the better estimate.
  const calibrated = calibration && calibration.runs > 0 && entries.some(({ run }) => run.case_hash === calibration.caseHash) ? calibration : undefined;
  const judged = calibrated ? calibrated.runs : judgedRuns.length;
  const passes = calibrated ? calibrated.passes : judgedRuns.filter(({ verdict }) => verdict!.result === 'pass').length;
  const passRate = judged === 0 ? null : passes / judged;
  const runsPerSide = passRate === null ? null : runsToDetect(passRate, options);
  // A run still pending or running has not recorded its usage yet: it says nothing about the cost.
  const costs = entries.filter(({ run }) => !isUnfinished(run.status)).map(({ run }) => runCost(run.tokens, run.models, prices).total);
  const costPerRun = costs.length === 0 || costs.some((c) => c === null) ? null : costs.reduce<number>((a, b) => a + b!, 0) / costs.length;
  const batchCost = costPerRun === null || runsPerSide === null ? null : costPerRun * 2 * runsPerSide;
  const note =
    passRate === null ? 'no judged runs' : runsPerSide === null ? `no change of ${options.detect} can happen from ${passRate}` : costPerRun === null ? 'no prices' : null;
  return { caseId, judged, passes, passRate, runsPerSide, costPerRun, batchCost, note, source: calibrated ? 'calibration' : 'batch', flipRate: calibrated?.flipRate ?? null };
}
