import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledBatchInput } from '../../src/schedules/scheduleInput.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../support/decidedBatch.js';
import { aHistoryRun } from '../support/historyRun.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

const ARMS = [
  { name: 'with_workflow', change: 'base' },
  { name: 'no_workflow', change: 'workflow=none' },
];
const PREVIOUS = 'batch-20260101T020000-nightly';
const NOW = 'batch-20260102T020000-nightly';

/**
 * concludeScheduledBatch over a real store, for a schedule with arms: last night with_workflow
 * failed c1 five times and no_workflow passed it; tonight the reverse. Pooled, both nights pass
 * 5 of 10; compared like for like, no_workflow regressed and with_workflow improved.
 */
describe('concludeScheduledBatch with arms', () => {
  let fx: ActivityFixture;

  beforeAll(async () => {
    fx = await createActivityFixture();
    let n = 0;
    const seed = async (batchId: string, passing: string) => {
      await fx.store.upsertBatch({ batch_id: batchId, status: 'completed', spec: { arms: ARMS, schedule: 'nightly' }, counts: { finished: 10, passed: 5, failed: 5, completed: 10 } });
      for (const arm of ARMS) {
        for (let k = 1; k <= 5; k++) {
          const runId = `run-c1-x@${batchId.slice(6, 21)}-${k}+${arm.name}-${k}`;
          const result = arm.name === passing ? 'pass' : 'fail';
          await fx.store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: 'c1', candidate: 'x', status: 'completed', arm: arm.name, attempt_index: k, run_dir: join(fx.root, 'runs', runId) }));
          await fx.store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, judge_model: 'j', judged_at: new Date(Date.parse('2026-01-02T03:00:00Z') + n++ * 1000).toISOString() });
        }
      }
    };
    await seed(PREVIOUS, 'no_workflow');
    await seed(NOW, 'with_workflow');
    await fx.store.saveScheduledBatch({ batch_id: PREVIOUS, schedule: 'nightly', verdict: 'ok', report: {}, finished_at: '2026-01-01T03:00:00Z' });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('compares arm X of the previous batch with arm X now, and the verdict sees the regression the pool hides', async () => {
    const input = {
      schedule: 'nightly',
      summaries: { dir: join(fx.root, 'summaries'), prices: {} },
      baseline: 'previous',
      arms: ARMS,
    } as unknown as ScheduledBatchInput;
    const report = await fx.activities().concludeScheduledBatch({ input, batchId: NOW, scheduledAt: '2026-01-02T02:00:00Z', workflowRev: null, problems: [] });
    expect(report.verdict).toBe('regression');
    expect(report.problems).toEqual([]);
    expect(report.previous).toMatchObject({ against: PREVIOUS, pass_rate_then: null, pass_rate_now: null, regressions: ['no_workflow:c1'], improvements: ['with_workflow:c1'] });
    expect(report.previous!.method_notes).toBeUndefined();
    expect(report.previous!.arms!.map((a) => [a.arm, a.pass_rate_then, a.pass_rate_now])).toEqual([
      ['no_workflow', 1, 0],
      ['with_workflow', 0, 1],
    ]);
    const markdown = await readFile(join(fx.root, 'summaries', 'schedules', 'nightly.md'), 'utf8');
    expect(markdown).toContain('- pass rate: no_workflow 100% → 0%, with_workflow 0% → 100%');
  });
});

/**
 * A schedule whose baseline is a batch run until decided: its stored decisions answer its own
 * two arms only, so the firing's comparison with it is Fisher's test, and the report says so.
 */
describe('concludeScheduledBatch against a baseline run until decided', () => {
  const DECIDED = 'batch-20260305T000000-decide';
  const TONIGHT = 'batch-20260306T020000-nightly';
  const UD_ARMS = [
    { name: 'base', change: 'base' },
    { name: 'new', change: 'workflow_rev=abc1234' },
  ];
  let fx: ActivityFixture;

  beforeAll(async () => {
    fx = await createActivityFixture();
    await seedDecidedBatch(fx.store, fx.root, DECIDED, DRIFTS_AND_IMPROVES);
    await fx.store.upsertBatch({ batch_id: TONIGHT, status: 'completed', spec: { arms: UD_ARMS, schedule: 'nightly' }, counts: { finished: 4, passed: 4, failed: 0, completed: 4 } });
    for (const caseId of ['drifts', 'improves']) {
      for (const arm of UD_ARMS) {
        const runId = `run-${caseId}-x@20260306T020000-1+${arm.name}`;
        await fx.store.upsertRun(aHistoryRun({ run_id: runId, batch_id: TONIGHT, case_id: caseId, candidate: 'x', status: 'completed', arm: arm.name, attempt_index: 1, workflow_rev: 'abc1234', run_dir: join(fx.root, 'runs', runId) }));
        await fx.store.saveScore(runId, { result: 'pass', overall: 4, judge_model: 'j', judged_at: '2026-03-06T03:00:00.000Z' });
      }
    }
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("notes that the baseline's labels are Fisher's test, approximate, in the report and its markdown", async () => {
    const input = { schedule: 'nightly', summaries: { dir: join(fx.root, 'summaries'), prices: {} }, baseline: DECIDED, arms: UD_ARMS } as unknown as ScheduledBatchInput;
    const report = await fx.activities().concludeScheduledBatch({ input, batchId: TONIGHT, scheduledAt: '2026-03-06T02:00:00Z', workflowRev: null, problems: [] });
    expect(report.baseline?.against).toBe(DECIDED);
    expect(report.baseline!.method_notes).toHaveLength(1);
    const [note] = report.baseline!.method_notes!;
    expect(note).toContain(`side baseline (${DECIDED}) is of batch ${DECIDED}, run until decided`);
    expect(note).toContain(`\`evalflow compare ${DECIDED}:base ${DECIDED}:new\``);
    expect(note).toContain('approximate');
    const markdown = await readFile(join(fx.root, 'summaries', 'schedules', 'nightly.md'), 'utf8');
    expect(markdown).toContain(`- note: side baseline (${DECIDED}) is of batch ${DECIDED}, run until decided`);
    const json = JSON.parse(await readFile(join(fx.root, 'summaries', 'schedules', 'nightly.json'), 'utf8')) as { baseline: { method_notes: string[] } };
    expect(json.baseline.method_notes).toEqual([note]);
  });
});
