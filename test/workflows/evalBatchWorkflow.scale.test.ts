import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostStageActivities, type HostStages } from '../../src/activities/hostStages.js';
import type { Activities } from '../../src/activities/index.js';
import type { BatchCounts, BatchInput } from '../../src/run/batchInput.js';
import type { RunRecordInput } from '../../src/run/runRecord.js';
import type { RunSpec, RunTemplate } from '../../src/run/runSpec.js';
import { hostTaskQueue, SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { installQuietRuntime } from '../../src/temporal/runtime.js';
import { workflowBundle } from '../../src/temporal/workflowBundle.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const RUNS = 2_000;
/** The test's own dev server: its shared queue serves the batch, its children and the stubs. */
const QUEUE = SHARED_TASK_QUEUE;
/** The one worker's host: its runs' host stages run inside their workflow tasks. */
const HOST = 'scale-host';

/**
 * Orchestration only: the real evalBatchWorkflow and evalRunWorkflow on the real dev server,
 * with stub activities (each run is trivial: prepared, then aborted by its setup), to prove a
 * batch of thousands plans from the store in pages and continues as new on its own.
 */
describe('evalBatchWorkflow at scale', () => {
  let temporal: TestTemporal;
  let native: NativeConnection;
  let connection: Connection;
  const recorded = new Map<string, number>();
  let closed: { status: string; counts: BatchCounts } | undefined;
  let plannedPages = 0;

  beforeAll(async () => {
    installQuietRuntime();
    temporal = await startTestTemporal();
    native = await NativeConnection.connect({ address: temporal.address });
    connection = await Connection.connect({ address: temporal.address });
  });
  afterAll(async () => {
    await native?.close();
    await connection?.close();
    await temporal?.stop();
  });

  it(`runs ${RUNS} trivial runs of one batch through continue-as-new, each exactly once`, async () => {
    const spec = (i: number): RunSpec => ({
      runId: `run-case-${i}-stub@20260101T000000`,
      batchId: 'batch-scale',
      evalCase: {
        id: `case-${i}`, version: 'v1', hash: 'h', dir: '/bank', maxTurns: 1, targetWorkflow: 't', category: 'c',
        task: { prompt: 'p', scenario: 's', guidance: 'g' },
        rubric: { hard: ['x'], quality: [], commonFailures: [] },
        env: { setup_commands: [], preconditions: [], post_run_cleanup: [], postconditions: [] },
      },
      candidate: { name: 'stub', adapter: 'stub', args: [], env: {} },
      examiner: { model: 'e' },
      judge: { model: 'j' },
      project: '/p', workflowDir: '/w', runsDir: '/r', turnTimeoutS: 60, createdAt: '2026-01-01T00:00:00.000Z',
    });
    const stubs: Partial<Activities> = {
      claimHost: async () => hostTaskQueue(HOST),
      planBatch: async () => ({ total: RUNS }),
      planRuns: async ({ offset, limit }) => {
        plannedPages += 1;
        return Array.from({ length: Math.max(0, Math.min(limit, RUNS - offset)) }, (_, i) => spec(offset + i));
      },
      updateBatchCounts: async () => undefined,
      closeBatch: async (request) => {
        closed = request;
      },
      prepareRun: async () => ({ runDir: '/r', sandboxDir: '/s', workflowRev: 'rev' }),
      setupSandbox: async () => ({ aborted: true, reason: 'trivial' }),
      cleanupRun: async () => ({ anomalies: [], parked: false }),
      recordRun: async (input: RunRecordInput) => {
        recorded.set(input.spec.runId, (recorded.get(input.spec.runId) ?? 0) + 1);
        return { runId: input.spec.runId, caseId: input.spec.evalCase.id, status: input.status, result: null, overall: null, runDir: '/r', anomalies: [] };
      },
      markRunFailed: async () => false,
    };
    Object.assign(stubs, hostStageActivities(HOST, stubs as HostStages));
    const worker = await Worker.create({
      connection: native,
      taskQueue: QUEUE,
      // The product's bundle of the same sources, cached on disk: bundling again costs seconds.
      workflowBundle: await workflowBundle(),
      activities: stubs as Activities,
      maxConcurrentWorkflowTaskExecutions: 100,
    });
    const client = new Client({ connection });
    const template: RunTemplate = { candidate: spec(0).candidate, examiner: spec(0).examiner, judge: spec(0).judge, project: '/p', workflowDir: '/w', runsDir: '/r', turnTimeoutS: 60 };
    const input: BatchInput = {
      batchId: 'batch-scale',
      stamp: '20260101T000000',
      selection: { paths: ['/bank'], runsPerCase: 1, digest: 'sha256:stub' },
      template,
      parallelism: 100,
      // Below the default (8,000 events), which a batch that starts and ends its runs in few
      // workflow tasks may not reach in 2,000 runs: this test is about continuing as new.
      continueAsNewAfterEvents: 2_000,
      total: null,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    const handle = await worker.runUntil(async () => {
      const started = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: QUEUE, args: [input] });
      await started.result();
      return started;
    });

    expect(recorded.size).toBe(RUNS);
    expect([...recorded.values()].every((n) => n === 1)).toBe(true);
    expect(closed).toMatchObject({ status: 'failed', counts: { finished: RUNS, aborted: RUNS } });
    expect(plannedPages).toBe(RUNS / 100);
    // The first execution continued as new: its history did not have to hold all 2,000 children.
    const first = await client.workflow.getHandle(input.batchId, handle.firstExecutionRunId).fetchHistory();
    expect(first.events?.some((e) => e.workflowExecutionContinuedAsNewEventAttributes)).toBe(true);
    const description = await handle.describe();
    expect(description.runId).not.toBe(handle.firstExecutionRunId);
  }, 600_000);
});
