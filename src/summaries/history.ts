import type { RunWithVerdict } from '../store/index.js';
import { wilsonInterval, type RateInterval } from '../stats/index.js';
import { compareSides } from './comparison.js';
import { workflowRevisionOf } from './workflowRevision.js';

export interface RevRow {
  workflowRev: string;
  /** When the rev's first run was created. */
  since: string;
  runs: number;
  judged: number;
  rate: RateInterval | null;
  meanOverall: number | null;
  /** Against the previous rev: pass-rate difference and how many cases regressed or improved. */
  versusPrevious: { difference: number | null; regressions: number; improvements: number } | null;
}

/**
 * Per workflow_rev, in the order the revs were first run: runs, pass rate with its interval,
 * mean overall, and the change from the rev before (the difference of pass rates and the
 * cases a paired comparison labels regressions and improvements). Runs without any workflow
 * (an arm `workflow=none`) are no revision and are left out.
 */
export function revHistory(entries: readonly RunWithVerdict[]): RevRow[] {
  const byRev = new Map<string, RunWithVerdict[]>();
  for (const entry of [...entries].sort((a, b) => (a.run.created_at < b.run.created_at ? -1 : 1))) {
    const rev = workflowRevisionOf(entry.run);
    if (rev === null) continue;
    byRev.set(rev, [...(byRev.get(rev) ?? []), entry]);
  }
  const rows: RevRow[] = [];
  let previous: RunWithVerdict[] | null = null;
  for (const [rev, runs] of byRev) {
    const judged = runs.filter((e) => e.run.status === 'completed' && e.verdict);
    const passes = judged.filter((e) => e.verdict!.result === 'pass').length;
    const overall = judged.map((e) => e.verdict!.overall).filter((v): v is number => v !== null);
    const rate = wilsonInterval(passes, judged.length);
    let versusPrevious: RevRow['versusPrevious'] = null;
    if (previous) {
      const compared = compareSides({ label: 'previous', entries: previous }, { label: rev, entries: runs });
      const before = rows.at(-1)!.rate;
      versusPrevious = { difference: rate && before ? rate.rate - before.rate : null, regressions: compared.labels.regression, improvements: compared.labels.improvement };
    }
    rows.push({ workflowRev: rev, since: runs[0]!.run.created_at, runs: runs.length, judged: judged.length, rate, meanOverall: overall.length ? overall.reduce((a, b) => a + b, 0) / overall.length : null, versusPrevious });
    previous = runs;
  }
  return rows;
}
