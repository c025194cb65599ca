import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import { hostTaskQueue, SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { installQuietRuntime } from '../../src/temporal/runtime.js';
import { workflowBundle } from '../../src/temporal/workflowBundle.js';
import { stubRunActivities, stubRunSpec } from '../support/stubStages.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const HOST_STAGES = ['prepareRun', 'setupSandbox', 'verifyRun', 'cleanupRun', 'recordRun'];

/**
 * Where a run's host stages run: inside the workflow task when the worker running it is the
 * run's host, on the host's queue when it is not. Stub stages on the real dev server, with two
 * hosts: `here` (the workflow worker and its host queue) and `there` (a host queue only).
 */
describe("a run's host stages", () => {
  let temporal: TestTemporal;
  let native: NativeConnection;
  let connection: Connection;
  let client: Client;
  let workers: Worker[];
  let done: Promise<unknown>;
  let stop: () => void;
  /** `<host>:<stage>` for every stage run, in order. */
  const ran: string[] = [];

  beforeAll(async () => {
    installQuietRuntime();
    temporal = await startTestTemporal();
    native = await NativeConnection.connect({ address: temporal.address });
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection });
    const on = (host: string) => stubRunActivities(host, async (name, value) => {
      ran.push(`${host}:${name}`);
      return value;
    });
    workers = [
      await Worker.create({ connection: native, taskQueue: SHARED_TASK_QUEUE, workflowBundle: await workflowBundle(process.env), activities: on('here') }),
      await Worker.create({ connection: native, taskQueue: hostTaskQueue('here'), activities: on('here') }),
      await Worker.create({ connection: native, taskQueue: hostTaskQueue('there'), activities: on('there') }),
    ];
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    done = Promise.all(workers.map((worker) => worker.runUntil(stopped)));
  }, 120_000);
  afterAll(async () => {
    stop?.();
    await done;
    await native?.close();
    await connection?.close();
    await temporal?.stop();
  });

  const historyOf = async (runId: string) => (await client.workflow.getHandle(runId).fetchHistory()).events ?? [];

  it('runs them inside the workflow task on the host the run claimed: no round trip through a queue', async () => {
    ran.length = 0;
    const outcome = (await client.workflow.execute('evalRunWorkflow', { workflowId: 'run-here', taskQueue: SHARED_TASK_QUEUE, args: [stubRunSpec('run-here')] })) as RunOutcome;
    expect(outcome).toMatchObject({ runId: 'run-here', status: 'completed' });
    expect(ran).toEqual(['here:prepareRun', 'here:setupSandbox', 'here:examinerTurn', 'here:candidateTurn', 'here:verifyRun', 'here:judgeRun', 'here:cleanupRun', 'here:recordRun']);
    const events = await historyOf('run-here');
    const queued = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : []));
    expect(queued).toEqual(['examinerTurn', 'candidateTurn', 'examinerTurn', 'judgeRun']);
    // The five host stages are local activities, each a marker of the run's history; the first also claims the host.
    expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(HOST_STAGES.length);
  });

  it('sends them to the host queue when the worker running the workflow task is not the host, asking locally only once', async () => {
    ran.length = 0;
    const spec = stubRunSpec('run-there', { host: 'there' });
    const outcome = (await client.workflow.execute('evalRunWorkflow', { workflowId: 'run-there', taskQueue: SHARED_TASK_QUEUE, args: [spec] })) as RunOutcome;
    expect(outcome).toMatchObject({ runId: 'run-there', status: 'completed' });
    // The examiner and judge run on the shared queue (here); everything on the sandbox's host, there.
    expect(ran).toEqual(['there:prepareRun', 'there:setupSandbox', 'here:examinerTurn', 'there:candidateTurn', 'there:verifyRun', 'here:judgeRun', 'there:cleanupRun', 'there:recordRun']);
    const events = await historyOf('run-there');
    const queued = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [`${e.activityTaskScheduledEventAttributes.activityType?.name}@${e.activityTaskScheduledEventAttributes.taskQueue?.name}`] : []));
    expect(queued.filter((name) => HOST_STAGES.some((stage) => name.startsWith(`${stage}@`)))).toEqual(HOST_STAGES.map((stage) => `${stage}@${hostTaskQueue('there')}`));
    // One refusal, recorded as the one local activity's failure; no claim (the run names its host).
    const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(markers).toHaveLength(1);
    expect(markers[0]!.markerRecordedEventAttributes?.failure?.cause?.applicationFailureInfo?.type ?? markers[0]!.markerRecordedEventAttributes?.failure?.applicationFailureInfo?.type).toBe('OtherHostError');
  });
});
