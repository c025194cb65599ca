import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { loadEvalCase } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { BatchInput } from '../../src/run/batchInput.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const caseFiles = (id: string) => ({
  'meta.yaml': `id: ${id}\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: p\nmax_turns: 1\n`,
  'task.md': '## Prompt\n\n> Write greeting.txt.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nEnd at once.\n',
  'rubric.md': '## Hard requirements\n\n- greeting.txt exists\n\n## Quality\n\n## Common failures\n',
  'env.yaml': '',
});

const judge = (): MockReply => ({
  text: "reasoning: 'ok'\nresult: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: 'ok'\nhard_requirements:\n  - item: 'greeting.txt exists'\n    met: true\n    evidence: 'write'\nsuggestions: []\n",
});

/** Writes its file and answers. */
const writer: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.sandboxDir, 'greeting.txt'), 'hello\n');
    request.onEvent({ role: 'candidate', content: 'done' });
    return { reply: 'done', session: {} };
  },
};

/** Runs until cancelled, heartbeating. */
const slow: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.runDir, 'slow-started'), '1');
    while (!request.signal.aborted) {
      request.onActivity?.();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('cancelled');
  },
};

/** Destroys the run directory: the run cannot even record itself afterwards. */
const vandal: Candidate = {
  async runTurn(request: TurnRequest) {
    await rm(request.runDir, { recursive: true, force: true });
    return { reply: 'gone', session: {} };
  },
};

describe('evalBatchWorkflow', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  let batches = 0;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createEvalHarness({
      backend: 'pglite',
      temporal,
      script: (request: MockRequest) => (request.model === 'test-judge' ? judge() : { text: '<<END>>' }),
      fakeCandidates: { slow, writer, vandal },
    });
    await harness.writeCase('greet', caseFiles('greet'));
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  async function batchInput(candidate: 'slow' | 'writer' | 'vandal', runs: number): Promise<BatchInput> {
    const greet = await loadEvalCase(join(harness.casesDir, 'greet'));
    batches += 1;
    const stamp = `20260202T0000${String(batches).padStart(2, '0')}`;
    return {
      batchId: `batch-${stamp}-test`,
      stamp,
      selection: { paths: [harness.casesDir], only: ['greet'], runsPerCase: runs, digest: selectionDigest([greet]) },
      total: null,
      template: {
        candidate: { name: candidate, adapter: candidate, args: [], env: {} },
        examiner: { model: 'test-examiner', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: harness.mock.url },
        judge: { model: 'test-judge', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: harness.mock.url },
        project: join(harness.root, 'project'),
        workflowDir: join(harness.root, 'workflow'),
        runsDir: harness.runsDir,
        turnTimeoutS: 60,
      },
      parallelism: runs,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
  }

  it('when cancelled, ends only after its runs have recorded themselves as cancelled and cleaned up', async () => {
    const input = await batchInput('slow', 2);
    const handle = await harness.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const started = async () => {
      const runs = await harness.store.listRuns({ batchId: input.batchId });
      return runs.length === 2 && runs.every((r) => existsSync(join(r.run_dir, 'slow-started')));
    };
    for (let i = 0; i < 150 && !(await started()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await started()).toBe(true);

    await handle.cancel();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    // What `evalflow run` reads right after the batch ends: final rows, not 'running'.
    const runs = await harness.store.listRuns({ batchId: input.batchId });
    expect(runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    // The batch wrote its own final row: nobody else is there to do it after a cancel.
    expect(await harness.store.getBatch(input.batchId)).toMatchObject({ status: 'cancelled', counts: { finished: 2, cancelled: 2 } });
    for (const run of runs) {
      expect(existsSync(join(run.run_dir, 'review.md'))).toBe(true);
      expect(existsSync(join(harness.root, 'sandboxes', run.run_id))).toBe(false);
    }
  });

  it('pages through its runs and continues as new between pages, finishing every run once', async () => {
    const input = { ...(await batchInput('writer', 5)), parallelism: 2, pageSize: 2, continueAsNewAfterEvents: 1 };
    const handle = await harness.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const result = await handle.result();
    expect(result).toMatchObject({ total: 5, counts: { finished: 5, passed: 5, completed: 5 } });
    const runs = await harness.store.listRuns({ batchId: input.batchId });
    expect(runs.map((r) => r.run_id.replace(/.*-/, '')).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(await harness.store.getBatch(input.batchId)).toMatchObject({
      status: 'completed',
      counts: { finished: 5, passed: 5, failed: 0, completed: 5 },
      spec: { total: 5, candidate: 'writer', runs_per_case: 5, parallelism: 2 },
    });
    expect(await harness.store.countPlan(input.batchId)).toBe(5);
    // Three pages: the first two executions ended by continuing as new.
    const description = await handle.describe();
    expect(description.runId).not.toBe(handle.firstExecutionRunId);
    const first = await harness.client.workflow.getHandle(input.batchId, handle.firstExecutionRunId).fetchHistory();
    expect(first.events?.some((e) => e.workflowExecutionContinuedAsNewEventAttributes)).toBe(true);
  });

  it('keeps the window sliding across pages when it does not continue as new', async () => {
    const input = { ...(await batchInput('writer', 3)), parallelism: 3, pageSize: 1 };
    const result = await harness.client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    expect(result.counts).toMatchObject({ finished: 3, passed: 3 });
    const history = await harness.client.workflow.getHandle(input.batchId).fetchHistory();
    const events = history.events ?? [];
    const starts = events.findIndex((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const thirdStart = events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)[2];
    const firstDone = events.findIndex((e) => e.childWorkflowExecutionCompletedEventAttributes);
    // All three runs were started before the first one finished: no drain at page boundaries.
    expect(starts).toBeGreaterThan(-1);
    expect(events.indexOf(thirdStart!)).toBeLessThan(firstDone);
  });

  it('leaves no checkpoint refs behind in the project repository', async () => {
    const input = await batchInput('writer', 1);
    const result = await harness.client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    expect(result.counts).toMatchObject({ finished: 1, passed: 1 });
    const [run] = await harness.store.listRuns({ batchId: input.batchId });
    const checklist = await readEnvChecklist(run!.run_dir);
    const refs = await execa('git', ['for-each-ref', '--format=%(refname)', 'refs/evalflow/'], { cwd: checklist!.project_repo });
    expect(refs.stdout).not.toContain(run!.run_id.replace(/[^A-Za-z0-9._-]/g, '_'));
  });

  it('refuses to plan a bank that changed after the client validated it, and records the batch as failed', async () => {
    const input = { ...(await batchInput('writer', 1)) };
    input.selection = { ...input.selection, digest: 'sha256:not-what-the-client-saw' };
    const handle = await harness.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const failure = await handle.result().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(String((failure as WorkflowFailedError).cause?.cause instanceof Error ? ((failure as WorkflowFailedError).cause?.cause as Error).message : '')).toMatch(/the eval bank changed after the batch was started/);
    expect(await harness.store.getBatch(input.batchId)).toMatchObject({ status: 'failed', counts: { finished: 0 } });
    expect(await harness.store.listRuns({ batchId: input.batchId })).toEqual([]);
  });

  it('marks a run whose workflow failed before recording itself, so its row does not stay running', async () => {
    const input = await batchInput('vandal', 1);
    const result = await harness.client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    expect(result.counts).toMatchObject({ finished: 1, infra_error: 1 });
    const [run] = await harness.store.listRuns({ batchId: input.batchId });
    expect(run?.status).toBe('infra_error');
    expect(run?.error).toMatch(/^the run's workflow failed before recording its outcome: .*recordRun/);
    expect(run?.finished_at).not.toBeNull();
  });
});
