import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import type { Run, Store } from '../../src/store/index.js';
import { selectSide } from '../../src/summaries/selectSide.js';
import { aHistoryRun } from '../support/historyRun.js';
import { BACKENDS, useStore } from '../store/testBackends.js';

/** The store, with every run its listRuns hands back counted. */
function countingRuns(store: Store): { store: Store; read: () => number } {
  let read = 0;
  const counting = new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'listRuns') return Reflect.get(target, key, receiver) as unknown;
      return async (...args: Parameters<Store['listRuns']>): Promise<Run[]> => {
        const runs = await target.listRuns(...args);
        read += runs.length;
        return runs;
      };
    },
  });
  return { store: counting, read: () => read };
}

describe.each(BACKENDS)('selectSide (%s)', (backend) => {
  const store = useStore(backend);
  const batchId = 'batch-20260401T000000-abcdef';
  const otherBatch = 'batch-20260402T000000-abcdef';

  beforeAll(async () => {
    await store().upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: '2026-04-01T00:00:00Z' });
    await store().upsertBatch({ batch_id: otherBatch, status: 'completed', spec: {}, created_at: '2026-04-02T00:00:00Z' });
    for (const [arm, rev, spec] of [['with_workflow', 'b37a78dc0000', {}], ['no_workflow', 'none', { noWorkflow: true }]] as const) {
      const runId = `run-c-x@20260401T000000-${arm}`;
      await store().upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: 'c', candidate: 'x', status: 'completed', arm, workflow_rev: rev, spec, run_dir: join('/runs', runId) }));
    }
    // Another rev's batch, newer: a hundred runs a prefix of b37a has no business reading.
    for (let i = 0; i < 100; i++) {
      const runId = `run-c-x@20260402T000000-${String(i).padStart(3, '0')}`;
      await store().upsertRun(aHistoryRun({ run_id: runId, batch_id: otherBatch, case_id: 'c', candidate: 'x', status: 'completed', workflow_rev: 'ffff00000000', run_dir: join('/runs', runId), created_at: '2026-04-02T00:00:01Z' }));
    }
  });

  it('finds a workflow_rev by its prefix, and never takes the runs without a workflow for a rev named none', async () => {
    expect((await selectSide(store(), 'b37a')).entries.map((e) => e.run.arm)).toEqual(['with_workflow']);
    await expect(selectSide(store(), 'none')).rejects.toThrow("compare: 'none' is no batch, batch:arm or workflow_rev in the store");
    // As an arm of its batch it is there.
    expect((await selectSide(store(), `${batchId}:no_workflow`)).entries).toHaveLength(1);
  });

  it('matches the prefix in the store: the runs of other revs are never read', async () => {
    const { store: counting, read } = countingRuns(store());
    const side = await selectSide(counting, 'b37a');
    expect(side.label).toBe(`workflow_rev b37a (batch ${batchId})`);
    // The exact look-up (none), the prefix's newest run, and the side's one run (loadRunsWithVerdicts).
    expect(read()).toBeLessThanOrEqual(2);
  });
});
