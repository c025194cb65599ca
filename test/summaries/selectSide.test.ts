import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { selectSide } from '../../src/summaries/selectSide.js';
import { aHistoryRun } from '../support/historyRun.js';

describe('selectSide', () => {
  const batchId = 'batch-20260401T000000-abcdef';
  let store: Store;

  beforeAll(async () => {
    store = await openStore({});
    await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: '2026-04-01T00:00:00Z' });
    for (const [arm, rev, spec] of [['with_workflow', 'b37a78dc0000', {}], ['no_workflow', 'none', { noWorkflow: true }]] as const) {
      const runId = `run-c-x@20260401T000000-${arm}`;
      await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: 'c', candidate: 'x', status: 'completed', arm, workflow_rev: rev, spec, run_dir: join('/runs', runId) }));
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  it('finds a workflow_rev by its prefix, and never takes the runs without a workflow for a rev named none', async () => {
    expect((await selectSide(store, 'b37a')).entries.map((e) => e.run.arm)).toEqual(['with_workflow']);
    await expect(selectSide(store, 'none')).rejects.toThrow("compare: 'none' is no batch, batch:arm or workflow_rev in the store");
    // As an arm of its batch it is there.
    expect((await selectSide(store, `${batchId}:no_workflow`)).entries).toHaveLength(1);
  });
});
