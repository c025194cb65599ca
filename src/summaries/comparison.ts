import { compareCase, LABEL_ORDER, mcnemarExact, pairedBootstrapDifference, wilsonInterval, type CaseComparison, type CaseSide, type ComparisonLabel, type MeanInterval, type RateInterval } from '../stats/index.js';
import type { RunWithVerdict } from '../store/index.js';
import { countUncontained } from './runIsolation.js';
import type { CaseDecisionFacts } from './sequentialComparison.js';
import { caseStability, type VerdictSample, type Stability } from './stability.js';

/** One side of a comparison as the user named it, with the runs it stands for. */
export interface ComparisonSide {
  label: string;
  entries: readonly RunWithVerdict[];
}

export interface CaseRow extends CaseComparison {
  /** Newcombe's interval of the pass-rate difference (B − A), from the two Wilson intervals. */
  differenceInterval: { low: number; high: number } | null;
  meanOverallA: number | null;
  meanOverallB: number | null;
  /** The review.md of each judged run, per side: where a flip is explained. */
  reviewsA: string[];
  reviewsB: string[];
  /** Whether each side's verdicts repeat (see stability.ts). */
  stabilityA: Stability;
  stabilityB: Stability;
  /** The sequential test's decision, when the label is its (an until-decided batch's two arms). */
  decision?: CaseDecisionFacts;
}

export interface Comparison {
  a: SideTotals;
  b: SideTotals;
  /** Regressions first, then improvements, no change, insufficient data, not comparable. */
  cases: CaseRow[];
  labels: Record<ComparisonLabel, number>;
  /** Over the comparable cases: a paired bootstrap (seeded) of the mean per-case pass-rate difference. */
  difference: MeanInterval | null;
  /** McNemar's exact p over runs that pair one to one (same case and attempt index on both sides); null without pairs. */
  mcnemar: { pairs: number; onlyA: number; onlyB: number; p: number } | null;
  /** Set when the labels come from the sequential test of an until-decided batch (`withDecisions`), not from Fisher's test. */
  sequential?: { alpha: number; maxRunsPerCase: number };
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

/**
 * Compares two sides case by case: each case gets a label from Fisher's exact test (see
 * `compareCase`), the smallest difference its run counts could show, and the runs' reviews;
 * the bank gets a paired bootstrap of the difference over the cases both sides ran
 * comparably, and McNemar where runs pair one to one. Runs that were not judged never enter
 * a rate; they are counted apart on each side.
 */
export function compareSides(a: ComparisonSide, b: ComparisonSide, options: { alpha?: number; seed?: number; judgings?: readonly VerdictSample[] } = {}): Comparison {
  const stabilityA = caseStability(a.entries, options.judgings ?? []);
  const stabilityB = caseStability(b.entries, options.judgings ?? []);
  const sidesA = caseSides(a.entries);
  const sidesB = caseSides(b.entries);
  const caseIds = [...new Set([...sidesA.keys(), ...sidesB.keys()])].sort();
  const cases: CaseRow[] = caseIds.map((caseId) => {
    const sideA = sidesA.get(caseId) ?? null;
    const sideB = sidesB.get(caseId) ?? null;
    const compared = compareCase(caseId, sideA, sideB, options.alpha);
    return {
      ...compared,
      differenceInterval: compared.label === 'not_comparable' ? null : newcombe(compared.rateA!, compared.rateB!),
      meanOverallA: sideA?.meanOverall ?? null,
      meanOverallB: sideB?.meanOverall ?? null,
      reviewsA: reviewsOf(a.entries, caseId),
      reviewsB: reviewsOf(b.entries, caseId),
      stabilityA: stabilityA[caseId] ?? 'unknown',
      stabilityB: stabilityB[caseId] ?? 'unknown',
    };
  });
  cases.sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || (x.caseId < y.caseId ? -1 : 1));
  const labels = Object.fromEntries(LABEL_ORDER.map((l) => [l, cases.filter((c) => c.label === l).length])) as Record<ComparisonLabel, number>;
  const comparable = cases.filter((c) => c.label !== 'not_comparable');
  const difference = pairedBootstrapDifference(
    comparable.map((c) => ({ a: c.rateA!.rate, b: c.rateB!.rate })),
    options.seed !== undefined ? { seed: options.seed } : {},
  );
  return { a: totals(a), b: totals(b), cases, labels, difference, mcnemar: pairedRuns(a.entries, b.entries) };
}

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

/** Newcombe (1998, method 10): the difference's interval from each side's Wilson interval. */
function newcombe(a: RateInterval, b: RateInterval): { low: number; high: number } {
  const d = b.rate - a.rate;
  return {
    low: d - Math.sqrt((b.rate - b.low) ** 2 + (a.high - a.rate) ** 2),
    high: d + Math.sqrt((b.high - b.rate) ** 2 + (a.rate - a.low) ** 2),
  };
}

function reviewsOf(entries: readonly RunWithVerdict[], caseId: string): string[] {
  return entries
    .filter((e) => e.run.case_id === caseId && e.verdict)
    .map((e) => `${e.run.run_dir}/review.md`)
    .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
}

/** Runs of the same case and attempt index on both sides, both judged: discordant pairs for McNemar. */
function pairedRuns(a: readonly RunWithVerdict[], b: readonly RunWithVerdict[]): Comparison['mcnemar'] {
  const key = (e: RunWithVerdict) => (e.run.attempt_index === null ? null : `${e.run.case_id}#${e.run.attempt_index}`);
  const judged = (list: readonly RunWithVerdict[]) => new Map(list.filter((e) => e.run.status === 'completed' && e.verdict && key(e)).map((e) => [key(e)!, e.verdict!.result]));
  const left = judged(a);
  const right = judged(b);
  let pairs = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (const [k, resultA] of left) {
    const resultB = right.get(k);
    if (!resultB) continue;
    pairs += 1;
    if (resultA === 'pass' && resultB === 'fail') onlyA += 1;
    if (resultA === 'fail' && resultB === 'pass') onlyB += 1;
  }
  return pairs === 0 ? null : { pairs, onlyA, onlyB, p: mcnemarExact(onlyA, onlyB) };
}
