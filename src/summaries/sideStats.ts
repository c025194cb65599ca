import { wilsonInterval, type CaseSide, type RateInterval } from '../stats/index.js';
import type { RunWithVerdict } from '../store/index.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';
import { countUncontained } from './runIsolation.js';
import { caseStability, type Stability, type VerdictSample } from './stability.js';

/** One side of a comparison as the user named it, with the runs it stands for. */
export interface ComparisonSide {
  label: string;
  entries: readonly RunWithVerdict[];
}

export interface SideTotals {
  label: string;
  runs: number;
  completed: number;
  passes: number;
  rate: RateInterval | null;
  /** Runs that never enter a rate, by status. */
  uncounted: Record<string, number>;
  /** Runs whose candidate ran uncontained (isolation: none): a side with any is not a contained result. */
  uncontained: number;
}

/** One case of a side as the comparison reads it. */
export interface CaseStats {
  side: CaseSide;
  /** The review.md of each judged run, sorted: where a flip is explained. */
  reviews: string[];
  /** Whether the side's verdicts of the case repeat (see stability.ts). */
  stability: Stability;
}

/**
 * A side reduced to what a comparison reads: its cases, its totals, and its judged runs by
 * case and attempt index (`case#attempt` → result; of two runs with one key, the later in run
 * order), which pair with the other side's for McNemar. Made from loaded runs
 * (`sideStatsOfRuns`) or from counts the store grouped (`sideStatsOfRows`), alike.
 */
export interface SideStats {
  cases: ReadonlyMap<string, CaseStats>;
  totals: SideTotals;
  attempts: ReadonlyMap<string, VerdictResult | null>;
}

/** A side's stats from its runs and their verdicts (and every judging of them, for stability). */
export function sideStatsOfRuns(side: ComparisonSide, judgings: readonly VerdictSample[]): SideStats {
  const stability = caseStability(side.entries, judgings);
  const cases = new Map<string, CaseStats>();
  for (const [caseId, caseSide] of caseSides(side.entries)) {
    cases.set(caseId, { side: caseSide, reviews: sortReviews(side.entries.filter((e) => e.run.case_id === caseId && e.verdict).map((e) => e.run.run_dir)), stability: stability[caseId] ?? 'unknown' });
  }
  const judged = side.entries.filter((e) => e.run.status === 'completed' && e.verdict && e.run.attempt_index !== null);
  const attempts = new Map(judged.map((e) => [attemptKey(e.run.case_id, e.run.attempt_index!), e.verdict!.result]));
  return { cases, totals: totals(side), attempts };
}

/** The key a run pairs by: its case and attempt index. */
export function attemptKey(caseId: string, attemptIndex: number): string {
  return `${caseId}#${attemptIndex}`;
}

/** The review.md of each run dir, in the order a person reads them (run-…-2 before run-…-10). */
export function sortReviews(runDirs: readonly string[]): string[] {
  return runDirs.map((dir) => `${dir}/review.md`).sort(reviewOrder.compare);
}

// The collator localeCompare with these options builds on every call, built once: a 1,000-run
// side's sort spent 36 ms building it.
const reviewOrder = new Intl.Collator('en', { numeric: true });

/** Per case: completed runs, passes, mean overall, the rest by status, and the case's identity. */
function caseSides(entries: readonly RunWithVerdict[]): Map<string, CaseSide> {
  const sides = new Map<string, CaseSide & { overallSum: number; overallN: number }>();
  for (const { run, verdict } of entries) {
    let side = sides.get(run.case_id);
    if (!side) {
      side = { caseId: run.case_id, version: run.case_version, hash: run.case_hash, completed: 0, passes: 0, uncounted: {}, meanOverall: null, overallSum: 0, overallN: 0 };
      sides.set(run.case_id, side);
    }
    // A side whose runs ran different versions of a case is not one side of that case.
    if (side.hash !== run.case_hash) side.hash = `${side.hash}|${run.case_hash}`;
    if (run.status === 'completed' && verdict) {
      side.completed += 1;
      if (verdict.result === 'pass') side.passes += 1;
      if (verdict.overall !== null) {
        side.overallSum += verdict.overall;
        side.overallN += 1;
      }
    } else {
      side.uncounted[run.status] = (side.uncounted[run.status] ?? 0) + 1;
    }
  }
  return new Map([...sides].map(([id, { overallSum, overallN, ...side }]) => [id, { ...side, meanOverall: overallN === 0 ? null : overallSum / overallN }]));
}

function totals(side: ComparisonSide): SideTotals {
  const judged = side.entries.filter((e) => e.run.status === 'completed' && e.verdict);
  const passes = judged.filter((e) => e.verdict!.result === 'pass').length;
  const uncounted: Record<string, number> = {};
  for (const { run, verdict } of side.entries) if (!(run.status === 'completed' && verdict)) uncounted[run.status] = (uncounted[run.status] ?? 0) + 1;
  return { label: side.label, runs: side.entries.length, completed: judged.length, passes, rate: wilsonInterval(passes, judged.length), uncounted, uncontained: countUncontained(side.entries) };
}
