import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, type Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalBank } from '../../src/evalset/index.js';
import type { BatchResult } from '../../src/run/batchInput.js';
import { saveCaseSet } from '../../src/run/caseFolder.js';
import type { Store } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import type { CrashFixture } from '../support/crashFixture.js';
import { startCrashHarness, type CrashHarness } from '../support/crashHarness.js';

/**
 * A worker host with nothing at the client's paths: its own working folder and HOME, no copy
 * of the eval bank (the client's is moved away once the batch's cases are saved), and a runs
 * dir of its own. The batch's cases travel through the store; the batch completes there.
 */
describe('evalflow worker without the eval bank', () => {
  let harness: CrashHarness;
  let fixture: CrashFixture;
  let store: Store;
  let connection: Connection;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    harness = await startCrashHarness({
      models: { examiner: 'travel-examiner', judge: 'travel-judge' },
      modelDelayMs: 0,
      agentTurn: ['echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"'],
      progressPostcondition: false,
    });
    ({ fixture, store, connection } = harness);
  }, 180_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await harness?.close();
  });

  it('plans and runs the batch from the cases the client saved, writing run dirs where the worker says', async () => {
    const bank = join(fixture.root, 'eval_sets');
    const input = fixture.batchInput({ name: 'travel', stamp: '20260503T000000', runsPerCase: 1, parallelism: 1, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 300 } });
    // The client's side: validate the bank, save its cases, then the bank is gone from the client's path.
    const { cases, problems } = await loadEvalBank([bank]);
    expect(problems).toEqual([]);
    input.selection.caseSet = await saveCaseSet(store, cases);
    await rename(bank, join(fixture.root, 'bank-moved-away'));

    const elsewhere = join(fixture.root, 'host-t');
    await mkdir(join(elsewhere, 'home'), { recursive: true });
    const hostRuns = join(elsewhere, 'runs');
    worker = startCli(['worker', '--slots', '1'], {
      cwd: elsewhere,
      env: { ...fixture.env, HOME: join(elsewhere, 'home'), EVALFLOW_HOME: join(elsewhere, '.evalflow'), EVALFLOW_SANDBOX_ROOT: join(elsewhere, 'sandboxes'), EVALFLOW_HOST_ID: 'host-t', EVALFLOW_RUNS_DIR: hostRuns },
    });
    await worker.waitForLine(/^worker on /, 150_000);

    const client = new Client({ connection });
    const result = (await client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] })) as BatchResult;
    expect(result.counts).toMatchObject({ finished: 1, completed: 1 });
    const [run] = await store.listRuns({ batchId: input.batchId });
    // The run dir is the worker's, recorded in the store; nothing was written at the client's runs dir.
    expect(run?.run_dir).toBe(join(hostRuns, run!.run_id));
    expect(existsSync(join(run!.run_dir, 'config.yaml'))).toBe(true);
    expect(existsSync(input.template.runsDir)).toBe(false);
    // The run keeps the client's case folder as its identity.
    expect((run?.spec as { evalCase?: { dir?: string } }).evalCase?.dir).toBe(cases[0]!.dir);
  }, 400_000);
});
