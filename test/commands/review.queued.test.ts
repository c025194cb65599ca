import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as review } from '../../src/commands/review.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import { searchAttributes, SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { builtinCandidate, type EvalHarness } from '../support/evalHarness.js';
import { startRestartableTemporal, type RestartableTemporal } from '../support/temporalServer.js';
import { createReviewHarness } from '../support/reviewCase.js';

const WAIT = { judging: { samples: 1, review: 'wait' as const, allowSelfJudge: false } };

describe('evalflow review with no worker running: the decision is queued, not waited on forever', () => {
  let temporal: RestartableTemporal;
  let harness: EvalHarness;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startRestartableTemporal();
    harness = await createReviewHarness({ address: temporal.address, namespace: 'default' });
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      EVALFLOW_HOME: join(harness.root, '.evalflow'),
      TEMPORAL_ADDRESS: temporal.address,
      EVALFLOW_REVIEWER: 'dana',
      ...harness.storeEnv,
    };
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  it('queues the decision in the run history, which survives a server restart and is recorded once a worker runs', { timeout: 180_000 }, async () => {
    const spec = await harness.specFor('write-greeting', builtinCandidate(harness.mock), WAIT);
    const handle = await harness.client.workflow.start('evalRunWorkflow', { taskQueue: SHARED_TASK_QUEUE, workflowId: spec.runId, args: [spec] });
    await expect.poll(async () => (await harness.store.getRun(spec.runId))?.status, { timeout: 60_000, interval: 200 }).toBe('needs_review');
    await expect.poll(async () => (await handle.describe()).typedSearchAttributes.get(searchAttributes.status), { timeout: 30_000, interval: 200 }).toBe('needs_review');

    await harness.workers.shutdown();
    await harness.workers.done;

    const io = memoryIo(harness.root, env);
    expect(await review({ runId: spec.runId, result: 'pass', note: 'checked by hand', wait: 2 }, io)).toBe(0);
    expect(io.stdout).toEqual([
      `${spec.runId}: decision queued (pass by dana): no worker took it within 2s. It is kept in the run's Temporal history, survives a server restart, and is recorded when a worker runs (\`evalflow worker\`, or the \`evalflow run\` that started the run)`,
    ]);
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'needs_review' });

    // A crash of the server before any worker took the decision loses nothing.
    await temporal.kill();
    await temporal.restart();
    await harness.restartWorkers();

    expect((await handle.result()) as RunOutcome).toMatchObject({ status: 'completed', result: 'pass' });
    expect(await harness.store.getReview(spec.runId)).toMatchObject({ result: 'pass', author: 'dana', note: 'checked by hand' });
  });

  it('refuses to queue for a run that does not wait for a review yet, and queues nothing', { timeout: 60_000 }, async () => {
    await harness.workers.shutdown();
    await harness.workers.done;
    const spec = await harness.specFor('write-greeting', builtinCandidate(harness.mock), WAIT);
    const handle = await harness.client.workflow.start('evalRunWorkflow', { taskQueue: SHARED_TASK_QUEUE, workflowId: spec.runId, args: [spec] });
    await expect(review({ runId: spec.runId, result: 'fail', note: 'too early', wait: 1 }, memoryIo(harness.root, env))).rejects.toThrow(
      `${spec.runId}: no worker took the decision within 1s, and the run does not wait for a review yet (it is still running its stages); nothing was queued. Start a worker (\`evalflow worker\`) and decide once the run waits`,
    );
    const history = await handle.fetchHistory();
    expect(history.events?.some((e) => e.workflowExecutionSignaledEventAttributes)).toBe(false);
    await handle.terminate('test over');
  });
});
