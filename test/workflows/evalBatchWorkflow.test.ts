import { existsSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { loadEvalCase } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import type { BatchInput } from '../../src/run/batchInput.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { greetingCase, judgedGreeting } from '../support/greetingCase.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/** Writes its file and answers. */
const writer: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.sandboxDir, 'greeting.txt'), 'hello\n');
    request.onEvent({ role: 'candidate', content: 'done' });
    return { reply: 'done', session: {} };
  },
};

/** Writes a file holding a key, commits it on a branch of its own, and tries to push it: all of it must stay in the sandbox. */
const keyholder: Candidate = {
  async runTurn(request: TurnRequest) {
    await writeFile(join(request.sandboxDir, `.env.turn${request.turn}`), `OPENAI_API_KEY=sk-fake-${request.turn}-0123456789abcdefghij\n`);
    const git = (args: string[]) => execa('git', args, { cwd: request.sandboxDir, reject: false, env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } });
    await git(['checkout', '-q', '-B', 'candidate-work']);
    await git(['add', '-A']);
    await git(['commit', '-qm', `turn ${request.turn}`]);
    await git(['push', 'origin', 'candidate-work']);
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

/** Puts a file where the run directory was: the run cannot even record itself afterwards. */
const vandal: Candidate = {
  async runTurn(request: TurnRequest) {
    await rm(request.runDir, { recursive: true, force: true });
    await writeFile(request.runDir, 'not a directory');
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
      script: judgedGreeting((request) => {
        // The keys case asks twice, so its second turn starts from a checkpoint holding the first turn's key.
        const asksTwice = request.system.includes('Ask once more') || request.messages.some((m) => m.content.includes('Ask once more'));
        return { text: asksTwice && request.messages.filter((m) => m.role === 'assistant').length < 2 ? 'Once more, please.' : '<<END>>' };
      }),
      fakeCandidates: { slow, writer, vandal, keyholder },
    });
    await harness.writeCase('greet', greetingCase('greet'));
    await harness.writeCase('keys', {
      ...greetingCase('keys', { maxTurns: 3 }),
      'task.md': '## Prompt\n\n> Write greeting.txt.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nAsk once more, then end.\n',
    });
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  async function batchInput(candidate: 'slow' | 'writer' | 'vandal' | 'keyholder', runs: number, caseId = 'greet'): Promise<BatchInput> {
    const greet = await loadEvalCase(join(harness.casesDir, caseId));
    batches += 1;
    const stamp = `20260202T0000${String(batches).padStart(2, '0')}`;
    return {
      batchId: `batch-${stamp}-test`,
      stamp,
      selection: { paths: [harness.casesDir], only: [caseId], runsPerCase: runs, digest: selectionDigest([greet]) },
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

  it("leaves the user's repository as it was: no object, ref, worktree or config of ours, even of a candidate that commits a key and pushes", async () => {
    const repo = join(harness.root, 'user-repo');
    await cp(join(harness.root, 'project'), repo, { recursive: true });
    const git = (args: string[]) => execa('git', args, { cwd: repo, env: { GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' } });
    await git(['init', '-q', '-b', 'main']);
    await git(['add', '-A']);
    await git(['commit', '-qm', 'the user\'s project']);
    const state = async () => ({
      objects: (await git(['count-objects', '-v'])).stdout,
      unreachable: (await git(['fsck', '--unreachable', '--no-reflogs', '--no-progress'])).stdout,
      refs: (await git(['for-each-ref'])).stdout,
      worktrees: (await git(['worktree', 'list', '--porcelain'])).stdout,
      config: await readFile(join(repo, '.git/config'), 'utf8'),
    });
    const before = await state();
    const input = await batchInput('keyholder', 2, 'keys');
    input.template = { ...input.template, project: repo };
    const result = await harness.client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    expect(result.counts).toMatchObject({ finished: 2, passed: 2 });
    // Two turns each: the second started from a checkpoint that held the first turn's key.
    const runs = await harness.store.listRuns({ batchId: input.batchId });
    for (const run of runs) expect((await harness.store.getSteps(run.run_id, { role: 'candidate' })).map((s) => s.turn)).toEqual([1, 2]);
    expect(await state()).toEqual(before);
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
