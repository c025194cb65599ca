import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { loadRunsWithVerdicts, revHistory, revHistoryOfStats, type RevRow } from '../../src/summaries/index.js';
import { aRun, aScore } from '../store/builders.js';
import { BACKENDS, useStore } from '../store/testBackends.js';

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
type RevisionCaseStatsFilter = { caseId?: string; candidate?: string };

const FILTERS: RevisionCaseStatsFilter[] = [{}, { caseId: 'x' }, { caseId: 'w' }, { candidate: 'other' }, { candidate: 'fake' }, { caseId: 'nothing' }];

async function expectSameHistory(store: Store, filter: RevisionCaseStatsFilter): Promise<void> {
  const before = revHistory(await loadRunsWithVerdicts(store, filter));
  const now = revHistoryOfStats(await store.revisionCaseStats(filter));
  expect(rounded(now)).toEqual(rounded(before));
}

describe.each(BACKENDS)('history from SQL counts equals history from every run (%s)', (backend) => {
  const getStore = useStore(backend);
  let store: Store;

  beforeAll(async () => {
    store = getStore();
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
  for (const filter of FILTERS) {
    it(`the same rows with filter ${JSON.stringify(filter)}`, async () => {
      await expectSameHistory(store, filter);
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

  // Last: it changes the fixture. The counts are kept as rows are written (migration 021), so
  // every kind of later write must move a run's contribution, never leave it behind.
  it('the same rows after runs are re-judged, decided, left for review, moved and retried', async () => {
    const later = (minute: number) => new Date(Date.UTC(2026, 0, 2, 0, minute)).toISOString();
    // Re-judged: a newer verdict that flips the result, one without an overall, an older one that changes nothing.
    await store.saveScore('a-x-1', aScore({ judged_at: later(1), result: 'fail', overall: 0.5 }));
    await store.saveScore('a-y-1', aScore({ judged_at: later(2), result: 'pass', overall: null }));
    await store.saveScore('a-y-2', aScore({ judged_at: '2025-01-01T00:00:00.000Z', result: 'pass', overall: 5 }));
    await store.saveJudgeSample('b-x-1', aScore({ judged_at: later(3), result: 'pass' }));
    // A person's decisions: over a verdict, and back to none.
    await store.updateRun('b-y-5', { status: 'completed', result: 'pass' });
    await store.updateRun('b-x-2', { result: null });
    // Left for review again, retried (running), failed in the judge.
    await store.updateRun('a-x-2', { status: 'needs_review' });
    await store.updateRun('a-y-3', { status: 'running' });
    await store.updateRun('b-x-3', { status: 'judge_failed' });
    // A judge_failed run judged after all; an unjudged run's verdict while it is not completed.
    await store.saveScore('b-z-1', aScore({ judged_at: later(4), result: 'pass', overall: 2.5 }));
    await store.updateRun('b-z-1', { status: 'completed' });
    await store.saveScore('b-z-2', aScore({ judged_at: later(5), result: 'fail' }));
    // Written again whole with another revision, case hash, candidate; without any workflow, and back.
    const rewrite = async (runId: string, changes: Partial<Parameters<typeof aRun>[0]>) => {
      const run = (await store.getRun(runId))!;
      await store.upsertRun(aRun({ ...run, ...changes }));
    };
    await rewrite('a-x-3', { workflow_rev: 'rev-b', case_hash: 'sha256:moved' });
    await rewrite('a-y-4', { candidate: 'other' });
    await rewrite('b-y-1', { spec: { noWorkflow: true } });
    await rewrite('a-noworkflow', { spec: {} });
    await rewrite('a-none', { workflow_rev: 'rev-c' });
    await rewrite('u-x-1', { workflow_rev: 'none' });
    // A run added later, created before every other: the earliest run of rev-c's case w now.
    await store.upsertRun(aRun({ run_id: 'c-w-0', case_id: 'w', workflow_rev: 'rev-c', status: 'completed', candidate: 'fake', case_hash: 'sha256:early', created_at: '2025-12-31T00:00:00.000Z' }));
    await store.saveScore('c-w-0', aScore({ judged_at: later(6), result: 'pass', overall: 4.25 }));

    for (const filter of FILTERS) await expectSameHistory(store, filter);
    const rows = revHistoryOfStats(await store.revisionCaseStats());
    // The writes reached the counts: rev-c starts earliest now; rev-a lost a-x-3 to rev-b and got
    // a-noworkflow back; rev-b lost b-y-1 to no workflow; u-x-1 has no revision any more.
    expect(rows.map((r) => [r.workflowRev, r.runs])).toEqual([
      ['rev-c', 4],
      ['rev-a', 9],
      ['rev-b', 12],
    ]);
  });
});
