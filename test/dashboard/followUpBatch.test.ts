import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, kpisOf, type Dashboard } from '../../src/dashboard/index.js';
import { passHatK, wilsonInterval } from '../../src/stats/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DASHBOARD_BATCHES, DASHBOARD_PRICES, fillDashboardStore } from '../support/dashboardFixture.js';
import { aHistoryRun } from '../support/historyRun.js';

const stats = { wilsonInterval, passHatK };
const FOLLOW_UP = 'batch-20300101T000000-f0110f';

/**
 * After the fixture's three batches over alpha, beta and gamma, a one-case follow-up batch over
 * gamma, one run with the workflow and one without (`workflow=none`, rev `none`).
 */
describe('the dashboard after a follow-up batch over other cases', () => {
  let store: Store;
  let model: Dashboard;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store);
    await store.upsertBatch({ batch_id: FOLLOW_UP, status: 'completed', spec: { arms: [{ name: 'with', change: 'base' }, { name: 'none', change: 'workflow=none' }] }, created_at: '2030-01-01T00:00:00Z' });
    for (const [arm, rev, result] of [['with', 'rev-two', 'pass'], ['none', 'none', 'fail']] as const) {
      const runId = `run-gamma-cmd@20300101T000000+${arm}`;
      await store.upsertRun(aHistoryRun({
        run_id: runId, batch_id: FOLLOW_UP, case_id: 'gamma', candidate: 'cmd', status: 'completed', arm, workflow_rev: rev,
        spec: arm === 'none' ? { noWorkflow: true } : {}, run_dir: `/runs/${runId}`,
        created_at: '2030-01-01T00:00:01Z', finished_at: '2030-01-01T00:00:30Z',
      }));
      await store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, judge_model: 'judge-model', judged_at: '2030-01-01T00:00:31Z' });
    }
    model = await buildDashboard({ store, prices: DASHBOARD_PRICES });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('shows no change against an earlier batch of other cases', () => {
    const { last, previous } = kpisOf(model, {}, stats);
    expect(model.batches[last!.batch]!.id).toBe(FOLLOW_UP);
    expect(last).toMatchObject({ runs: 2, judged: 2, passes: 1 });
    expect(previous).toBeNull();
  });

  it('compares a case filter with the latest earlier batch of the same cases', () => {
    const { last, previous } = kpisOf(model, { case: 'gamma' }, stats);
    expect(model.batches[last!.batch]!.id).toBe(FOLLOW_UP);
    expect(model.batches[previous!.batch]!.id).toBe(DASHBOARD_BATCHES[2]);
  });

  it('never takes the run without a workflow for a workflow revision', () => {
    expect(model.revSteps.map((step) => step.rev)).not.toContain('none');
    expect(model.revSteps.map((step) => step.previous)).not.toContain('none');
  });
});
