import { compareCase, wilsonInterval, type CaseSide } from '../stats/index.js';
import type { RevisionCaseStatsRow } from '../store/index.js';
import type { RevRow } from './history.js';

/**
 * `revHistory` from counts the store grouped per revision and case (`revisionCaseStats`)
 * rather than from every run: the same rows, the same pass rates and intervals, and the same
 * regressions and improvements against the revision before (the per-case labels need only
 * each side's counts). One difference at the edge: a case whose runs of one revision had
 * several case hashes is never comparable here, where the run-by-run version could match two
 * sides that changed hashes in the same order.
 */
export function revHistoryOfStats(stats: readonly RevisionCaseStatsRow[]): RevRow[] {
  const byRev = new Map<string, RevisionCaseStatsRow[]>();
  for (const row of stats) byRev.set(row.workflow_rev, [...(byRev.get(row.workflow_rev) ?? []), row]);
  const since = (rows: readonly RevisionCaseStatsRow[]) => rows.reduce((first, r) => (r.first_created_at < first ? r.first_created_at : first), rows[0]!.first_created_at);
  const revs = [...byRev].map(([rev, rows]) => ({ rev, rows, since: since(rows) })).sort((x, y) => (x.since < y.since ? -1 : x.since > y.since ? 1 : x.rev < y.rev ? -1 : 1));
  const result: RevRow[] = [];
  let previous: Map<string, CaseSide> | null = null;
  for (const { rev, rows, since: first } of revs) {
    const sum = (key: 'runs' | 'judged' | 'passes' | 'overall_n') => rows.reduce((total, r) => total + r[key], 0);
    const overallN = sum('overall_n');
    const overallSum = rows.reduce((total, r) => total + (r.overall_sum ?? 0), 0);
    const rate = wilsonInterval(sum('passes'), sum('judged'));
    const sides = new Map(rows.map((r) => [r.case_id, caseSide(r)]));
    let versusPrevious: RevRow['versusPrevious'] = null;
    if (previous) {
      let regressions = 0;
      let improvements = 0;
      for (const caseId of new Set([...previous.keys(), ...sides.keys()])) {
        const { label } = compareCase(caseId, previous.get(caseId) ?? null, sides.get(caseId) ?? null);
        if (label === 'regression') regressions += 1;
        if (label === 'improvement') improvements += 1;
      }
      const before = result.at(-1)!.rate;
      versusPrevious = { difference: rate && before ? rate.rate - before.rate : null, regressions, improvements };
    }
    result.push({ workflowRev: rev, since: first, runs: sum('runs'), judged: sum('judged'), rate, meanOverall: overallN ? overallSum / overallN : null, versusPrevious });
    previous = sides;
  }
  return result;
}

function caseSide(row: RevisionCaseStatsRow): CaseSide {
  return {
    caseId: row.case_id,
    version: row.case_version,
    hash: row.hashes > 1 ? `${row.case_hash}|mixed ${row.workflow_rev}` : row.case_hash,
    completed: row.judged,
    passes: row.passes,
    uncounted: row.uncounted,
    meanOverall: row.overall_n ? (row.overall_sum ?? 0) / row.overall_n : null,
  };
}
