import { describe, expect, it } from 'vitest';
import type { BatchDecision, RunWithVerdict } from '../../src/store/index.js';
import { batchStats, compareSides, sideDecisions, withDecisions } from '../../src/summaries/index.js';
import { attempts } from '../support/runWithVerdict.js';

const BATCH = 'batch-20260101T000000-aaaaaa';
const P = 'pass' as const;
const F = 'fail' as const;

/** base passes `drifts` 12 of 12, new 7 of 12: Fisher's test calls it a regression; the sequential test stopped it undecided. */
const entries: RunWithVerdict[] = [
  ...attempts('drifts', Array(12).fill(P), { arm: 'base', batch_id: BATCH }),
  ...attempts('drifts', [P, F, P, F, P, F, P, F, P, F, P, P], { arm: 'new', batch_id: BATCH }),
];
const drifts: BatchDecision = {
  case_id: 'drifts', arm_a: 'base', arm_b: 'new', label: 'insufficient_data', stopped_by: 'limit', why: 'reached the limit of 12 pairs with e = 7.0',
  runs_a_side: 12, pairs: 12, both_passed: 7, only_a: 5, only_b: 0, evidence: 7, difference: -5 / 12, low: -0.66, high: -0.12, alpha: 0.05, max_runs_per_case: 12,
};
const sides = { a: { label: 'base', entries: entries.filter((e) => e.run.arm === 'base') }, b: { label: 'new', entries: entries.filter((e) => e.run.arm === 'new') } };

describe('a comparison labelled by the sequential test', () => {
  it("replaces Fisher's label, p and McNemar with the stored decision", () => {
    const fisher = compareSides(sides.a, sides.b);
    expect(fisher.cases[0]!.label).toBe('regression');
    const decided = withDecisions(fisher, sideDecisions(BATCH, [drifts], 'base', 'new')!);
    expect(decided.sequential).toEqual({ alpha: 0.05, maxRunsPerCase: 12 });
    expect(decided.cases[0]).toMatchObject({ label: 'insufficient_data', p: null, detectable: null, difference: -5 / 12, differenceInterval: { low: -0.66, high: -0.12 }, decision: { stoppedBy: 'limit', runsASide: 12 } });
    expect(decided.labels).toMatchObject({ regression: 0, insufficient_data: 1 });
    expect(decided.mcnemar).toBeNull();
  });

  it('reads the decisions only for the two arms of their batch, either way round', () => {
    expect(sideDecisions(BATCH, [drifts], 'base', 'other')).toBeNull();
    expect(sideDecisions(BATCH, [], 'base', 'new')).toBeNull();
    const turned = sideDecisions(BATCH, [{ ...drifts, label: 'regression' }], 'new', 'base')!.decisions[0]!;
    expect(turned).toMatchObject({ label: 'improvement', only_a: 0, only_b: 5, difference: 5 / 12, low: 0.12, high: 0.66 });
  });

  it('gives latest-stats the same labels, saying the method', () => {
    const spec = { arms: [{ name: 'base', change: 'base' }, { name: 'new', change: 'model=x' }] };
    const fisher = batchStats({ batch_id: BATCH, spec }, entries, {});
    expect(fisher.arms[1]!.versusFirst!.cases[0]!.label).toBe('regression');
    const decided = batchStats({ batch_id: BATCH, spec }, entries, {}, [], [drifts]);
    expect(decided.arms[1]!.versusFirst!.cases[0]!.label).toBe('insufficient_data');
    expect(decided.arms[1]!.versusFirst!.sequential).toEqual({ alpha: 0.05, maxRunsPerCase: 12 });
  });
});
