import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewError } from '../../src/errors.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

/** A pass whose only hard item the judge never assessed, whatever it is asked. */
const SHORT = "reasoning: 'Done.'\nresult: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: 'Done.'\nhard_requirements: []\nsuggestions: []\n";
const facts = { turnsUsed: 1, maxTurns: 1, turnLimitHit: false, examinerEnded: true };
const decision = { result: 'fail' as const, author: 'alice', note: 'it is not done', decidedAt: '2026-02-01T12:00:00.000Z' };

describe('a verdict in doubt, recorded and then settled by a person', () => {
  let fx: ActivityFixture;

  beforeAll(async () => {
    fx = await createActivityFixture();
    fx.llm = { chat: async () => ({ content: SHORT, toolCalls: [], model: 'judge-model', finishReason: 'stop' }) };
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('is needs_review, counted in no pass rate, until the decision makes it completed beside the unchanged verdict', async () => {
    const spec = await fx.preparedSpec();
    const { verdict } = await fx.activities().judgeRun({ spec, facts, postconditions: [] });
    const record = { spec, status: 'completed' as const, facts, postconditions: [], verdict, anomalies: [], error: null };
    const recorded = await fx.activities().recordRun(record);
    expect(recorded).toMatchObject({ status: 'needs_review', result: null, overall: null });
    expect(recorded.error).toBe("needs a person's review (the judge said pass): hard requirement not assessed by the judge in 3 requests: 1. It is done");
    expect(await fx.store.getRun(spec.runId)).toMatchObject({ status: 'needs_review', result: null, overall: null });
    const runDir = join(spec.runsDir, spec.runId);
    expect(await readFile(join(runDir, 'review.md'), 'utf8')).toContain('— NEEDS REVIEW (the judge said pass)');

    await expect(fx.activities().recordReview({ runId: spec.runId, decision })).resolves.toMatchObject({ status: 'completed', result: 'fail', overall: 4 });
    // A resent decision (a retried activity) is the same one.
    await expect(fx.activities().recordReview({ runId: spec.runId, decision })).resolves.toMatchObject({ status: 'completed', result: 'fail' });
    const settled = await fx.activities().recordRun(record);
    expect(settled).toMatchObject({ status: 'completed', result: 'fail', overall: 4 });
    expect(settled.error).toBeUndefined();
    const review = await readFile(join(runDir, 'review.md'), 'utf8');
    expect(review).toContain("— FAIL (a person's decision; the judge said pass)");
    expect(review).toContain('- Decision: fail, by alice, 2026-02-01T12:00:00.000Z\n- Note: it is not done');
    expect(parseYaml(await readFile(join(runDir, 'score.yaml'), 'utf8'))).toMatchObject({ result: 'pass', hard_requirements: [{ item: 'It is done', met: null, assessed: false }] });
    expect(await fx.store.getScore(spec.runId)).toMatchObject({ result: 'pass' });
    expect(await fx.store.getReview(spec.runId)).toMatchObject({ result: 'fail', author: 'alice', judge_result: 'pass', reasons: [expect.stringContaining('not assessed')] });

    // Crossing Temporal, the error's class name is its failure type.
    await expect(fx.activities().recordReview({ runId: spec.runId, decision: { ...decision, result: 'pass', author: 'bob' } })).rejects.toMatchObject({
      type: ReviewError.name,
      message: `run ${spec.runId} already has a person's decision: fail by alice at 2026-02-01T12:00:00.000Z ("it is not done"); a second decision is refused`,
    });
  });

  it('refuses a decision on a run whose verdict needs none', async () => {
    const spec = await fx.preparedSpec();
    await expect(fx.activities().recordReview({ runId: spec.runId, decision })).rejects.toThrow(`run ${spec.runId} is still running; a decision is taken once its verdict needs one`);
  });
});
