import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import type { RunRecordInput } from '../../src/run/runRecord.js';
import { hostTaskQueue, SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { installQuietRuntime } from '../../src/temporal/runtime.js';
import { workflowBundle } from '../../src/temporal/workflowBundle.js';
import { stubRunActivities, stubRunSpec, type StubStage } from '../support/stubStages.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const RECOVERY = { modelOutageS: 60, hostLostAfterS: 2 };

/**
 * A host lost while its run records, with stub stages on the real dev server: the run names
 * host `lost` (a host queue only), whose worker stops polling as its record stage starts; host
 * `live` runs the workflows and has a host queue too. The record task then waits on the lost
 * host's queue for `hostLostAfterS` and the run moves to `live`.
 */
describe('a run whose host is lost while it records', () => {
  let temporal: TestTemporal;
  let native: NativeConnection;
  let connection: Connection;
  let client: Client;
  const running: Promise<void>[] = [];
  let stopLive: () => void;
  /** `<host>:<stage>` for every stage run, in order. */
  const ran: string[] = [];
  /** What each record stage was handed, by host. */
  const records: { host: string; input: RunRecordInput }[] = [];

  const stub = (host: string, also: (name: string) => Promise<void> = async () => {}): StubStage => async (name, value, input) => {
    ran.push(`${host}:${name}`);
    if (name === 'recordRun') records.push({ host, input: input as RunRecordInput });
    await also(name);
    return value;
  };

  beforeAll(async () => {
    installQuietRuntime();
    temporal = await startTestTemporal();
    native = await NativeConnection.connect({ address: temporal.address });
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection });
    const live = stubRunActivities('live', stub('live'));
    const workers = [
      await Worker.create({ connection: native, taskQueue: SHARED_TASK_QUEUE, workflowBundle: await workflowBundle(process.env), activities: live }),
      await Worker.create({ connection: native, taskQueue: hostTaskQueue('live'), activities: live }),
    ];
    const stopped = new Promise<void>((resolve) => (stopLive = resolve));
    running.push(...workers.map((worker) => worker.runUntil(stopped)));
  }, 120_000);
  afterAll(async () => {
    stopLive?.();
    await Promise.all(running);
    await native?.close();
    await connection?.close();
    await temporal?.stop();
  });

  /**
   * Host `hostId`'s queue worker: its record stage stops the worker and fails, so that the
   * stage's retry waits on a queue nobody polls. `gate` holds its verify stage until it settles.
   */
  async function startLostHost(hostId: string, gate: Promise<void> = Promise.resolve()): Promise<void> {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const activities = stubRunActivities(
      hostId,
      stub(hostId, async (name) => {
        if (name === 'verifyRun') await gate;
        if (name !== 'recordRun') return;
        stop();
        throw new Error(`host ${hostId} goes away`);
      }),
    );
    const worker = await Worker.create({ connection: native, taskQueue: hostTaskQueue(hostId), activities });
    running.push(worker.runUntil(stopped));
  }

  /** The stages run since `from`, a stage tried again in a row said once. */
  const since = (from: number) => ran.slice(from).filter((step, i, steps) => step !== steps[i - 1]);

  it('restarts the run from prepare on a live host as a new generation and records it there, its workflow completed', async () => {
    await startLostHost('lost-1');
    const from = ran.length;
    const spec = stubRunSpec('run-record-lost', { host: 'lost-1', recovery: RECOVERY });
    const outcome = (await client.workflow.execute('evalRunWorkflow', { workflowId: spec.runId, taskQueue: SHARED_TASK_QUEUE, args: [spec] })) as RunOutcome;
    expect(outcome).toMatchObject({ runId: spec.runId, status: 'completed' });
    expect(since(from)).toEqual([
      ...['lost-1:prepareRun', 'lost-1:setupSandbox', 'live:examinerTurn', 'lost-1:candidateTurn', 'lost-1:verifyRun', 'live:judgeRun', 'lost-1:cleanupRun', 'lost-1:recordRun'],
      ...['live:prepareRun', 'live:setupSandbox', 'live:examinerTurn', 'live:candidateTurn', 'live:verifyRun', 'live:judgeRun', 'live:cleanupRun', 'live:recordRun'],
    ]);
    const recorded = records.filter((r) => r.input.spec.runId === spec.runId && r.host === 'live');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.input).toMatchObject({ status: 'completed', error: null });
    expect(recorded[0]!.input.anomalies).toEqual([{ kind: 'host_lost', host: 'lost-1', stage: 'record', restartedOn: 'live' }]);
    // The judge of the new generation is attempt 2.
    const events = (await client.workflow.getHandle(spec.runId).fetchHistory()).events ?? [];
    const judged = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'judgeRun');
    expect(judged.map((e) => e.userMetadata?.summary && defaultPayloadConverter.fromPayload<string>(e.userMetadata.summary))).toEqual(['judge', 'judge · attempt 2']);
  }, 120_000);

  it('records a cancelled run on a live host without running a stage again, still cancelled', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    await startLostHost('lost-2', gate);
    const from = ran.length;
    const spec = stubRunSpec('run-cancelled-record-lost', { host: 'lost-2', recovery: RECOVERY });
    const handle = await client.workflow.start('evalRunWorkflow', { workflowId: spec.runId, taskQueue: SHARED_TASK_QUEUE, args: [spec] });
    const deadline = Date.now() + 30_000;
    while (!ran.slice(from).includes('lost-2:verifyRun') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await handle.cancel();
    open();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(since(from)).toEqual([
      ...['lost-2:prepareRun', 'lost-2:setupSandbox', 'live:examinerTurn', 'lost-2:candidateTurn', 'lost-2:verifyRun', 'lost-2:cleanupRun', 'lost-2:recordRun'],
      ...['live:cleanupRun', 'live:recordRun'],
    ]);
    const recorded = records.filter((r) => r.input.spec.runId === spec.runId && r.host === 'live');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.input).toMatchObject({ status: 'cancelled', error: 'the run was cancelled' });
    expect(recorded[0]!.input.anomalies).toEqual([{ kind: 'host_lost', host: 'lost-2', stage: 'record', restartedOn: null }]);
  }, 120_000);
});
