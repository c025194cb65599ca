import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { loadRunsWithVerdicts, revHistory, revHistoryOfStats, type RevRow } from '../../src/summaries/index.js';
import { aRun, aScore } from '../store/builders.js';

/** Means summed in SQL and in JS may differ in the last bits; everything else must be equal. */
function rounded(rows: RevRow[]): RevRow[] {
  return rows.map((r) => ({ ...r, meanOverall: r.meanOverall === null ? null : Number(r.meanOverall.toFixed(9)) }));
}

/**
 * `history` now counts in SQL (revisionCaseStats → revHistoryOfStats); the run-by-run
 * revHistory over loadRunsWithVerdicts is what it did before. On a fixture with every status,
 * a person's decision overriding the judge, a run without workflow, an unknown revision, two
 * candidates and a case that regresses and one that improves, both give the same rows.
 */
describe('history from SQL counts equals history from every run', () => {
  let store: Store;

  beforeAll(async () => {
    store = await openStore({});
    let minute = 0;
    const add = async (run: { id: string; rev: string | null; case: string; status: string; result?: 'pass' | 'fail'; overall?: number | null; candidate?: string; decided?: 'pass' | 'fail'; noWorkflow?: boolean; hash?: string }) => {
      minute += 1;
      const created = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
      await store.upsertRun(
        aRun({
          run_id: run.id,
          case_id: run.case,
          workflow_rev: run.rev,
          status: run.status as 'completed',
          candidate: run.candidate ?? 'fake',
          created_at: created,
          ...(run.hash ? { case_hash: run.hash } : {}),
          ...(run.noWorkflow ? { spec: { noWorkflow: true } } : {}),
        }),
      );
      if (run.result) await store.saveScore(run.id, aScore({ judged_at: created, result: run.result, overall: run.overall === undefined ? 3 : run.overall }));
      // A person's decision on a run the judge left in doubt: the run's result, not the verdict's.
      if (run.decided) await store.updateRun(run.id, { status: 'completed', result: run.decided });
    };
    // rev-a: case x passes, case y fails.
    for (const n of [1, 2, 3, 4]) await add({ id: `a-x-${n}`, rev: 'rev-a', case: 'x', status: 'completed', result: 'pass', overall: 4 });
    for (const n of [1, 2, 3, 4]) await add({ id: `a-y-${n}`, rev: 'rev-a', case: 'y', status: 'completed', result: 'fail', overall: 1.5 });
    await add({ id: 'a-z-1', rev: 'rev-a', case: 'z', status: 'infra_error' });
    await add({ id: 'a-none', rev: 'none', case: 'x', status: 'completed', result: 'fail' });
    await add({ id: 'a-noworkflow', rev: 'rev-a', case: 'x', status: 'completed', result: 'fail', noWorkflow: true });
    // rev-b: x regresses, y improves (one by a person's decision), a judged run without an overall, other statuses.
    for (const n of [1, 2, 3, 4]) await add({ id: `b-x-${n}`, rev: 'rev-b', case: 'x', status: 'completed', result: 'fail', overall: 2 });
    for (const n of [1, 2, 3]) await add({ id: `b-y-${n}`, rev: 'rev-b', case: 'y', status: 'completed', result: 'pass', overall: n === 3 ? null : 3.25 });
    await add({ id: 'b-y-4', rev: 'rev-b', case: 'y', status: 'needs_review', result: 'fail', decided: 'pass' });
    await add({ id: 'b-y-5', rev: 'rev-b', case: 'y', status: 'needs_review', result: 'fail' });
    await add({ id: 'b-z-1', rev: 'rev-b', case: 'z', status: 'judge_failed' });
    await add({ id: 'b-z-2', rev: 'rev-b', case: 'z', status: 'aborted' });
    await add({ id: 'b-w-1', rev: 'rev-b', case: 'w', status: 'completed', result: 'pass', candidate: 'other', hash: 'sha256:bbbb' });
    // A revision that is no git commit, and a rev whose case changed against rev-b.
    await add({ id: 'u-x-1', rev: null, case: 'x', status: 'completed', result: 'pass' });
    await add({ id: 'c-w-1', rev: 'rev-c', case: 'w', status: 'completed', result: 'fail', candidate: 'other' });
    await add({ id: 'c-x-1', rev: 'rev-c', case: 'x', status: 'cancelled' });
  });
  afterAll(async () => {
    await store?.close();
  });

  for (const filter of [{}, { caseId: 'x' }, { caseId: 'w' }, { candidate: 'other' }, { candidate: 'fake' }, { caseId: 'nothing' }]) {
    it(`the same rows with filter ${JSON.stringify(filter)}`, async () => {
      const before = revHistory(await loadRunsWithVerdicts(store, filter));
      const now = revHistoryOfStats(await store.revisionCaseStats(filter));
      expect(rounded(now)).toEqual(rounded(before));
    });
  }

  it('the fixture shows what the history is for: revisions in order, a regression and an improvement', async () => {
    const rows = revHistoryOfStats(await store.revisionCaseStats());
    expect(rows.map((r) => [r.workflowRev, r.runs, r.judged])).toEqual([
      ['rev-a', 9, 8],
      ['rev-b', 12, 9],
      ['unknown', 1, 1],
      ['rev-c', 2, 1],
    ]);
    expect(rows[1]!.versusPrevious).toMatchObject({ regressions: 1, improvements: 1 });
    expect(rows[0]!.meanOverall).toBeCloseTo(2.75);
  });
});
