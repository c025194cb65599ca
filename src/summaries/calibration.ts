import { flipRate, splitNoise, splitOf, type FlipRate, type NoiseSplit } from '../stats/index.js';
import type { CalibrationRow, RunWithVerdict } from '../store/index.js';
import type { Prices } from '../vocabulary/prices.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';
import { isUnfinished } from '../vocabulary/runStatus.js';
import { runCost } from './prices.js';

/** One case's noise as a calibration measured it: the flip rate with its interval, and its split. */
export interface CaseNoise {
  caseId: string;
  caseHash: string;
  /** passes / runs; null without a judged run. */
  passRate: number | null;
  flip: FlipRate;
  split: NoiseSplit;
  costPerRun: number | null;
}

/** A judging of a run (its own, a rejudge, a sample of `rejudge --repeat` or of `run --judges`). */
export interface Judging {
  run_id: string;
  result: VerdictResult | null;
}

/**
 * Each case's noise in an A/A batch: every judged run of the case counts, whichever side it
 * ran on (both sides are the same configuration, so their runs are alike), and every judging
 * of a run's transcript beyond its own tells the judge's share. The flip rate counts the runs
 * that compare counts (completed, with a verdict); the judge's share also counts a run left for
 * a person's review, since a run whose judge samples disagreed is left so, and leaving those out
 * would hide exactly the judge's noise.
 */
export function measureNoise(entries: readonly RunWithVerdict[], judgings: readonly Judging[], prices: Prices): CaseNoise[] {
  const byCase = new Map<string, RunWithVerdict[]>();
  for (const entry of entries) byCase.set(entry.run.case_id, [...(byCase.get(entry.run.case_id) ?? []), entry]);
  const byRun = new Map<string, VerdictResult[]>();
  for (const judging of judgings) if (judging.result) byRun.set(judging.run_id, [...(byRun.get(judging.run_id) ?? []), judging.result]);
  return [...byCase.keys()].sort().map((caseId) => {
    const runs = byCase.get(caseId)!;
    const judged = runs.filter(({ run, verdict }) => run.status === 'completed' && verdict?.result);
    const passes = judged.filter(({ verdict }) => verdict!.result === 'pass').length;
    const flip = flipRate(passes, judged.length);
    const split = splitNoise(
      flip,
      runs
        .filter(({ run }) => run.status === 'completed' || run.status === 'needs_review')
        .map(({ run }) => {
          const results = byRun.get(run.run_id) ?? [];
          return { passes: results.filter((r) => r === 'pass').length, judgings: results.length };
        }),
    );
    return { caseId, caseHash: runs[0]!.run.case_hash, passRate: judged.length === 0 ? null : passes / judged.length, flip, split, costPerRun: meanCost(runs, prices) };
  });
}

/** The rows a calibration keeps: one per case, the configuration named by the runs that measured it. */
export function calibrationRows(batchId: string, noise: readonly CaseNoise[], entries: readonly RunWithVerdict[], calibratedAt: string): CalibrationRow[] {
  return noise.map((c) => {
    const run = entries.find((e) => e.run.case_id === c.caseId)!.run;
    return {
      batch_id: batchId,
      case_id: c.caseId,
      case_hash: c.caseHash,
      candidate: run.candidate,
      workflow_rev: run.workflow_rev,
      runs: c.flip.runs,
      passes: c.flip.passes,
      judged_twice: c.split.judgedTwice,
      judge_flip: c.split.judge,
      cost_per_run: c.costPerRun,
      calibrated_at: calibratedAt,
    };
  });
}

/** A stored calibration read back as noise: the flip rate follows from its runs and passes. */
export function noiseOf(row: CalibrationRow): CaseNoise {
  const flip = flipRate(row.passes, row.runs);
  // The row keeps the judge's mean share (capped at ½), which is what the interval is taken from.
  const split = row.judge_flip === null ? splitOf(flip, 0, 0) : splitOf(flip, row.judged_twice, row.judge_flip);
  return { caseId: row.case_id, caseHash: row.case_hash, passRate: row.runs === 0 ? null : row.passes / row.runs, flip, split, costPerRun: row.cost_per_run };
}

/** Mean cost of the case's finished runs; null when any is unknown (no price, no usage). */
function meanCost(runs: readonly RunWithVerdict[], prices: Prices): number | null {
  const costs = runs.filter(({ run }) => !isUnfinished(run.status)).map(({ run }) => runCost(run.tokens, run.models, prices).total);
  if (costs.length === 0 || costs.some((c) => c === null)) return null;
  return costs.reduce<number>((sum, c) => sum + c!, 0) / costs.length;
}
