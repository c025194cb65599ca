import type { ListRunsFilter, Run, RunWithVerdict, Store } from '../store/index.js';

/**
 * Runs the filter selects, each with the verdict it counts with, in two queries whatever their
 * number. A completed run counts with the run's result: the judge's, or a person's decision
 * when its verdict needed one (the stored verdict keeps what the judge said).
 */
export async function loadRunsWithVerdicts(store: Store, filter: ListRunsFilter): Promise<RunWithVerdict[]> {
  return withVerdicts(store, await store.listRuns(filter));
}

/**
 * The same, a page at a time (in run_id order), for views over the whole history: memory
 * holds one page, not every run ever.
 */
export async function* pagesOfRunsWithVerdicts(store: Store, filter: Omit<ListRunsFilter, 'limit' | 'afterRunId'>, pageSize = 2_000): AsyncGenerator<RunWithVerdict[]> {
  let afterRunId = '';
  for (;;) {
    const runs = await store.listRuns({ ...filter, limit: pageSize, afterRunId });
    if (runs.length === 0) return;
    yield await withVerdicts(store, runs);
    if (runs.length < pageSize) return;
    afterRunId = runs.at(-1)!.run_id;
  }
}

async function withVerdicts(store: Store, runs: readonly Run[]): Promise<RunWithVerdict[]> {
  const scores = new Map((await store.getScores(runs.map((r) => r.run_id))).map((s) => [s.run_id, s]));
  return runs.map((run) => {
    const verdict = scores.get(run.run_id) ?? null;
    const decided = run.status === 'completed' && run.result !== null && verdict !== null && verdict.result !== run.result;
    return { run, verdict: decided ? { ...verdict, result: run.result } : verdict };
  });
}
