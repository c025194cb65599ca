import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openStore, type Store } from '../../src/store/index.js';
import { groupStats } from '../../src/summaries/groupStats.js';
import { renderJunit } from '../../src/summaries/junit.js';
import { loadRunsWithVerdicts } from '../../src/summaries/loadRuns.js';
import { renderScoreHistory } from '../../src/summaries/scoreHistory.js';

/** Verdicts a person settles: a run in doubt counts nowhere, a decided one counts with the person's result. */
describe('runs whose verdict needed a person', () => {
  let store: Store;
  const BATCH = 'batch-20260301T000000-review';

  beforeAll(async () => {
    store = await openStore({});
    await store.upsertBatch({ batch_id: BATCH, status: 'completed', spec: {} });
    for (const [i, runId] of ['run-c-x@20260301T000000-1', 'run-c-x@20260301T000000-2', 'run-c-x@20260301T000000-3'].entries()) {
      await store.upsertRun({ run_id: runId, batch_id: BATCH, case_id: 'c', case_version: 'v1', case_hash: 'h', candidate: 'x', candidate_adapter: 'command', models: {}, status: 'running', run_dir: `/runs/${runId}`, attempt_index: i + 1 });
      // The judge said pass every time; run 1 is clean, runs 2 and 3 were in doubt.
      await store.saveScore(runId, { result: 'pass', compliance: 4, execution_quality: 4, overall: 4, summary: 'ok', hard_requirements: [], suggestions: [], judge_model: 'j', judged_at: `2026-03-01T00:00:0${i}.000Z`, raw: '', salvaged: i > 0 });
    }
    await store.updateRun('run-c-x@20260301T000000-1', { status: 'completed' });
    await store.updateRun('run-c-x@20260301T000000-2', { status: 'needs_review', result: null, overall: null });
    // A person looked at run 3 and decided fail.
    await store.saveReview('run-c-x@20260301T000000-3', { result: 'fail', author: 'alice', note: 'the test was deleted', judge_result: 'pass', reasons: ['salvaged'], decided_at: '2026-03-02T00:00:00.000Z' });
    await store.updateRun('run-c-x@20260301T000000-3', { status: 'completed', result: 'fail' });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('count the person\'s result, and leave the run in doubt out of every rate', async () => {
    const entries = await loadRunsWithVerdicts(store, { batchId: BATCH });
    const stats = groupStats(entries, {});
    expect(stats.byStatus).toEqual({ completed: 2, needs_review: 1 });
    expect(stats.completed).toBe(2);
    expect(stats.passes).toBe(1);
    const history = parseYaml(renderScoreHistory(entries)) as { run_id: string; result: string }[];
    expect(history.map((h) => [h.run_id, h.result])).toEqual([
      ['run-c-x@20260301T000000-1', 'pass'],
      ['run-c-x@20260301T000000-3', 'fail'],
    ]);
    // The stored verdict still says what the judge said.
    expect((await store.getScore('run-c-x@20260301T000000-3'))?.result).toBe('pass');
  });

  it('JUnit: the run in doubt is an error naming how to settle it, the decided fail a failure', async () => {
    const junit = renderJunit(BATCH, await loadRunsWithVerdicts(store, { batchId: BATCH }));
    expect(junit).toContain('tests="3" failures="1" errors="1" skipped="0"');
    expect(junit).toContain('<error message="the verdict needs a person&apos;s review: evalflow review run-c-x@20260301T000000-2 --result pass|fail --note &quot;why&quot;" type="needs_review">');
  });
});
