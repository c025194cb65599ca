import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadEvalCase } from '../../src/evalset/index.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import type { MockRequest } from '../../src/llm/mock/types.js';
import type { BatchInput } from '../../src/run/batchInput.js';
import { SCHEDULED_PRIORITY, type ScheduledBatchInput } from '../../src/schedules/scheduleInput.js';
import { locateTemporalBinary } from '../../src/temporal/binary.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { reviewRunUpdate } from '../../src/workflows/definitions.js';
import { builtinCandidate, createEvalHarness } from './evalHarness.js';
import { startTestTemporal } from './temporalServer.js';

/**
 * Records the histories replayed by test/workflows/replay.test.ts: runs each workflow kind once
 * on a real dev server (scripted model) and saves `temporal workflow show --output json`.
 */
export async function recordHistories(fixtures: string): Promise<void> {
  const temporal = await startTestTemporal();
  const judge = "reasoning: 'ok'\nresult: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: 'ok'\nhard_requirements:\n  - item: 'hello'\n    met: true\n    evidence: '[Turn 1] candidate'\nsuggestions: []\n";
  const harness = await createEvalHarness({
    backend: 'pglite',
    temporal,
    script: (request: MockRequest) => {
      if (request.model === 'test-judge') return { text: judge };
      if (request.model === 'test-examiner') return { text: '<<END>>' };
      return request.messages.some((m) => m.role === 'tool')
        ? { text: 'hello' }
        : { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hello\n' } }] };
    },
  });
  try {
    const files = (id: string, env: string) => ({
      'meta.yaml': `id: ${id}\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: p\nmax_turns: 2\n`,
      'task.md': '## Prompt\n\n> Write hello.txt.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nEnd at once.\n',
      'rubric.md': '## Hard requirements\n\n- hello\n\n## Quality\n\n## Common failures\n',
      'env.yaml': env,
    });
    await harness.writeCase('hello', files('hello', 'postconditions:\n  - description: file\n    check: test -f "${SANDBOX_DIR}/hello.txt"\n    severity: hard\n'));
    await harness.writeCase('blocked', files('blocked', 'preconditions:\n  - description: never\n    check: "false"\n    severity: hard\n'));
    // Two hard items, of which the judge assesses one: the run needs a person and waits for one.
    await harness.writeCase('doubt', { ...files('doubt', 'postconditions: []\n'), 'rubric.md': '## Hard requirements\n\n- hello\n- goodbye\n\n## Quality\n\n## Common failures\n' });
    // The CLI's JSON export is the documented format for saved histories.
    const binary = await locateTemporalBinary();
    const save = async (workflowId: string, name: string) => {
      const shown = await execa(binary, ['workflow', 'show', '--output', 'json', '--address', temporal.address, '--workflow-id', workflowId]);
      await writeFile(join(fixtures, `${name}.json`), `${JSON.stringify(JSON.parse(shown.stdout), null, 1)}\n`);
    };
    const { spec } = await harness.runCase('hello', builtinCandidate(harness.mock));
    await save(spec.runId, 'evalRunWorkflow');
    const aborted = await harness.runCase('blocked', builtinCandidate(harness.mock));
    await save(aborted.spec.runId, 'evalRunWorkflow-aborted');
    const doubt = await harness.specFor('doubt', builtinCandidate(harness.mock), { judging: { samples: 1, review: 'wait', allowSelfJudge: false } });
    const waiting = await harness.client.workflow.start('evalRunWorkflow', { taskQueue: SHARED_TASK_QUEUE, workflowId: doubt.runId, args: [doubt] });
    const decision = { result: 'pass' as const, author: 'recorder', note: 'goodbye is said in turn 1', decidedAt: '2026-01-01T00:00:00.000Z' };
    // Refused (not waiting yet) until the run has recorded needs_review; refusals leave no trace in the history.
    for (;;) {
      const sent = await waiting.executeUpdate(reviewRunUpdate, { args: [decision] }).catch(() => null);
      if (sent) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await waiting.result();
    await save(doubt.runId, 'evalRunWorkflow-review');
    await harness.client.workflow.execute('rejudgeWorkflow', { workflowId: `rejudge-${spec.runId}`, taskQueue: SHARED_TASK_QUEUE, args: [{ runId: spec.runId }] });
    await save(`rejudge-${spec.runId}`, 'rejudgeWorkflow');
    const hello = await loadEvalCase(join(harness.casesDir, 'hello'));
    const input: BatchInput = {
      batchId: 'batch-20260101T000000-replay',
      stamp: '20260101T000000',
      selection: { paths: [harness.casesDir], only: ['hello'], runsPerCase: 2, digest: selectionDigest([hello]) },
      total: null,
      template: { candidate: builtinCandidate(harness.mock), examiner: spec.examiner, judge: spec.judge, project: spec.project, workflowDir: spec.workflowDir, runsDir: spec.runsDir, turnTimeoutS: 60 },
      parallelism: 2,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    await harness.client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    await save(input.batchId, 'evalBatchWorkflow');
    // A schedule's firing, started as its schedule would (without one: the start time stands in for the due time).
    const scheduled: ScheduledBatchInput = {
      schedule: 'replay',
      timing: { every: '24h' },
      selection: { paths: [harness.casesDir], only: ['hello'], runsPerCase: 1 },
      template: input.template,
      parallelism: 1,
      summaries: { dir: join(harness.root, 'summaries'), prices: {} },
      baseline: 'previous',
      priorityKey: SCHEDULED_PRIORITY,
    };
    await harness.client.workflow.execute('scheduledBatchWorkflow', { workflowId: 'scheduled-replay-2026-01-01T00:00:00Z', taskQueue: SHARED_TASK_QUEUE, args: [scheduled] });
    await save('scheduled-replay-2026-01-01T00:00:00Z', 'scheduledBatchWorkflow');
  } finally {
    await harness.close();
    await temporal.stop();
  }
}
