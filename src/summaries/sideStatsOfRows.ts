import { wilsonInterval, type CaseSide } from '../stats/index.js';
import type { ComparisonCaseStatsRow } from '../store/index.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';
import { attemptKey, sortReviews, type CaseStats, type SideStats } from './sideStats.js';
import type { Stability } from './stability.js';

/**
 * A side's stats from the counts the store grouped per case (`comparisonCaseStats`): the same
 * as `sideStatsOfRuns` over the side's loaded runs, field for field and in the same key order,
 * so `compare` prints the same bytes either way (a test holds the two equal).
 */
export function sideStatsOfRows(label: string, rows: readonly ComparisonCaseStatsRow[]): SideStats {
  const cases = new Map<string, CaseStats>();
  const attempts = new Map<string, VerdictResult | null>();
  for (const row of rows) {
    cases.set(row.case_id, { side: caseSide(row), reviews: sortReviews(row.review_dirs), stability: stability(row) });
    row.attempts.forEach((attempt, i) => attempts.set(attemptKey(row.case_id, attempt), row.attempt_results[i] ?? null));
  }
  const sum = (pick: (row: ComparisonCaseStatsRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const [completed, passes] = [sum((r) => r.judged), sum((r) => r.passes)];
  return {
    cases,
    totals: { label, runs: sum((r) => r.runs), completed, passes, rate: wilsonInterval(passes, completed), uncounted: byFirstSeen(rows.flatMap((r) => r.uncounted)), uncontained: sum((r) => r.uncontained) },
    attempts,
  };
}

function caseSide(row: ComparisonCaseStatsRow): CaseSide {
  // Summed in run order, as over loaded runs: a float sum depends on its order.
  const overallSum = row.overalls.reduce((total, overall) => total + overall, 0);
  return {
    caseId: row.case_id,
    version: row.case_version,
    hash: joinedHash(row.case_hashes),
    completed: row.judged,
    passes: row.passes,
    uncounted: byFirstSeen(row.uncounted),
    meanOverall: row.overalls.length === 0 ? null : overallSum / row.overalls.length,
  };
}

/** The case hash of a side: the first run's, and from the first run that differs on, every run's after a `|` (never equal to a single hash). */
function joinedHash(hashes: readonly string[]): string {
  let hash = hashes[0]!;
  for (const next of hashes.slice(1)) if (hash !== next) hash = `${hash}|${next}`;
  return hash;
}

/** Runs by status, the statuses in the order they first appear among the side's runs. */
function byFirstSeen(counts: readonly { status: string; runs: number; first: number }[]): Record<string, number> {
  const first = new Map<string, number>();
  const runs = new Map<string, number>();
  for (const c of counts) {
    first.set(c.status, Math.min(first.get(c.status) ?? Infinity, c.first));
    runs.set(c.status, (runs.get(c.status) ?? 0) + c.runs);
  }
  return Object.fromEntries([...first].sort(([, x], [, y]) => x - y).map(([status]) => [status, runs.get(status)!]));
}

/** The rules of `caseStability`, from the case's counts. */
function stability(row: ComparisonCaseStatsRow): Stability {
  if (row.judged === 0 || (row.judged === 1 && !row.rejudged)) return 'unknown';
  if (row.judges_disagree) return 'flaky_judge';
  if (row.results.length === 1) return row.results[0] === 'pass' ? 'stable_pass' : 'stable_fail';
  return row.rejudged ? 'flaky_agent' : 'flaky';
}
