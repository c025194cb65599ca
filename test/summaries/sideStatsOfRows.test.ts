import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRowInput, Store } from '../../src/store/index.js';
import { compareSides, compareSideStats, loadSideTriggerObservations, loadTriggerObservations, triggerQuality } from '../../src/summaries/index.js';
import { resolvedSideStats, resolveSide, selectSide } from '../../src/summaries/selectSide.js';
import type { WorkflowUsageRow } from '../../src/vocabulary/workflowUsage.js';
import { aRun, aScore } from '../store/builders.js';
import { BACKENDS, useStore } from '../store/testBackends.js';

interface Seeded {
  case: string;
  status?: RunRowInput['status'];
  /** The judge's result (a verdict is saved), and a person's decision over it. */
  verdict?: 'pass' | 'fail';
  decided?: 'pass' | 'fail';
  overall?: number | null;
  /** Extra judgings of the run, as `rejudge --repeat` and judge samples leave them. */
  samples?: ('pass' | 'fail' | null)[];
  attempt?: number | null;
  hash?: string;
  arm?: string;
  rev?: string;
  spec?: Record<string, unknown> | null;
  config?: Record<string, unknown>;
  usage?: Partial<Record<'skills/testing' | 'skills/commits', WorkflowUsageRow['invoked']>>;
  /** Created in the same second as the run before it (run_id breaks the tie). */
  sameSecond?: boolean;
}

const expectWorkflow = { evalCase: { expectWorkflow: { must_use: ['skills/testing'], must_not_use: ['skills/commits'] } } };

/** Side A: batch-a. Every rule the comparison reads run by run has a run here that exercises it. */
const SIDE_A: Seeded[] = [
  ...[1, 2, 3, 4, 5].map((n) => ({ case: 'breaks', verdict: 'pass' as const, attempt: n, overall: 4.1, spec: expectWorkflow, usage: { 'skills/testing': 'yes' as const, 'skills/commits': 'no' as const } })),
  ...[1, 2, 3, 4].map((n) => ({ case: 'steady', verdict: 'pass' as const, attempt: n, overall: 0.1 * n })),
  // Hashes that change and change back: the side's hash joins them in run order.
  { case: 'edited', verdict: 'pass', hash: 'sha256:one', attempt: 1 },
  { case: 'edited', verdict: 'fail', hash: 'sha256:two', attempt: 2 },
  { case: 'edited', verdict: 'pass', hash: 'sha256:one', attempt: 3 },
  // A judge that disagrees with itself on one run; a run judged twice alike.
  { case: 'judged-twice', verdict: 'pass', samples: ['fail', null], attempt: 1 },
  { case: 'judged-twice', verdict: 'pass', samples: ['pass'], attempt: 2 },
  { case: 'lone', verdict: 'fail', samples: ['fail'], attempt: 1 },
  // Unjudged runs in several statuses, one with a verdict left for a person; a decision over the judge.
  { case: 'breaks', status: 'infra_error', attempt: 6 },
  { case: 'steady', status: 'needs_review', verdict: 'fail', attempt: 5 },
  { case: 'steady', status: 'aborted', sameSecond: true },
  { case: 'steady', status: 'needs_review', verdict: 'fail', decided: 'pass', attempt: 6 },
  // Two runs of one attempt; a judged run without an attempt index or an overall.
  { case: 'steady', verdict: 'fail', attempt: 1, overall: null },
  { case: 'steady', verdict: 'pass', attempt: null, sameSecond: true },
  // Containment: the spec's word first, then the config's; a spec that says nothing.
  { case: 'lone', verdict: 'pass', attempt: 2, spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'sandbox' } } },
  { case: 'lone', verdict: 'pass', attempt: 3, spec: { candidate: { isolation: null } }, config: { candidate: { isolation: 'sandbox' } } },
  { case: 'lone', verdict: 'pass', attempt: 4, spec: null, config: {} },
  // Trigger quality: no expectation, without any workflow, an expectation of JSON arrays.
  { case: 'breaks', verdict: 'pass', attempt: 7, usage: { 'skills/testing': 'no' } },
  { case: 'breaks', verdict: 'pass', attempt: 8, spec: { noWorkflow: true, ...expectWorkflow }, usage: { 'skills/testing': 'yes' } },
  { case: 'breaks', verdict: 'pass', attempt: 9, spec: expectWorkflow, usage: { 'skills/testing': 'unknown', 'skills/commits': 'yes' } },
];

/** Side B: batch-b with two arms; `breaks` regresses, `edited` is one version, a case only B ran. */
const SIDE_B: Seeded[] = [
  ...[1, 2, 3, 4, 5].map((n) => ({ case: 'breaks', verdict: 'fail' as const, attempt: n, overall: 1.3, arm: n % 2 ? 'x' : 'y', spec: expectWorkflow, usage: { 'skills/testing': 'no' as const, 'skills/commits': 'yes' as const } })),
  ...[1, 2, 3, 4].map((n) => ({ case: 'steady', verdict: n === 2 ? ('fail' as const) : ('pass' as const), attempt: n, overall: 0.7 + n / 3, arm: n % 2 ? 'x' : 'y' })),
  { case: 'edited', verdict: 'pass', hash: 'sha256:one', attempt: 1, arm: 'x' },
  { case: 'edited', verdict: 'pass', hash: 'sha256:one', attempt: 2, arm: 'y' },
  { case: 'judged-twice', verdict: 'fail', samples: ['fail'], attempt: 1, arm: 'x' },
  { case: 'judged-twice', verdict: 'pass', attempt: 2, arm: 'y', rev: 'rev-other' },
  { case: 'only-b', verdict: 'pass', attempt: 1, arm: 'y' },
  { case: 'only-b', status: 'judge_failed', attempt: 2, arm: 'x' },
];

async function seed(store: Store, batchId: string, runs: readonly Seeded[], startMinute: number): Promise<void> {
  await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: new Date(Date.UTC(2026, 0, 1, 0, startMinute)).toISOString() });
  let second = startMinute * 60;
  for (const [i, run] of runs.entries()) {
    if (!run.sameSecond) second += 1;
    const created = new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();
    // Run ids that sort differently as text and as numbers: run-…-2 before run-…-10.
    const runId = `run-${run.case}-${batchId}-${i}`;
    await store.upsertRun(
      aRun({
        run_id: runId,
        batch_id: batchId,
        case_id: run.case,
        status: run.status ?? 'completed',
        created_at: created,
        workflow_rev: run.rev ?? `rev-${batchId}`,
        attempt_index: run.attempt === undefined ? null : run.attempt,
        arm: run.arm ?? null,
        spec: run.spec === undefined ? { candidate: { isolation: 'sandbox' } } : run.spec,
        config: run.config ?? { candidate: { isolation: 'sandbox' } },
        ...(run.hash ? { case_hash: run.hash } : {}),
      }),
    );
    if (run.verdict) await store.saveScore(runId, aScore({ judged_at: created, result: run.verdict, overall: run.overall === undefined ? 3 : run.overall }));
    for (const [n, result] of (run.samples ?? []).entries()) await store.saveJudgeSample(runId, aScore({ judged_at: new Date(Date.parse(created) + (n + 1) * 1000).toISOString(), result }));
    if (run.decided) await store.updateRun(runId, { status: 'completed', result: run.decided });
    const usage = Object.entries(run.usage ?? {}).map(([item, invoked]) => ({ item, kind: 'skill' as const, name: item.slice('skills/'.length), loaded: invoked, invoked, first_turn: null, evidence: null }));
    if (usage.length > 0) await store.saveWorkflowUsage(runId, usage);
  }
}

/** What `compare` did before: every run of each side loaded with its verdict, judgings and usage. */
async function runByRun(store: Store, nameA: string, nameB: string) {
  const [a, b] = [await selectSide(store, nameA), await selectSide(store, nameB)];
  const judgings = await store.getJudgings([...a.entries, ...b.entries].map((e) => e.run.run_id));
  return {
    comparison: compareSides(a, b, { judgings }),
    triggers: [triggerQuality(await loadTriggerObservations(store, a.entries)), triggerQuality(await loadTriggerObservations(store, b.entries))],
  };
}

/** What it does now: counts grouped per case in SQL. */
async function fromSql(store: Store, nameA: string, nameB: string) {
  const [a, b] = [await resolvedSideStats(store, await resolveSide(store, nameA)), await resolvedSideStats(store, await resolveSide(store, nameB))];
  return {
    comparison: compareSideStats(a.stats, b.stats),
    triggers: [triggerQuality(await loadSideTriggerObservations(store, a.filter)), triggerQuality(await loadSideTriggerObservations(store, b.filter))],
  };
}

const PAIRS: [string, string][] = [
  ['batch-a', 'batch-b'],
  ['batch-b', 'batch-a'],
  ['batch-b:x', 'batch-b:y'],
  ['rev-other', 'batch-a'],
  ['batch-a', 'rev-batch-b'],
];

describe.each(BACKENDS)('compare from SQL counts equals compare over every run (%s)', (backend) => {
  const store = useStore(backend);

  beforeAll(async () => {
    await seed(store(), 'batch-a', SIDE_A, 0);
    await seed(store(), 'batch-b', SIDE_B, 10);
  });

  for (const [a, b] of PAIRS) {
    it(`the same comparison and trigger quality, to the byte, for ${a} → ${b}`, async () => {
      const before = await runByRun(store(), a, b);
      const now = await fromSql(store(), a, b);
      // Byte for byte, key order included: that is what `compare --json` prints.
      expect(JSON.stringify(now)).toBe(JSON.stringify(before));
    });
  }

  it('the fixture reaches every rule: joined hashes, each stability, statuses in order, pairs, containment, triggers', async () => {
    const { comparison, triggers } = await fromSql(store(), 'batch-a', 'batch-b');
    const byCase = (id: string) => comparison.cases.find((c) => c.caseId === id)!;
    expect(byCase('edited').a!.hash).toBe('sha256:one|sha256:two|sha256:one');
    expect(byCase('breaks').label).toBe('regression');
    expect(byCase('breaks').reviewsA).toHaveLength(8);
    expect(byCase('judged-twice').stabilityA).toBe('flaky_judge');
    expect(byCase('lone').stabilityA).toBe('flaky_agent');
    expect(byCase('steady').stabilityA).toBe('flaky');
    expect(byCase('steady').a!.uncounted).toEqual({ needs_review: 1, aborted: 1 });
    expect(Object.keys(comparison.a.uncounted)).toEqual(['aborted', 'needs_review', 'infra_error']);
    expect(comparison.a.uncontained).toBe(2);
    // breaks 1–5, steady 2 (its attempt 1 twice: the earlier run pairs), judged-twice 1; edited 2 the other way.
    expect(comparison.mcnemar).toMatchObject({ onlyA: 7, onlyB: 1 });
    expect(triggers[0]!['skills/testing']).toMatchObject({ truePositives: 5, falseNegatives: 0, unknown: 1 });
    expect(triggers[0]!['skills/commits']).toMatchObject({ trueNegatives: 5, falsePositives: 1 });
    expect(triggers[1]!['skills/commits']).toMatchObject({ falsePositives: 5 });
  });

  it('stays equal after later judgings: a rejudge, samples, a sample before the first verdict, a decision', async () => {
    const s = store();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 0, minute)).toISOString();
    await s.saveJudgeSample('run-steady-batch-a-5', aScore({ judged_at: at(1), result: 'fail' }));
    await s.saveScore('run-only-b-batch-b-13', aScore({ judged_at: at(2), result: 'fail' }));
    await s.upsertRun(aRun({ run_id: 'run-lone-batch-b-late', batch_id: 'batch-b', case_id: 'lone', status: 'completed', created_at: at(3), workflow_rev: 'rev-batch-b', attempt_index: 1, arm: 'x', spec: { candidate: { isolation: 'sandbox' } }, config: {} }));
    await s.saveJudgeSample('run-lone-batch-b-late', aScore({ judged_at: at(4), result: 'fail' }));
    await s.saveScore('run-lone-batch-b-late', aScore({ judged_at: at(5), result: 'pass' }));
    await s.updateRun('run-steady-batch-a-16', { status: 'completed', result: 'pass' });
    for (const [a, b] of PAIRS) expect(JSON.stringify(await fromSql(s, a, b)), `${a} → ${b}`).toBe(JSON.stringify(await runByRun(s, a, b)));
    const { comparison } = await fromSql(s, 'batch-a', 'batch-b');
    const byCase = (id: string) => comparison.cases.find((c) => c.caseId === id)!;
    expect([byCase('steady').stabilityA, byCase('only-b').stabilityB, byCase('lone').stabilityB]).toEqual(['flaky_judge', 'flaky_judge', 'flaky_judge']);
  });

  it('names the run whose stored expectation is not one', async () => {
    await seed(store(), 'batch-bad', [{ case: 'c', verdict: 'pass', spec: { evalCase: { expectWorkflow: null } }, usage: { 'skills/testing': 'yes' } }], 30);
    await expect(loadSideTriggerObservations(store(), { batchId: 'batch-bad' })).rejects.toThrow(/runs\.spec of run-c-batch-bad-0 \(evalCase\.expectWorkflow\)/);
  });
});
