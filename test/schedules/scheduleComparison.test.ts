import { describe, expect, it } from 'vitest';
import type { Run, RunWithVerdict } from '../../src/store/index.js';
import { compareScheduled } from '../../src/schedules/scheduleComparison.js';
import { headlineOf, reportMarkdown, ScheduleReportSchema, verdictOf, type ScheduleReport } from '../../src/schedules/scheduleReport.js';
import { compareSides } from '../../src/summaries/comparison.js';
import { attempts } from '../support/runWithVerdict.js';

type Outcome = 'pass' | 'fail' | Run['status'];
const PASS5: Outcome[] = ['pass', 'pass', 'pass', 'pass', 'pass'];
const FAIL5: Outcome[] = ['fail', 'fail', 'fail', 'fail', 'fail'];
const SPEC = {
  arms: [
    { name: 'with_workflow', change: 'base' },
    { name: 'no_workflow', change: 'workflow=none' },
  ],
};

function runs(batchId: string, byArm: Record<string, Outcome[]>): RunWithVerdict[] {
  return Object.entries(byArm).flatMap(([arm, outcomes]) => attempts('c1', outcomes, { arm: arm === '-' ? null : arm, batch_id: batchId }));
}

/**
 * Last night with_workflow failed c1 and no_workflow passed it; tonight the reverse. Pooled,
 * both nights are 5 of 10 and nothing changed; like for like, no_workflow regressed and
 * with_workflow improved.
 */
describe('a schedule with arms compares like arms across batches', () => {
  const then = runs('batch-prev', { with_workflow: FAIL5, no_workflow: PASS5 });
  const now = runs('batch-now', { with_workflow: PASS5, no_workflow: FAIL5 });

  it('arm X of the previous batch with arm X now, where the pool sees no change', () => {
    // What the pooled comparison said: nothing.
    expect(compareSides({ label: 'then', entries: then }, { label: 'now', entries: now }).labels.regression).toBe(0);
    const { comparison, problems } = compareScheduled('batch-prev', then, { batchId: 'batch-now', batch: { spec: SPEC }, entries: now });
    expect(problems).toEqual([]);
    expect(comparison).toEqual({
      against: 'batch-prev',
      pass_rate_then: null,
      pass_rate_now: null,
      regressions: ['no_workflow:c1'],
      improvements: ['with_workflow:c1'],
      not_comparable: [],
      arms: [
        { arm: 'no_workflow', pass_rate_then: 1, pass_rate_now: 0, regressions: ['c1'], improvements: [], not_comparable: [] },
        { arm: 'with_workflow', pass_rate_then: 0, pass_rate_now: 1, regressions: [], improvements: ['c1'], not_comparable: [] },
      ],
    });
    expect(verdictOf('completed', { finished: 10, passed: 5, failed: 5, completed: 10 }, [comparison])).toBe('regression');
    const partial: Omit<ScheduleReport, 'headline'> = {
      schedule: 'nightly',
      batch_id: 'batch-now',
      scheduled_at: '2026-01-02T02:00:00Z',
      workflow_rev: null,
      status: 'completed',
      verdict: 'regression',
      counts: { finished: 10, passed: 5, failed: 5 },
      previous: comparison,
      baseline: null,
      problems,
    };
    const report = ScheduleReportSchema.parse({ ...partial, headline: headlineOf(partial) });
    expect(report.headline).toBe(
      'schedule nightly, batch batch-now REGRESSED: 5 pass, 5 fail of 10; previous batch-prev: no_workflow 100% → 0%, with_workflow 0% → 100%, regressed: no_workflow:c1; no baseline to compare with',
    );
    expect(reportMarkdown(report)).toContain('- pass rate: no_workflow 100% → 0%, with_workflow 0% → 100%\n- regressed: no_workflow:c1\n- improved: with_workflow:c1');
  });

  it('never compares an arm with another arm or with a pool: what it cannot match it says', () => {
    const renamed = runs('batch-prev', { with_workflow: PASS5, other: PASS5 });
    const partial = compareScheduled('batch-prev', renamed, { batchId: 'batch-now', batch: { spec: SPEC }, entries: now });
    expect(partial.comparison!.arms!.map((a) => a.arm)).toEqual(['with_workflow']);
    expect(partial.problems).toEqual(['no comparison of arm no_workflow with batch-prev: it has no arm no_workflow (its arms: with_workflow, other)']);

    const plain = runs('batch-plain', { '-': PASS5 });
    const none = compareScheduled('batch-plain', plain, { batchId: 'batch-now', batch: { spec: SPEC }, entries: now });
    expect(none.comparison).toBeNull();
    expect(none.problems).toHaveLength(2);
    expect(none.problems[0]).toBe('no comparison of arm no_workflow with batch-plain: it has no arm no_workflow (it ran without arms)');

    const reverse = compareScheduled('batch-prev', then, { batchId: 'batch-plain', batch: { spec: {} }, entries: plain });
    expect(reverse).toEqual({ comparison: null, problems: ['no comparison with batch-prev: it ran arms (with_workflow, no_workflow) and batch-plain none; arms are never pooled'] });
  });

  it('compares one-arm batches whole, as before', () => {
    const { comparison, problems } = compareScheduled('batch-a', runs('batch-a', { '-': PASS5 }), { batchId: 'batch-b', batch: { spec: {} }, entries: runs('batch-b', { '-': FAIL5 }) });
    expect(problems).toEqual([]);
    expect(comparison).toEqual({ against: 'batch-a', pass_rate_then: 1, pass_rate_now: 0, regressions: ['c1'], improvements: [], not_comparable: [] });
  });
});
