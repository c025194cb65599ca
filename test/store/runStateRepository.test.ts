import { describe, expect, it } from 'vitest';
import { loadRunsWithVerdicts } from '../../src/summaries/loadRuns.js';
import { aRun, aScore, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('what the viewer reads of a batch on %s', (backend) => {
  const store = useStore(backend);

  it("batchCaseRuns: a batch's runs by run_id, small columns, each with its verdict's result and overall as loadRunsWithVerdicts gives them", async () => {
    const batchId = uniqueId('batch-cases');
    const id = (name: string) => `${batchId}-${name}`;
    await store().upsertBatch({ batch_id: batchId, status: 'running', spec: {}, counts: {} });
    await store().upsertRun(aRun({ run_id: id('c-judged'), batch_id: batchId, case_id: 'b-case', arm: 'new', attempt_index: 2, status: 'completed' }));
    await store().saveScore(id('c-judged'), aScore({ judged_at: '2026-03-01T10:00:00Z', result: 'fail', overall: 1.5 }));
    // A person's decision replaced the judge's pass: the decision is the run's result.
    await store().upsertRun(aRun({ run_id: id('a-decided'), batch_id: batchId, case_id: 'a-case', status: 'completed' }));
    await store().saveScore(id('a-decided'), aScore({ judged_at: '2026-03-01T10:00:00Z', result: 'pass', overall: 4.25 }));
    await store().updateRun(id('a-decided'), { result: 'fail' });
    // Not judged (its run row carries a result, but without a verdict the view shows none).
    await store().upsertRun(aRun({ run_id: id('b-running'), batch_id: batchId, case_id: 'a-case', status: 'running', result: 'pass' }));
    await store().upsertRun(aRun({ run_id: id('other'), batch_id: uniqueId('batch-other'), status: 'completed' }));

    const rows = await store().batchCaseRuns(batchId);
    expect(rows).toEqual([
      { run_id: id('a-decided'), case_id: 'a-case', arm: null, attempt_index: null, status: 'completed', result: 'fail', overall: 4.25 },
      { run_id: id('b-running'), case_id: 'a-case', arm: null, attempt_index: null, status: 'running', result: null, overall: null },
      { run_id: id('c-judged'), case_id: 'b-case', arm: 'new', attempt_index: 2, status: 'completed', result: 'fail', overall: 1.5 },
    ]);
    const loaded = (await loadRunsWithVerdicts(store(), { batchId })).map(({ run, verdict }) => ({ run_id: run.run_id, result: verdict?.result ?? null, overall: verdict?.overall ?? null }));
    expect(rows.map(({ run_id, result, overall }) => ({ run_id, result, overall }))).toEqual(loaded.sort((a, b) => (a.run_id < b.run_id ? -1 : 1)));
    expect(await store().batchCaseRuns(uniqueId('batch-none'))).toEqual([]);
  });

  it('changeMark: another after any write', async () => {
    const before = await store().changeMark();
    await store().upsertBatch({ batch_id: uniqueId('batch-mark'), status: 'running', spec: {}, counts: {} });
    expect(await store().changeMark()).not.toBe(before);
  });
});

// The mark is the whole database's: on the shared PostgreSQL other writers (other schemas) move it
// too, so that it stays put over reads is checked where nothing else writes, on the embedded store.
describe('the change mark on pglite', () => {
  const store = useStore('pglite');

  it('changeMark: the same while only reads happen', async () => {
    const before = await store().changeMark();
    await store().listBatches({ limit: 5 });
    await store().getRun('no-such-run');
    await store().batchCaseRuns('no-such-batch');
    expect(await store().changeMark()).toBe(before);
  });
});
