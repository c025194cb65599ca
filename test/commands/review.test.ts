import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowUpdateStage } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as review } from '../../src/commands/review.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { reviewRunUpdate } from '../../src/workflows/definitions.js';
import { builtinCandidate, type EvalHarness } from '../support/evalHarness.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';
import { createReviewHarness } from '../support/reviewCase.js';

const WAIT = { judging: { samples: 1, review: 'wait' as const, allowSelfJudge: false } };

describe('evalflow review, with runs waiting in their workflow and runs recorded', () => {
  let temporal: TestTemporal;
  let harness: EvalHarness;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    harness = await createReviewHarness(temporal);
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      EVALFLOW_HOME: join(harness.root, '.evalflow'),
      EVALFLOW_TEMPORAL_PORT: String(temporal.port),
      EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
      EVALFLOW_REVIEWER: 'alice',
      ...harness.storeEnv,
    };
  });
  afterAll(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  const start = async (overrides: Partial<RunSpec>) => {
    const spec = await harness.specFor('write-greeting', builtinCandidate(harness.mock), overrides);
    const handle = await harness.client.workflow.start('evalRunWorkflow', { taskQueue: SHARED_TASK_QUEUE, workflowId: spec.runId, args: [spec] });
    return { spec, handle };
  };

  /**
   * `evalflow review --pending` until it lists the run, and (given `until`) until its line says
   * that: the store has the run's row a moment before the workflow's search attributes say it
   * waits, and visibility is eventually consistent.
   */
  const pendingLine = async (runId: string, until?: RegExp): Promise<string> => {
    let last: string | undefined;
    for (let i = 0; i < 100; i++) {
      const io = memoryIo(harness.root, env);
      expect(await review({ pending: true }, io)).toBe(0);
      last = io.stdout.find((l) => l.startsWith(runId)) ?? last;
      if (last && (!until || until.test(last))) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (last) return last;
    throw new Error(`${runId} never listed as pending`);
  };

  it('--review wait: the run waits (listed, its current details say so), survives new workers, and completes with the decision', { timeout: 120_000 }, async () => {
    const { spec, handle } = await start(WAIT);
    const waiting = new RegExp(`^${spec.runId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+write-greeting\\s+waiting\\s+pass\\s+hard requirement not assessed by the judge in 3 requests: 2\\. The candidate checked`);
    expect(await pendingLine(spec.runId, waiting)).toMatch(waiting);
    // What the Web UI shows as the run's current details: the SDK's metadata query (describe() carries no current details).
    const metadata = (await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata')).currentDetails;
    expect(metadata).toBe(
      `waiting for a person's review: hard requirement not assessed by the judge in 3 requests: 2. The candidate checked the file with a shell command. Decide with: evalflow review ${spec.runId} --result pass|fail --note "why"`,
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'needs_review', result: null });

    await harness.restartWorkers();

    const io = memoryIo(harness.root, env);
    expect(await review({ runId: spec.runId, result: 'pass', note: 'turn 1 ran cat greeting.txt' }, io)).toBe(0);
    expect(io.stdout).toEqual([`${spec.runId}: completed pass, decided by alice (recorded by its waiting workflow, beside the judge's verdict)`]);
    expect((await handle.result()) as RunOutcome).toMatchObject({ status: 'completed', result: 'pass', overall: 4 });
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'completed', result: 'pass', error: null });
    expect(await harness.store.getReview(spec.runId)).toMatchObject({ result: 'pass', author: 'alice', note: 'turn 1 ran cat greeting.txt', judge_result: 'pass' });
    expect((await harness.store.getScore(spec.runId))?.hard_requirements.map((item) => item.met)).toEqual([true, null]);
    const file = await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8');
    expect(file).toContain("— PASS (a person's decision; the judge said pass)");
    expect(file).toContain('- Decision: pass, by alice, ');

    // The workflow has ended: a second decision goes to the store, which refuses it.
    await expect(review({ runId: spec.runId, result: 'fail', note: 'changed my mind' }, memoryIo(harness.root, { ...env, EVALFLOW_REVIEWER: 'bob' }))).rejects.toThrow(
      new RegExp(`^run ${spec.runId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} already has a person's decision: pass by alice at .* \\("turn 1 ran cat greeting.txt"\\); a second decision is refused$`),
    );
  });

  it('a second decision sent to a waiting run is refused by its workflow, with the same words', { timeout: 120_000 }, async () => {
    const { spec, handle } = await start(WAIT);
    await pendingLine(spec.runId, /\s+waiting\s+/);
    const first = await handle.startUpdate(reviewRunUpdate, {
      args: [{ result: 'fail', author: 'carol', note: 'the check was not run', decidedAt: '2026-03-01T10:00:00.000Z' }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    await expect(review({ runId: spec.runId, result: 'pass', note: 'looks fine' }, memoryIo(harness.root, env))).rejects.toThrow(
      `run ${spec.runId} already has a person's decision: fail by carol at 2026-03-01T10:00:00.000Z ("the check was not run"); a second decision is refused`,
    );
    expect(await first.result()).toMatchObject({ status: 'completed', result: 'fail' });
    expect(await harness.store.getReview(spec.runId)).toMatchObject({ author: 'carol', result: 'fail' });
  });

  it('without --review wait, the run records needs_review and ends; the decision is recorded in the store afterwards', { timeout: 120_000 }, async () => {
    const { spec, handle } = await start({});
    expect(await handle.result()).toMatchObject({ status: 'needs_review', result: null });
    const recorded = /\s+recorded\s+pass\s+hard requirement not assessed/;
    expect(await pendingLine(spec.runId, recorded)).toMatch(recorded);
    const io = memoryIo(harness.root, env);
    expect(await review({ runId: spec.runId, result: 'fail', note: 'no shell check in the transcript' }, io)).toBe(0);
    expect(io.stdout).toEqual([`${spec.runId}: completed fail, decided by alice (recorded in the store beside the judge's verdict; review.md rewritten)`]);
    expect(await harness.store.getRun(spec.runId)).toMatchObject({ status: 'completed', result: 'fail', overall: 4 });
    expect(await readFile(join(harness.runsDir, spec.runId, 'review.md'), 'utf8')).toContain("— FAIL (a person's decision; the judge said pass)");
    const listed = memoryIo(harness.root, env);
    await review({ pending: true }, listed);
    expect(listed.stdout.some((l) => l.startsWith(spec.runId))).toBe(false);
  });

  it('refuses a decision without its result or note, and one for a run not in the store', async () => {
    const io = memoryIo(harness.root, env);
    await expect(review({ runId: 'run-x', note: 'n' }, io)).rejects.toThrow('evalflow review run-x needs --result pass or --result fail');
    await expect(review({ runId: 'run-x', result: 'pass' }, io)).rejects.toThrow('evalflow review run-x needs --note "why": the note is kept beside the decision');
    await expect(review({ result: 'pass', note: 'n' }, io)).rejects.toThrow('evalflow review needs a RUN_ID (or --pending to list the runs that need a review)');
    await expect(review({ runId: 'run-nope@20200101T000000', result: 'pass', note: 'n' }, io)).rejects.toThrow('no run run-nope@20200101T000000 in the store');
  });
});
