import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { batchStats, LatestStatsSchema, renderLatest, renderLatestStats } from '../../src/summaries/index.js';
import type { Batch } from '../../src/store/index.js';
import { attempts } from '../support/runWithVerdict.js';

/**
 * An A/B batch of two cases, worked out by hand (python from the formulas, not this code):
 * arm `with` (first) passes c1 4 of 5 and c2 2 of 2; arm `none` (workflow=none) fails c1 5 of 5
 * and passes c2 1 of 2. A pass scores overall 4, a fail 1.5.
 */
const batch: Batch = {
  batch_id: 'batch-20260101T000000-aaaaaa',
  status: 'completed',
  spec: { arms: [{ name: 'with', change: 'base' }, { name: 'none', change: 'workflow=none' }] },
  counts: {},
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
// The runs are listed with the `none` arm first: the arm order comes from the batch, not from the runs.
const entries = [
  ...attempts('c1', ['fail', 'fail', 'fail', 'fail', 'fail'], { arm: 'none', workflow_rev: 'none', spec: { noWorkflow: true } }),
  ...attempts('c2', ['pass', 'fail'], { arm: 'none', workflow_rev: 'none', spec: { noWorkflow: true } }),
  ...attempts('c1', ['pass', 'pass', 'pass', 'pass', 'fail'], { arm: 'with' }),
  ...attempts('c2', ['pass', 'pass'], { arm: 'with' }),
];

describe('latest-stats.yaml of an A/B batch', () => {
  const text = renderLatestStats(batchStats(batch, entries, {}));
  const file = LatestStatsSchema.parse(parseYaml(text));

  it('has one entry per arm, the baseline (the arm without the workflow) first, and no pooled numbers', () => {
    expect(Object.keys(file.arms!)).toEqual(['none', 'with']);
    expect(file.overall).toBeUndefined();
    expect(file.cases).toBeUndefined();
    expect(file.arms!.none!.change).toBe('workflow=none');
    expect(file.bootstrap).toEqual({ seed: 20261201, resamples: 2000, confidence: 0.95 });
  });

  it('gives each arm its Wilson interval, pass^k and pass@k', () => {
    const withArm = file.arms!.with!;
    // 6 of 7: Wilson 0.4869–0.9743.
    expect(withArm.overall).toMatchObject({ runs: 7, completed: 7, passes: 6, pass_rate: { rate: 0.8571, low: 0.4869, high: 0.9743 } });
    // pass^k: c1 C(4,k)/C(5,k), c2 C(2,k)/C(2,k), averaged over the cases with k runs: k=1 (0.8+1)/2, k=2 (0.6+1)/2, then c1 alone.
    expect(withArm.overall.pass_hat_k).toEqual({ 1: 0.9, 2: 0.8, 3: 0.4, 4: 0.2, 5: 0 });
    // pass@k: 1 − C(n−c,k)/C(n,k): c1 0.8 at k=1 and 1 from k=2 (only one fail), c2 always 1.
    expect(withArm.overall.pass_at_k).toEqual({ 1: 0.9, 2: 1, 3: 1, 4: 1, 5: 1 });
    expect(withArm.cases.c1).toMatchObject({ pass_rate: { rate: 0.8, low: 0.3755, high: 0.9638 }, pass_hat_k: { 2: 0.6, 3: 0.4 }, pass_at_k: { 2: 1 } });
    const none = file.arms!.none!;
    // 1 of 7: Wilson 0.0257–0.5131; c1 0/5 (0–0.4345), c2 1/2 (0.0945–0.9055).
    expect(none.overall).toMatchObject({ completed: 7, passes: 1, pass_rate: { rate: 0.1429, low: 0.0257, high: 0.5131 } });
    expect(none.overall.pass_hat_k).toEqual({ 1: 0.25, 2: 0, 3: 0, 4: 0, 5: 0 });
    // pass@2: c1 0, c2 1 − C(1,2)/C(2,2) = 1.
    expect(none.overall.pass_at_k).toEqual({ 1: 0.25, 2: 0.5, 3: 0, 4: 0, 5: 0 });
    expect(none.cases.c1!.pass_rate).toEqual({ rate: 0, low: 0, high: 0.4345 });
    expect(none.cases.c2!.pass_rate).toEqual({ rate: 0.5, low: 0.0945, high: 0.9055 });
  });

  it('gives the mean scores seeded bootstrap intervals', () => {
    // c1 of `with`: 4, 4, 4, 4, 1.5. A resample holds k copies of 1.5 with k ~ Bin(5, 0.2):
    // P(k ≥ 4) = 0.7% < 2.5% < P(k ≥ 3) = 5.8%, so the 2.5th percentile is (2·4 + 3·1.5)/5 = 2.5;
    // P(k = 0) = 33% > 2.5%, so the 97.5th is 4.
    expect(file.arms!.with!.cases.c1!.mean_interval.overall).toEqual({ mean: 3.5, low: 2.5, high: 4, n: 5 });
    // The arm: six 4s and one 1.5, k ~ Bin(7, 1/7): P(k ≥ 4) = 1.0% < 2.5% < P(k ≥ 3) = 6.5%: low (4·4 + 3·1.5)/7.
    expect(file.arms!.with!.overall.mean_interval.overall).toEqual({ mean: 3.6429, low: 2.9286, high: 4, n: 7 });
    // `none`: six 1.5s and one 4, mirrored: high (3·4 + 4·1.5)/7.
    expect(file.arms!.none!.overall.mean_interval.overall).toEqual({ mean: 1.8571, low: 1.5, high: 2.5714, n: 7 });
    // Every run of c1 without the workflow scores the same: no spread.
    expect(file.arms!.none!.cases.c1!.mean_interval.overall).toEqual({ mean: 1.5, low: 1.5, high: 1.5, n: 5 });
    // The same seed gives the same bytes.
    expect(renderLatestStats(batchStats(batch, entries, {}))).toBe(text);
  });

  it('compares every arm with the baseline, in that one direction, case by case', () => {
    expect(file.arms!.none!.versus_first).toBeUndefined();
    const versus = file.arms!.with!.versus_first!;
    expect(versus.arm).toBe('none');
    // c1: 4/5 − 0/5, Fisher p = 2·5/210, Newcombe from the two Wilson intervals.
    expect(versus.cases.c1).toEqual({ label: 'improvement', difference: 0.8, low: 0.1926, high: 0.9638, p: 0.0476, detectable: 0.8 });
    // c2: 2/2 − 1/2: two runs an arm can show nothing at p < 0.05.
    expect(versus.cases.c2).toEqual({ label: 'insufficient_data', difference: 0.5, low: -0.2726, high: 0.9055, p: 1, detectable: null });
    expect(versus.labels).toEqual({ regression: 0, improvement: 1, no_change: 0, insufficient_data: 1, not_comparable: 0 });
    // The bank: 0.8 and 0.5 resampled; each extreme has probability 1/4.
    expect(versus.mean_difference).toEqual({ mean: 0.65, low: 0.5, high: 0.8, n: 2 });
    // Paired by case and attempt: 5 pass with the workflow alone (c1 1–4, c2 2), none without: p = 2/2^5.
    expect(versus.mcnemar).toEqual({ pairs: 7, only_first: 0, only_this: 5, p: 0.0625 });
  });

  it('latest.md shows the arms side by side and each difference once, regressions first', () => {
    const latest = renderLatest(batch, batchStats(batch, entries, {}), entries, '/summaries');
    expect(latest).toContain('| with | base | 86% (49%–97%), 6 of 7 | pass^2 0.80 (pass@2 1.00)');
    expect(latest).toContain('| none | workflow=none | 14% (3%–51%), 1 of 7 |');
    expect(latest).toContain('**with against none**: 1 improvement, 1 insufficient_data; mean difference +65 points (95% bootstrap +50…+80) over 2 comparable case(s)');
    expect(latest).toContain('1 case(s) are insufficient_data');
    const rows = latest.split('\n').filter((line) => /^\| c\d /.test(line));
    expect(rows[0]).toMatch(/^\| c1 \| fail fail fail fail fail · 0% \(0%–43%\) \| pass pass pass pass fail · 80% \(38%–96%\) \| \+80 \(\+19…\+96\) \| improvement, p=0\.048 \|/);
    expect(rows[1]).toMatch(/^\| c2 \| .* \| \+50 \(−27…\+91\) \| insufficient_data, p=1\.000 \|/);
    // No pooled pass rate of both arms, and no comparison the other way.
    expect(latest).not.toContain('Pass rate 50%');
    expect(latest).not.toContain('none against with');
    expect(latest).not.toContain('−80');
  });
});

describe('latest-stats.yaml of a one-arm batch', () => {
  it('keeps the pooled overall and cases, with pass@k and the bootstrap intervals', () => {
    const plain = [...attempts('c1', ['pass', 'fail', 'pass']), ...attempts('c2', ['fail'])];
    const file = LatestStatsSchema.parse(parseYaml(renderLatestStats(batchStats({ ...batch, spec: {} }, plain, {}))));
    expect(file.arms).toBeUndefined();
    // c1 2 of 3: pass^2 C(2,2)/C(3,2) = 1/3, pass@2 1 − C(1,2)/C(3,2) = 1.
    expect(file.cases!.c1).toMatchObject({ pass_hat_k: { 1: 0.6667, 2: 0.3333, 3: 0 }, pass_at_k: { 1: 0.6667, 2: 1, 3: 1 } });
    expect(file.overall).toMatchObject({ runs: 4, completed: 4, passes: 2, pass_hat_k: { 1: 0.3333 } });
    expect(file.cases!.c2!.mean_interval.overall).toEqual({ mean: 1.5, low: 1.5, high: 1.5, n: 1 });
  });
});
