import { compareCase, LABEL_ORDER, mcnemarExact, pairedBootstrapDifference, type CaseComparison, type ComparisonLabel, type MeanInterval, type RateInterval } from '../stats/index.js';
import { sideStatsOfRuns, type ComparisonSide, type SideStats, type SideTotals } from './sideStats.js';
import type { Stability, VerdictSample } from './stability.js';
import type { CaseDecisionFacts } from './caseDecisionFacts.js';

export type { ComparisonSide, SideTotals } from './sideStats.js';

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
  /** With Fisher's labels: what they mean for a side that ran until decided (`sequentialSideNotes`). */
  methodNotes?: string[];
}

/**
 * Compares two sides case by case: each case gets a label from Fisher's exact test (see
 * `compareCase`), the smallest difference its run counts could show, and the runs' reviews;
 * the bank gets a paired bootstrap of the difference over the cases both sides ran
 * comparably, and McNemar where runs pair one to one. Runs that were not judged never enter
 * a rate; they are counted apart on each side.
 */
export function compareSides(a: ComparisonSide, b: ComparisonSide, options: ComparisonOptions & { judgings?: readonly VerdictSample[] } = {}): Comparison {
  const judgings = options.judgings ?? [];
  return compareSideStats(sideStatsOfRuns(a, judgings), sideStatsOfRuns(b, judgings), options);
}

export interface ComparisonOptions {
  alpha?: number;
  seed?: number;
}

/** The same comparison from each side's stats, however they were made (see sideStats.ts). */
export function compareSideStats(a: SideStats, b: SideStats, options: ComparisonOptions = {}): Comparison {
  const caseIds = [...new Set([...a.cases.keys(), ...b.cases.keys()])].sort();
  const cases: CaseRow[] = caseIds.map((caseId) => {
    const statsA = a.cases.get(caseId);
    const statsB = b.cases.get(caseId);
    const compared = compareCase(caseId, statsA?.side ?? null, statsB?.side ?? null, options.alpha);
    return {
      ...compared,
      differenceInterval: compared.label === 'not_comparable' ? null : newcombe(compared.rateA!, compared.rateB!),
      meanOverallA: statsA?.side.meanOverall ?? null,
      meanOverallB: statsB?.side.meanOverall ?? null,
      reviewsA: statsA?.reviews ?? [],
      reviewsB: statsB?.reviews ?? [],
      stabilityA: statsA?.stability ?? 'unknown',
      stabilityB: statsB?.stability ?? 'unknown',
    };
  });
  cases.sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || (x.caseId < y.caseId ? -1 : 1));
  const labels = Object.fromEntries(LABEL_ORDER.map((l) => [l, cases.filter((c) => c.label === l).length])) as Record<ComparisonLabel, number>;
  const comparable = cases.filter((c) => c.label !== 'not_comparable');
  const difference = pairedBootstrapDifference(
    comparable.map((c) => ({ a: c.rateA!.rate, b: c.rateB!.rate })),
    options.seed !== undefined ? { seed: options.seed } : {},
  );
  return { a: a.totals, b: b.totals, cases, labels, difference, mcnemar: pairedRuns(a.attempts, b.attempts) };
}

/** Newcombe (1998, method 10): the difference's interval from each side's Wilson interval. */
function newcombe(a: RateInterval, b: RateInterval): { low: number; high: number } {
  const d = b.rate - a.rate;
  return {
    low: d - Math.sqrt((b.rate - b.low) ** 2 + (a.high - a.rate) ** 2),
    high: d + Math.sqrt((b.high - b.rate) ** 2 + (a.rate - a.low) ** 2),
  };
}

/** Runs of the same case and attempt index on both sides, both judged: discordant pairs for McNemar. */
function pairedRuns(left: SideStats['attempts'], right: SideStats['attempts']): Comparison['mcnemar'] {
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
