import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, groupRows, kpisOf, selectMarks, trendOf, type Dashboard } from '../../src/dashboard/index.js';
import { compareCase, passHatK, wilsonInterval } from '../../src/stats/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DASHBOARD_BATCHES, DASHBOARD_PRICES, EP_BATCH, fillDashboardStore, markUncontained, RUN_COST, UNCONTAINED_RUNS } from '../support/dashboardFixture.js';

const stats = { wilsonInterval, passHatK };

describe('the dashboard model, built from a store with every status', () => {
  let store: Store;
  let model: Dashboard;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store);
    // A page of 7 runs: the history is read in several pages, as it is at 100,000 runs.
    model = await buildDashboard({ store, prices: DASHBOARD_PRICES, pageSize: 7 });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('counts every run and orders the batches oldest first', () => {
    expect(model.runs).toBe(39);
    expect(model.batches.map((b) => b.id)).toEqual([EP_BATCH, ...DASHBOARD_BATCHES]);
    expect(model.batches[0]!.kind).toBe('edit_prediction');
    expect(model.cases.map((c) => [c.id, c.category])).toEqual([['alpha', 'feature'], ['beta', 'bugfix'], ['gamma', 'feature']]);
  });

  it('KPI cards: the last batch against the one before', () => {
    const { last, previous } = kpisOf(model, {}, stats);
    expect(model.batches[last!.batch]!.id).toBe(DASHBOARD_BATCHES[2]);
    // B3: 15 runs; judged alpha 3 (2 pass), beta 2 (0), gamma 3 (3): 5 of 8.
    expect(last).toMatchObject({ runs: 15, judged: 8, passes: 5 });
    expect(last!.byStatus).toEqual({ completed: 8, infra_error: 1, needs_review: 1, judge_failed: 1, aborted: 1, cancelled: 1, running: 1, pending: 1 });
    expect(last!.passRate).toEqual(wilsonInterval(5, 8));
    expect(last!.passRate!.low).toBeCloseTo(0.3057, 4);
    // k = 2 (beta's two judged runs): (C(2,2)/C(3,2) + 0 + 1) / 3.
    expect(last!.passHatK!.k).toBe(2);
    expect(last!.passHatK!.value).toBeCloseTo(4 / 9, 10);
    expect(last!.infraErrorRate).toBeCloseTo(1 / 15, 10);
    expect(last!.judgeFailedRate).toBeCloseTo(1 / 15, 10);
    // (5 × 4 + 3 × 1.5) / 8
    expect(last!.meanOverall).toBeCloseTo(3.0625, 10);
    // A running and a pending run have no tokens yet: unknown, never a smaller sum.
    expect(last!.tokens).toBeNull();
    expect(last!.cost).toBeNull();
    expect(previous).toMatchObject({ runs: 12, judged: 12, passes: 9, tokens: 12 * 1_860 });
    // B2's candidate model has no price: its cost is unknown; B1's is 12 runs' worth.
    expect(previous!.cost).toBeNull();
    expect(kpisOf(model, { rev: 'rev-one' }, stats).last!.cost).toBeCloseTo(12 * RUN_COST, 12);
    expect(previous!.passHatK).toEqual({ k: 4, value: 0 });
  });

  it('a filter narrows the KPIs (case alpha: every run finished, so tokens are known)', () => {
    const { last, previous } = kpisOf(model, { case: 'alpha' }, stats);
    expect(last).toMatchObject({ runs: 5, judged: 3, passes: 2, tokens: 5 * 1_860 });
    expect(last!.cost).toBeCloseTo(5 * RUN_COST, 12);
    expect(previous).toMatchObject({ runs: 4, judged: 4, passes: 3 });
    expect(kpisOf(model, { category: 'bugfix' }, stats).last).toMatchObject({ runs: 5, judged: 2, passes: 0 });
    expect(kpisOf(model, { tag: 'regression' }, stats).last).toEqual(kpisOf(model, { case: 'beta' }, stats).last);
    expect(kpisOf(model, { tag: 'tests' }, stats).last).toEqual(kpisOf(model, { category: 'feature' }, stats).last);
    expect(kpisOf(model, { tag: 'alpha' }, stats).last).toEqual(kpisOf(model, { case: 'alpha' }, stats).last);
    expect(kpisOf(model, { candidate: 'cand-b' }, stats).last!.batch).toBe(2);
    expect(kpisOf(model, { to: '2026-01-02' }, stats).last).toMatchObject({ runs: 12, passes: 9 });
  });

  it('the trend marks the first batch of a new workflow_rev', () => {
    const trend = trendOf(model, {}, stats);
    expect(trend.map((p) => [model.batches[p.batch]!.id, p.passRate!.passes, p.passRate!.n, p.newRev])).toEqual([
      [DASHBOARD_BATCHES[0], 9, 12, false],
      [DASHBOARD_BATCHES[1], 9, 12, true],
      [DASHBOARD_BATCHES[2], 5, 8, false],
    ]);
  });

  it('the timeline has one mark per run, with its kind', () => {
    expect(model.timeline.runId).toHaveLength(39);
    expect(new Set(model.timeline.runId).size).toBe(39);
    const kinds: Record<string, number> = {};
    for (const k of model.timeline.kind) kinds[model.markKinds[k]!] = (kinds[model.markKinds[k]!] ?? 0) + 1;
    expect(kinds).toEqual({ pass: 23, fail: 9, needs_review: 1, aborted: 1, infra_error: 1, judge_failed: 1, cancelled: 1, running: 1, pending: 1 });
    expect(selectMarks(model, { case: 'gamma', rev: 'rev-two' })).toHaveLength(9);
  });

  it('keeps only the latest runs of a case when told to', async () => {
    const small = await buildDashboard({ store, prices: DASHBOARD_PRICES, timelinePerCase: 2, pageSize: 5 });
    expect(small.timeline.runId).toEqual([
      'run-alpha-cand-a@20260103T000000-4',
      'run-alpha-cand-a@20260103T000000-5',
      'run-beta-cand-a@20260103T000000-4',
      'run-beta-cand-a@20260103T000000-5',
      'run-gamma-cand-a@20260103T000000-4',
      'run-gamma-cand-a@20260103T000000-5',
    ]);
  });

  it('compares each workflow_rev with the one before, with the comparison labels', () => {
    expect(model.revSteps).toHaveLength(1);
    const step = model.revSteps[0]!;
    expect([step.previous, step.rev]).toEqual(['rev-one', 'rev-two']);
    const side = (caseId: string, completed: number, passes: number) => ({ caseId, version: 'v1', hash: `h-${caseId}`, completed, passes, uncounted: {}, meanOverall: null });
    // rev-one: 3 of 4 each; rev-two: alpha 2+3 of 3+4, beta 0+3 of 2+4, gamma 3+3 of 3+4.
    const expected = { alpha: compareCase('alpha', side('alpha', 4, 3), side('alpha', 7, 5)), beta: compareCase('beta', side('beta', 4, 3), side('beta', 6, 3)), gamma: compareCase('gamma', side('gamma', 4, 3), side('gamma', 7, 6)) };
    for (const row of step.cases) {
      const want = expected[row.caseId as keyof typeof expected];
      expect(row.label).toBe(want.label);
      expect(row.difference).toBeCloseTo(want.difference!, 10);
    }
    expect(Object.values(step.labels).reduce((a, b) => a + b, 0)).toBe(3);
    // No batch of the fixture ran until decided: no method note.
    expect(step.notes).toEqual([]);
  });

  it('candidate, model and arm rows', () => {
    const byCandidate = groupRows(model, {}, stats, 'candidate').map((r) => [model.candidates[r.key], r.runs, r.judged, r.passes]);
    expect(byCandidate).toEqual([['cand-a', 27, 20, 14], ['cand-b', 12, 12, 9]]);
    const byModel = groupRows(model, {}, stats, 'model').map((r) => [model.models[r.key], r.runs]);
    expect(byModel).toEqual([['cand-model', 27], ['cand-model-b', 12]]);
    // Arms alternate A, B, A…: B1/B2 per case A pass, B pass, A pass, B fail.
    const byArm = groupRows(model, { rev: 'rev-one' }, stats, 'arm').map((r) => [model.arms[r.key], r.judged, r.passes]);
    expect(byArm).toEqual([['A', 6, 6], ['B', 6, 3]]);
  });

  it('groups the last batch suggestions by tag, with counts', () => {
    expect(model.suggestions.batchId).toBe(DASHBOARD_BATCHES[2]);
    expect(model.suggestions.groups.map((g) => [g.tag, g.count])).toEqual([['workflow', 2], ['eval', 4], ['capability', 3]]);
    expect(model.suggestions.groups[0]!.items[0]).toMatchObject({ text: 'Add a step that runs the tests.', count: 2 });
  });

  it("the last batch's workflow usage, per item", () => {
    expect(model.workflowUsage).toEqual({
      batchId: DASHBOARD_BATCHES[2],
      items: [
        { item: 'rules/testing', kind: 'rule', runs: 2, loaded: { yes: 1, no: 0, unknown: 1 }, invoked: { yes: 0, no: 1, unknown: 1 } },
        { item: 'skills/node-test', kind: 'skill', runs: 2, loaded: { yes: 2, no: 0, unknown: 0 }, invoked: { yes: 2, no: 0, unknown: 0 } },
      ],
    });
  });

  it('edit-prediction batch metrics', () => {
    expect(model.editPrediction).toHaveLength(1);
    const ep = model.editPrediction[0]!;
    expect(ep).toMatchObject({ batch: 0, provider: 'noop', predictions: 2, cursorExactMatch: 0.5 });
    expect(ep.deltaChrF).toBeCloseTo(60, 10);
    expect(ep.exactLinesF1).toBeCloseTo(6 / 9, 10);
  });

  it('every run of the fixture ran contained: no cell or mark counts one uncontained', () => {
    expect(model.cells.uncontained.every((n) => n === 0)).toBe(true);
    expect(model.timeline.uncontained.every((u) => !u)).toBe(true);
    expect(kpisOf(model, {}, stats).last!.uncontained).toBe(0);
  });

  it('an empty store gives an empty model, not an error', async () => {
    const empty = await openStore({});
    try {
      const nothing = await buildDashboard({ store: empty, prices: {} });
      expect(nothing).toMatchObject({ runs: 0, batches: [], editPrediction: [], revSteps: [] });
      expect(kpisOf(nothing, {}, stats)).toEqual({ last: null, previous: null });
    } finally {
      await empty.close();
    }
  });
});

describe('the dashboard model where some runs ran uncontained', () => {
  let store: Store;
  let model: Dashboard;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store);
    await markUncontained(store);
    model = await buildDashboard({ store, prices: DASHBOARD_PRICES, pageSize: 7 });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('counts them per cell, per batch, per filter and per group', () => {
    expect(model.cells.uncontained.reduce((a, b) => a + b, 0)).toBe(3);
    const { last, previous } = kpisOf(model, {}, stats);
    expect(last).toMatchObject({ runs: 15, uncontained: 2 });
    expect(previous!.uncontained).toBe(0);
    expect(kpisOf(model, { case: 'alpha' }, stats).last!.uncontained).toBe(1);
    expect(kpisOf(model, { case: 'gamma' }, stats).last!.uncontained).toBe(0);
    expect(groupRows(model, {}, stats, 'candidate').map((r) => [model.candidates[r.key], r.uncontained])).toEqual([['cand-a', 3], ['cand-b', 0]]);
    expect(groupRows(model, {}, stats, 'rev').map((r) => [model.revs[r.key], r.uncontained])).toEqual([['rev-one', 1], ['rev-two', 2]]);
  });

  it('marks exactly their runs on the timeline', () => {
    const marked = model.timeline.runId.filter((_, i) => model.timeline.uncontained[i]);
    expect(marked.sort()).toEqual([...UNCONTAINED_RUNS].sort());
  });
});
