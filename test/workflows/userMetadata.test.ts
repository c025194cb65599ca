import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, TurnRequest } from '../../src/candidates/adapter.js';
import { loadEvalCase } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import type { BatchInput } from '../../src/run/batchInput.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { createEvalHarness, type EvalHarness } from '../support/evalHarness.js';
import { judgedGreeting } from '../support/greetingCase.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/** Uses two tools, writes its file and answers; in its run's second turn it waits for `release` first. */
const gate: { release: (() => void) | null } = { release: null };
const toolUser: Candidate = {
  async runTurn(request: TurnRequest) {
    request.onEvent({ role: 'candidate.tool_call.started', content: 'Bash ls', tool: { id: 't1', name: 'Bash', kind: 'shell' } });
    request.onEvent({ role: 'candidate.tool_call.started', content: 'Write greeting.txt', tool: { id: 't2', name: 'Write', kind: 'write' } });
    if (request.turn === 2) {
      await new Promise<void>((resolve) => {
        gate.release = resolve;
      });
    }
    await writeFile(join(request.sandboxDir, 'greeting.txt'), 'hello\n');
    request.onEvent({ role: 'candidate', content: 'done' });
    return { reply: 'done', session: {} };
  },
};

function releaseTurn(): void {
  const release = gate.release;
  gate.release = null;
  release?.();
}

/** What the Web UI shows as a workflow's current details: the SDK's metadata query. */
async function currentDetails(harness: EvalHarness, workflowId: string): Promise<string> {
  return (await harness.client.workflow.getHandle(workflowId).query<{ currentDetails: string }>('__temporal_workflow_metadata')).currentDetails;
}

function summaryOf(event: temporal.api.history.v1.IHistoryEvent): string | undefined {
  const payload = event.userMetadata?.summary;
  return payload ? defaultPayloadConverter.fromPayload<string>(payload) : undefined;
}

describe('what the Web UI shows of a run and a batch (user metadata)', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  // The worker keeps its own runs dir, as a worker host does (docs/scale-out.md): the batch's names another.
  let workerRuns: string;
  const hostId = 'host-meta';

  beforeAll(async () => {
    temporal = await startTestTemporal();
    workerRuns = await mkdtemp(join(tmpdir(), 'evalflow-worker-runs-'));
    harness = await createEvalHarness({
      workerRunsDir: workerRuns,
      env: { EVALFLOW_HOST_ID: hostId },
      backend: 'pglite',
      temporal,
      // Two turns: the examiner ends once the candidate answered twice.
      script: judgedGreeting((request) => ({ text: request.messages.filter((m) => m.role === 'assistant').length < 2 ? 'Go on.' : '<<END>>' })),
      fakeCandidates: { toolUser },
    });
    await harness.writeCase('greet', {
      'meta.yaml': 'id: greet\nversion: v2\ntarget_workflow: greeter\ncategory: feature\npurpose: Checks that the greeter writes greeting.txt.\nmax_turns: 4\n',
      'task.md': '## Prompt\n\n> Write greeting.txt.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nAsk once more, then end.\n',
      'rubric.md': '## Hard requirements\n\n- greeting.txt exists\n\n## Quality\n\n## Common failures\n',
      'env.yaml': '',
    });
  }, 120_000);
  afterAll(async () => {
    releaseTurn();
    await harness?.close();
    await temporal?.stop();
    if (workerRuns) await rm(workerRuns, { recursive: true, force: true });
  });

  it('a batch and its runs carry static summaries and details, live current details, and one summary per activity', { timeout: 120_000 }, async () => {
    const greet = await loadEvalCase(join(harness.casesDir, 'greet'));
    const input: BatchInput = {
      batchId: 'batch-20260301T000000-meta',
      stamp: '20260301T000000',
      selection: { paths: [harness.casesDir], only: ['greet'], runsPerCase: 2, digest: selectionDigest([greet]) },
      total: null,
      template: {
        candidate: { name: 'tool-user', adapter: 'toolUser', model: 'sonnet', args: [], env: {} },
        examiner: { model: 'test-examiner', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: harness.mock.url },
        judge: { model: 'test-judge', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: harness.mock.url },
        project: join(harness.root, 'project'),
        workflowDir: join(harness.root, 'workflow'),
        runsDir: harness.runsDir,
        turnTimeoutS: 60,
        viewerUrl: 'http://evals.lan:9400',
      },
      parallelism: 1,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    const batch = await harness.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const first = 'run-greet-tool-user@20260301T000000-1';

    // The first run waits in its second candidate turn: the details say where it is.
    for (let i = 0; i < 300 && !gate.release; i++) await new Promise((r) => setTimeout(r, 100));
    expect(gate.release).not.toBeNull();
    // Under them, where the run's files really are: the worker's runs dir, on its host, which the static details cannot know.
    const place = `- run directory: \`${workerRuns}/${first}\` on host \`${hostId}\` (that worker's runs dir, not the batch's)`;
    expect(await currentDetails(harness, first)).toBe(`turn 2/4 · candidate running · 2 tool calls\n\n${place}`);
    expect(await currentDetails(harness, input.batchId)).toBe('0/2 done · 0 pass · 0 fail · 1 running');
    const running = await harness.client.workflow.getHandle(first).describe();
    expect(running.raw.pendingActivities?.map((a) => a.activityType?.name)).toEqual(['candidateTurn']);
    releaseTurn();

    // The second run waits too; by then the first one has ended and the batch counts it.
    for (let i = 0; i < 300 && !gate.release; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await currentDetails(harness, input.batchId)).toBe('1/2 done · 1 pass · 0 fail · 1 running');
    releaseTurn();
    await batch.result();

    const run = await harness.client.workflow.getHandle(first).describe();
    expect(await run.staticSummary()).toBe('greet · tool-user (sonnet) · attempt 1/2');
    const details = await run.staticDetails();
    expect(details).toContain('Checks that the greeter writes greeting.txt.');
    expect(details).toContain(`evalflow show ${first}`);
    expect(details).toContain(`[http://evals.lan:9400/runs/${encodeURIComponent(first)}](http://evals.lan:9400/runs/${encodeURIComponent(first)})`);
    expect(details).toContain(`- run directory: \`${harness.runsDir}/${first}\``);
    expect(details).not.toContain('file://');
    expect(await currentDetails(harness, first)).toBe(`done · completed · pass (overall 4.0)\n\n${place}`);
    expect(existsSync(join(workerRuns, first, 'score.yaml'))).toBe(true);
    expect(existsSync(join(harness.runsDir, first))).toBe(false);
    expect(await currentDetails(harness, input.batchId)).toBe('2/2 done · 2 pass · 0 fail · 0 running');

    const history = await harness.client.workflow.getHandle(first).fetchHistory();
    const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    // The host stages are local activities (the worker is the run's host; the first stage
    // claims it): markers in the history, each with its summary, not scheduled tasks.
    const local = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(local.map(summaryOf)).toEqual(['prepare · run directory, workflow snapshot, sandbox', 'setup · commands and preconditions', 'verify · postconditions', 'cleanup', 'record']);
    expect(scheduled.map((e) => [e.activityTaskScheduledEventAttributes?.activityType?.name, summaryOf(e)])).toEqual([
      ['examinerTurn', 'turn 1 · examiner'],
      ['candidateTurn', 'turn 1 · candidate'],
      ['examinerTurn', 'turn 2 · examiner'],
      ['candidateTurn', 'turn 2 · candidate'],
      ['examinerTurn', 'turn 3 · examiner'],
      ['judgeRun', 'judge'],
    ]);
  });
});
