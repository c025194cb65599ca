import { describe, expect, it } from 'vitest';
import type { Run, RunWithVerdict } from '../../src/store/index.js';
import { caseStability, compareSides, comparisonLines, comparisonMarkdown, evaluateGate, groupStats, parseGate, renderJunit, revHistory } from '../../src/summaries/index.js';
import { compareExitCode } from '../../src/commands/compare.js';
import { snakeCaseKeys } from '../../src/cli/snakeCaseJson.js';
import { aRunWithVerdict } from '../support/runWithVerdict.js';

/**
 * The shared builder, with what these tests read besides: why a run that was not judged
 * stopped, and a failure at overall 1 whose review needs escaping in JUnit.
 */
function aRun(caseId: string, outcome: 'pass' | 'fail' | Run['status'], overrides: Partial<Run> = {}): RunWithVerdict {
  const judged = outcome === 'pass' || outcome === 'fail';
  const stopped = judged ? {} : { error: 'the examiner endpoint was down' };
  const failed = outcome === 'fail' ? { overall: 1 } : {};
  return aRunWithVerdict(caseId, outcome, { batch_id: 'b', ...stopped, ...failed, ...overrides }, outcome === 'fail' ? { summary: 'It broke the <tests> & "did not" notice.' } : {});
}
const many = (caseId: string, outcomes: ('pass' | 'fail' | Run['status'])[], overrides: Partial<Run> = {}) => outcomes.map((o, i) => aRun(caseId, o, { attempt_index: i + 1, ...overrides }));

describe('compareSides', () => {
  const a = [...many('breaks', ['pass', 'pass', 'pass', 'pass', 'pass']), ...many('same', ['pass', 'fail', 'pass', 'pass', 'fail']), ...many('few', ['pass', 'pass']), ...many('gone', ['pass', 'pass', 'pass', 'pass'])];
  const b = [...many('breaks', ['fail', 'fail', 'fail', 'fail', 'fail']), ...many('same', ['pass', 'pass', 'fail', 'pass', 'infra_error']), ...many('few', ['fail', 'fail']), ...many('new', ['pass'])];

  it('labels each case and lists regressions first, with both sides\' reviews', () => {
    const comparison = compareSides({ label: 'A', entries: a }, { label: 'B', entries: b }, { seed: 1 });
    expect(comparison.cases.map((c) => [c.caseId, c.label])).toEqual([
      ['breaks', 'regression'],
      ['same', 'no_change'],
      ['few', 'insufficient_data'],
      ['gone', 'not_comparable'],
      ['new', 'not_comparable'],
    ]);
    const breaks = comparison.cases[0]!;
    expect(breaks).toMatchObject({ difference: -1, p: expect.closeTo(2 / 252, 10), meanOverallA: 4, meanOverallB: 1 });
    expect(breaks.reviewsA).toHaveLength(5);
    expect(breaks.reviewsB).toHaveLength(5);
    // Newcombe's interval of −1 from Wilson 5/5 and 0/5 stays inside [−1, 0).
    expect(breaks.differenceInterval!.low).toBeGreaterThanOrEqual(-1);
    expect(breaks.differenceInterval!.high).toBeLessThan(0);
    // An infra_error never enters a rate: B's "same" has 4 judged runs, 3 passing.
    expect(comparison.cases[1]!.b).toMatchObject({ completed: 4, passes: 3, uncounted: { infra_error: 1 } });
    expect(comparison.b.uncounted).toEqual({ infra_error: 1 });
    expect(comparison.labels).toMatchObject({ regression: 1, no_change: 1, insufficient_data: 1, not_comparable: 2 });
    // Paired over the 3 comparable cases; McNemar over the 12 runs that pair by attempt index.
    expect(comparison.difference!.n).toBe(3);
    expect(comparison.mcnemar).toMatchObject({ pairs: 11, onlyA: 8 });
  });

  it('exits 1 on a regression beyond the tolerance, 0 within it, 3 when nothing compares', () => {
    const comparison = compareSides({ label: 'A', entries: a }, { label: 'B', entries: b });
    expect(compareExitCode(comparison.cases, 0)).toBe(1);
    expect(compareExitCode(comparison.cases, 1)).toBe(0);
    const none = compareSides({ label: 'A', entries: many('x', ['pass']) }, { label: 'B', entries: many('y', ['pass']) });
    expect(compareExitCode(none.cases, 0)).toBe(3);
  });

  it('calls a case not comparable when the sides ran different versions of it', () => {
    const changed = compareSides({ label: 'A', entries: many('c', ['pass', 'pass', 'pass', 'pass']) }, { label: 'B', entries: many('c', ['fail', 'fail', 'fail', 'fail'], { case_hash: 'edited' }) });
    expect(changed.cases[0]).toMatchObject({ label: 'not_comparable', reason: expect.stringContaining('the case changed between the sides') });
  });

  it('marks the side whose runs ran uncontained, in the terminal and in Markdown, and not the contained one', () => {
    const contained = { config: { candidate: { isolation: 'sandbox' } } };
    const sideA = many('c', ['pass', 'pass', 'pass'], contained);
    // One said `none`; one is of an earlier version that recorded nothing (it ran uncontained).
    const sideB = [...many('c', ['pass', 'fail'], contained), aRun('c', 'fail', { spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'none' } } }), aRun('c', 'pass')];
    const comparison = compareSides({ label: 'batch-a', entries: sideA }, { label: 'batch-b', entries: sideB });
    expect(comparison.a.uncontained).toBe(0);
    expect(comparison.b.uncontained).toBe(2);
    const [lineA, lineB] = comparisonLines(comparison, '/');
    expect(lineA).not.toContain('uncontained');
    expect(lineB).toMatch(/^B: batch-b: 4 run\(s\), .*; uncontained: 2 of 4 runs \(isolation: none\)$/);
    const markdown = comparisonMarkdown('compare', comparison, '/');
    expect(markdown).toContain('- B: batch-b: 4 run(s)');
    expect(markdown.match(/uncontained: 2 of 4 runs \(isolation: none\)/g)).toHaveLength(1);
  });
});

describe('caseStability', () => {
  it('tells a flaky judge from a flaky agent with repeated judgings', () => {
    const agent = many('agent', ['pass', 'fail', 'pass']);
    const judge = many('judge', ['pass', 'pass']);
    const stable = many('stable', ['fail', 'fail']);
    const judgings = [
      ...agent.flatMap((e) => [e, e].map(() => ({ run_id: e.run.run_id, result: e.verdict!.result }))),
      { run_id: judge[0]!.run.run_id, result: 'pass' as const },
      { run_id: judge[0]!.run.run_id, result: 'fail' as const },
      { run_id: judge[1]!.run.run_id, result: 'pass' as const },
    ];
    const once = many('once', ['pass']);
    const onceTwice = many('twice', ['pass']);
    judgings.push({ run_id: onceTwice[0]!.run.run_id, result: 'pass' }, { run_id: onceTwice[0]!.run.run_id, result: 'pass' });
    expect(caseStability([...agent, ...judge, ...stable, ...many('flaky', ['pass', 'fail']), ...many('none', ['infra_error']), ...once, ...onceTwice], judgings)).toEqual({
      agent: 'flaky_agent',
      judge: 'flaky_judge',
      stable: 'stable_fail',
      flaky: 'flaky',
      none: 'unknown',
      // One verdict shows no repeat; the same transcript judged twice alike does.
      once: 'unknown',
      twice: 'stable_pass',
    });
  });
});

describe('the gate', () => {
  const entries = [...many('a', ['pass', 'pass', 'pass', 'fail']), ...many('b', ['pass', 'infra_error'])];

  it('reads conditions and evaluates them on the judged runs only', () => {
    const conditions = parseGate('pass_rate>=0.8, overall>2,completed>=5');
    const results = evaluateGate(conditions, groupStats(entries, {}));
    expect(results.map((r) => [r.condition.text, r.met])).toEqual([
      ['pass_rate>=0.8', true],
      ['overall>2', true],
      ['completed>=5', true],
    ]);
    expect(evaluateGate(parseGate('pass_rate_low>=0.5'), groupStats(entries, {}))[0]!.met).toBe(false);
    // Nothing judged: a condition never holds.
    expect(evaluateGate(parseGate('pass_rate>=0'), groupStats(many('c', ['infra_error']), {}))[0]).toMatchObject({ value: null, met: false });
  });

  it('refuses a condition it cannot read, saying what it expects', () => {
    expect(() => parseGate('passrate>=0.8')).toThrow("--gate 'passrate>=0.8': expected METRIC OP NUMBER with METRIC one of pass_rate, pass_rate_low, overall, compliance, execution_quality, completed");
    expect(() => parseGate('pass_rate=0.8')).toThrow(/expected METRIC OP NUMBER/);
  });
});

describe('renderJunit', () => {
  it('makes one testcase per run: fail → failure, aborted → skipped, ours → error, escaped', () => {
    const xml = renderJunit('batch-x', [...many('c', ['pass', 'fail']), aRun('c', 'aborted', { error: 'hard precondition failed: no node' }), aRun('c', 'infra_error'), aRun('c', 'judge_failed')]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="evalflow" tests="5" failures="1" errors="2" skipped="1">/);
    expect(xml).toContain('<failure message="It broke the &lt;tests&gt; &amp; &quot;did not&quot; notice." type="fail">');
    expect(xml).toContain('<skipped message="hard precondition failed: no node"/>');
    expect(xml).toContain('type="infra_error"');
    expect(xml).toContain('type="judge_failed"');
    expect(xml).toContain('time="2.500"');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(5);
    expect(xml.trim().endsWith('</testsuites>')).toBe(true);
  });
});

describe('revHistory', () => {
  it('goes rev by rev in time order, with the change from the rev before', () => {
    const rows = revHistory([...many('c', ['pass', 'pass', 'pass', 'pass'], { workflow_rev: 'old' }), ...many('c', ['fail', 'fail', 'fail', 'fail'], { workflow_rev: 'new' })]);
    expect(rows.map((r) => [r.workflowRev, r.judged, r.rate?.rate])).toEqual([
      ['old', 4, 1],
      ['new', 4, 0],
    ]);
    expect(rows[0]!.versusPrevious).toBeNull();
    expect(rows[1]!.versusPrevious).toEqual({ difference: -1, regressions: 1, improvements: 0 });
  });

  it('leaves out the runs of a workflow=none arm: they are no revision, let alone the one after', () => {
    // The demo's A/B batch: with the workflow at b37a78dc, then the same cases without any (its rev reads `none`).
    const withWorkflow = many('fix-slug-dashes', ['pass'], { workflow_rev: 'b37a78dc', arm: 'with_workflow' });
    const without = many('fix-slug-dashes', ['fail'], { workflow_rev: 'none', arm: 'no_workflow', spec: { noWorkflow: true } });
    const rows = revHistory([...withWorkflow, ...without]);
    expect(rows.map((r) => [r.workflowRev, r.judged, r.rate?.rate, r.versusPrevious])).toEqual([['b37a78dc', 1, 1, null]]);
    // A later revision is compared with b37a78dc, not with the arm that ran without a workflow.
    const later = many('fix-slug-dashes', ['fail'], { workflow_rev: 'c0ffee11', created_at: '2026-01-02T00:00:00.000Z' });
    const next = revHistory([...withWorkflow, ...without, ...later]);
    expect(next.map((r) => r.workflowRev)).toEqual(['b37a78dc', 'c0ffee11']);
    expect(next[1]!.versusPrevious).toMatchObject({ difference: -1 });
  });
});

describe('compare --json', () => {
  it('has only snake_case keys, as the files do', () => {
    const a = { label: 'A', entries: [...many('c1', ['pass', 'pass', 'fail']), ...many('c2', ['pass', 'infra_error'])] };
    const b = { label: 'B', entries: [...many('c1', ['fail', 'fail', 'fail']), ...many('c2', ['pass', 'pass'])] };
    const keys: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          keys.push(key);
          walk(inner);
        }
      }
    };
    walk(snakeCaseKeys(compareSides(a, b)));
    expect(keys).toContain('mean_overall_a');
    expect(keys).toContain('difference_interval');
    expect(keys.filter((key) => /[A-Z]/.test(key))).toEqual([]);
  });
});
