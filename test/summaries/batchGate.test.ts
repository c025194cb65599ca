import { describe, expect, it } from 'vitest';
import type { Run, RunWithVerdict } from '../../src/store/index.js';
import { armGroups } from '../../src/summaries/armGroups.js';
import { evaluateBatchGate, type BatchGateInput } from '../../src/summaries/batchGate.js';
import { evaluateGate, groupStats, parseGate, renderJunit } from '../../src/summaries/index.js';
import { attempts } from '../support/runWithVerdict.js';

type Outcome = 'pass' | 'fail' | Run['status'];
const PASS5: Outcome[] = ['pass', 'pass', 'pass', 'pass', 'pass'];
const FAIL5: Outcome[] = ['fail', 'fail', 'fail', 'fail', 'fail'];

/** The runs of one arm: per case its outcomes, attempt 1, 2, … */
function arm(name: string, cases: Record<string, Outcome[]>, batchId = 'batch-20260101T000000-aaaaaa'): RunWithVerdict[] {
  return Object.entries(cases).flatMap(([caseId, outcomes]) => attempts(caseId, outcomes, { arm: name, batch_id: batchId }));
}

function gateOf(spec: { name: string; change: string }[], entries: RunWithVerdict[], gate: string, more: Partial<BatchGateInput> = {}) {
  return evaluateBatchGate({ conditions: parseGate(gate), entries, arms: armGroups({ spec: { arms: spec } }, entries), prices: {}, ...more });
}

const line = (c: { arm: string | null; met: boolean; name: string }) => `${c.arm ?? '-'} ${c.met ? 'met' : 'FAILED'} ${c.name}`;

describe('the gate of an A/B batch is per arm, never pooled', () => {
  // The PR gate of docs/comparing.md: main (the baseline arm, first) against pr.
  const spec = [
    { name: 'main', change: 'workflow_rev=origin/main' },
    { name: 'pr', change: 'base' },
  ];

  it('fails the treated arm that regresses though the pooled pass rate meets the gate', () => {
    const entries = [...arm('main', { c1: PASS5, c2: PASS5 }), ...arm('pr', { c1: PASS5, c2: FAIL5 })];
    // Pooled, 15 of 20 pass: the old gate said met.
    expect(evaluateGate(parseGate('pass_rate>=0.7'), groupStats(entries, {}))[0]!.met).toBe(true);
    const gate = gateOf(spec, entries, 'pass_rate>=0.7');
    expect(gate.outcome).toBe('failed');
    expect(gate.checks.map(line)).toEqual(['pr FAILED pass_rate>=0.7', 'pr FAILED no regression against the baseline arm main']);
    expect(gate.checks[0]!.detail).toBe('0.5');
    expect(gate.checks[1]!.detail).toBe('1 case(s) regressed: c2');
    expect(gate.notes).toEqual(['arm main is the baseline arm: the reference the other arms are measured against, not gated (pass_rate 1)']);
  });

  it('meets the gate when the treated arm does, though the pooled rate (dragged down by the no-workflow baseline) would not', () => {
    // with_workflow is given first, but the arm without a workflow is the baseline.
    const ab = [
      { name: 'with_workflow', change: 'base' },
      { name: 'no_workflow', change: 'workflow=none' },
    ];
    const entries = [...arm('with_workflow', { c1: PASS5, c2: PASS5 }), ...arm('no_workflow', { c1: ['pass', 'fail', 'fail', 'fail', 'fail'], c2: ['pass', 'pass', 'fail', 'fail', 'fail'] })];
    expect(evaluateGate(parseGate('pass_rate>=0.8'), groupStats(entries, {}))[0]!.met).toBe(false);
    const gate = gateOf(ab, entries, 'pass_rate>=0.8');
    expect(gate.outcome).toBe('met');
    expect(gate.checks.map(line)).toEqual(['with_workflow met pass_rate>=0.8', 'with_workflow met no regression against the baseline arm no_workflow']);
    expect(gate.notes[0]).toBe('arm no_workflow is the baseline arm: the reference the other arms are measured against, not gated (pass_rate 0.3)');
  });

  it('compares with --baseline like for like: arm pr then against arm pr now', () => {
    const then = [...arm('main', { c1: PASS5 }, 'batch-prev'), ...arm('pr', { c1: PASS5 }, 'batch-prev')];
    // Both arms broke alike: nothing regressed against main, but pr regressed against the pr of before.
    const entries = [...arm('main', { c1: FAIL5 }), ...arm('pr', { c1: FAIL5 })];
    const gate = gateOf(spec, entries, 'completed>=5', { baseline: { label: 'batch-prev', entries: then } });
    expect(gate.checks.map(line)).toEqual(['pr met completed>=5', 'pr met no regression against the baseline arm main', 'pr FAILED no regression against batch-prev:pr']);
    expect(gate.checks[2]!.comparison!.a.passes).toBe(5);
    expect(gate.outcome).toBe('failed');
    // A baseline whose arms are others is not compared with a pool of them.
    const other = [...arm('x', { c1: PASS5 }, 'batch-other'), ...arm('y', { c1: PASS5 }, 'batch-other')];
    const missing = gateOf(spec, [...arm('main', { c1: PASS5 }), ...arm('pr', { c1: PASS5 })], 'completed>=5', { baseline: { label: 'batch-other', entries: other } });
    expect(missing.checks.at(-1)).toMatchObject({ arm: 'pr', met: false, detail: 'batch-other has no arm pr (its arms: x, y); arms are only compared like for like' });
    // One group (a batch without arms, or batch:ARM) is the reference of every treated arm.
    const single = gateOf(spec, [...arm('main', { c1: PASS5 }), ...arm('pr', { c1: FAIL5 })], 'completed>=5', { baseline: { label: 'batch-one', entries: attempts('c1', PASS5) } });
    expect(single.checks.map(line)).toContain('pr FAILED no regression against batch-one');
  });

  it('an arm that judged nothing is an infrastructure failure naming the arm; a one-arm batch against a two-arm baseline is refused', () => {
    const gate = gateOf(spec, [...arm('main', { c1: PASS5 }), ...arm('pr', { c1: ['infra_error', 'infra_error'] })], 'pass_rate>=0.5');
    expect(gate.outcome).toBe('infrastructure');
    expect(gate.checks).toEqual([expect.objectContaining({ arm: 'pr', detail: 'arm pr measured nothing (0 of 2 runs judged)', infrastructure: true })]);

    // An arm the batch was started with but that recorded no run is not lost: it measured nothing.
    const silent = gateOf(spec, arm('main', { c1: PASS5 }), 'pass_rate>=0.5');
    expect(silent.outcome).toBe('infrastructure');
    expect(silent.checks.map((c) => c.detail)).toEqual(['arm pr measured nothing (0 of 0 runs judged)']);
    // A batch of one arm has no reference in it: that arm is gated, not passed vacuously.
    const alone = gateOf([{ name: 'only', change: 'base' }], arm('only', { c1: FAIL5 }), 'pass_rate>=0.5');
    expect(alone.checks.map(line)).toEqual(['only FAILED pass_rate>=0.5']);

    const two = [...arm('main', { c1: PASS5 }, 'batch-ab'), ...arm('pr', { c1: PASS5 }, 'batch-ab')];
    const plain = evaluateBatchGate({ conditions: parseGate('pass_rate>=0.5'), entries: attempts('c1', PASS5), arms: [], prices: {}, baseline: { label: 'batch-ab', entries: two } });
    expect(plain.checks.map(line)).toEqual(['- met pass_rate>=0.5', '- FAILED no regression against batch-ab']);
    expect(plain.checks[1]!.detail).toBe('batch-ab ran arms main, pr: name the one to compare with (--baseline batch-ab:main)');
  });

  it('keeps pooled numbers for a batch without arms', () => {
    const entries = [...attempts('c1', PASS5), ...attempts('c2', ['pass', 'pass', 'pass', 'fail', 'fail'])];
    const gate = evaluateBatchGate({ conditions: parseGate('pass_rate>=0.8'), entries, arms: [], prices: {} });
    expect(gate.checks.map((c) => [line(c), c.detail])).toEqual([['- met pass_rate>=0.8', '0.8']]);
    expect(gate.outcome).toBe('met');
  });
});

describe('JUnit of an A/B batch', () => {
  it('has one suite per arm, classnames ARM.CASE, and the gate checks as testcases named by arm', () => {
    const spec = [
      { name: 'main', change: 'workflow_rev=origin/main' },
      { name: 'pr', change: 'base' },
    ];
    const entries = [...arm('main', { c1: PASS5, c2: PASS5 }), ...arm('pr', { c1: PASS5, c2: FAIL5 })];
    const gate = gateOf(spec, entries, 'pass_rate>=0.7');
    const xml = renderJunit('batch-x', entries, null, { arms: ['main', 'pr'], gate: gate.checks });
    expect(xml).toContain('<testsuites name="evalflow" tests="22" failures="7" errors="0" skipped="0">');
    expect(xml).toContain('<testsuite name="batch-x:main" tests="10" failures="0" errors="0" skipped="0">');
    expect(xml).toContain('<testsuite name="batch-x:pr" tests="10" failures="5" errors="0" skipped="0">');
    expect([...new Set([...xml.matchAll(/classname="([^"]+)"/g)].map((m) => m[1]))]).toEqual(['main.c1', 'main.c2', 'pr.c1', 'pr.c2', 'gate.pr']);
    expect(xml).toContain('<testcase classname="gate.pr" name="pass_rate&gt;=0.7" time="0">\n      <failure message="pass_rate&gt;=0.7: 0.5" type="gate">0.5</failure>');
    expect(xml).toContain('<testcase classname="gate.pr" name="no regression against the baseline arm main" time="0">\n      <failure message="no regression against the baseline arm main: 1 case(s) regressed: c2"');
  });
});
