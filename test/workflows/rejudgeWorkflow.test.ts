import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { builtinCandidate, createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const files = (id: string, env = '') => ({
  'meta.yaml': `id: ${id}\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: p\nmax_turns: 1\n`,
  'task.md': '## Prompt\n\n> Say hello.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nEnd at once.\n',
  'rubric.md': '## Hard requirements\n\n- It says hello\n\n## Quality\n\n## Common failures\n',
  'env.yaml': env,
});

const verdict = (result: string) =>
  `reasoning: 'It said hello.'\nresult: ${result}\ncompliance: 3\nexecution_quality: 3\noverall: 3\nsummary: 'ok'\nhard_requirements:\n  - item: 'It says hello'\n    met: true\n    evidence: '[Turn 1] candidate'\nsuggestions: []\n`;

describe('rejudgeWorkflow', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  let judgeReply: (request: MockRequest) => MockReply = () => ({ text: '' });

  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createEvalHarness({
      backend: 'pglite',
      temporal,
      script: (request) => {
        if (request.model.startsWith('test-judge') || request.model === 'judge-v2') return judgeReply(request);
        if (request.model === 'test-examiner') return { text: '<<END>>' };
        return { text: 'hello' };
      },
    });
    await harness.writeCase('hello', files('hello'));
    await harness.writeCase('blocked', files('blocked', 'preconditions:\n  - description: never\n    check: "false"\n    severity: hard\n'));
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  const rejudge = (runId: string, judgeModel?: string) =>
    harness.client.workflow.execute('rejudgeWorkflow', {
      workflowId: `rejudge-${runId}-${Date.now()}`,
      taskQueue: SHARED_TASK_QUEUE,
      args: [{ runId, ...(judgeModel ? { judgeModel } : {}) }],
    }) as Promise<RunOutcome>;

  it('judges a judge_failed run again from the stored transcript, without re-running the candidate', async () => {
    judgeReply = () => ({ text: '' }); // an empty answer cannot be parsed: JudgeError, not retried
    const { outcome, spec } = await harness.runCase('hello', builtinCandidate(harness.mock));
    expect(outcome).toMatchObject({ status: 'judge_failed', result: null });
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain('JudgeError');

    const candidateCalls = harness.mock.requests.filter((r) => r.model === 'test-candidate').length;
    judgeReply = () => ({ text: verdict('pass') });
    const rejudged = await rejudge(spec.runId);
    expect(rejudged).toMatchObject({ status: 'completed', result: 'pass', overall: 3 });
    expect(harness.mock.requests.filter((r) => r.model === 'test-candidate').length).toBe(candidateCalls);
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'completed', result: 'pass' });
    expect(await readFile(join(harness.runsDir, spec.runId, 'score.yaml'), 'utf8')).toContain('result: pass');
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain('rejudged from the stored transcript with test-judge');
    // The judge saw the same transcript as before.
    const prompt = harness.mock.requests.filter((r) => r.model === 'test-judge').at(-1)!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('[Turn 1][candidate] hello');

    // A second opinion from another model replaces the verdict and keeps the history.
    judgeReply = () => ({ text: verdict('fail') });
    expect(await rejudge(spec.runId, 'judge-v2')).toMatchObject({ status: 'completed', result: 'fail' });
    expect(await harness.store.getScore(spec.runId)).toMatchObject({ result: 'fail', judge_model: 'mock/judge-v2' });
    expect((await harness.store.scoreHistory({ caseId: 'hello' })).map((h) => h.result)).toEqual(['pass', 'fail']);
  });

  it('refuses a run that never reached the judge', async () => {
    const { outcome, spec } = await harness.runCase('blocked', builtinCandidate(harness.mock));
    expect(outcome.status).toBe('aborted');
    const failure = await rejudge(spec.runId).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : '').toContain('never reached the judge');
  });
});
