import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { generationOf } from '../../src/transcript/attempts.js';
import { loggedAgentTurn, turnStarts, until } from '../support/agentLog.js';
import { useCrashHarness } from '../support/useCrashHarness.js';

/**
 * The case's cleanup on host A holds until `$log/release` exists (at most 5 minutes), after
 * logging `cleanup <sandbox>`: host A is killed while its run cleans up, before it records.
 */
const CLEANUP_HELD_ON_A = [
  'echo "cleanup $(pwd)" >> "$log/agent.log"',
  'case "$(pwd)" in *sandboxes-host-a*) for i in $(seq 1500); do [ -f "$log/release" ] && break; sleep 0.2; done;; esac',
];

/**
 * A host killed while its run cleans up and records, after the stages: the run's record task
 * waits on the dead host's queue for `hostLostAfterS`, then the run moves to a live host as
 * a run lost during its stages does, starting again from prepare as a new generation, and is
 * recorded there; its workflow does not fail.
 */
describe('a run whose host is lost in cleanup and record', () => {
  const crash = useCrashHarness(
    {
      models: { examiner: 'end-examiner', judge: 'end-judge' },
      modelDelayMs: 0,
      agentTurn: loggedAgentTurn(0),
      progressPostcondition: true,
      postRunCleanup: CLEANUP_HELD_ON_A,
    },
    // The cleanup command the killed host left behind may end.
    { beforeClose: (harness) => writeFile(join(harness.fixture.root, 'log', 'release'), '') },
  );

  it('moves the run to the live host, restarts it from prepare there and records it passed, with the loss said once', async () => {
    const harness = crash();
    const { fixture, store, connection } = harness;
    const hostA = await harness.startWorker('host-a', ['--slots', '2']);
    const input = fixture.batchInput({ name: 'end', stamp: '20260402T000000', runsPerCase: 1, parallelism: 1, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 5 } });
    const client = new Client({ connection });
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const cleaningOnA = () => fixture.agentLog().filter((l) => l.startsWith('cleanup ') && l.includes('sandboxes-host-a'));
    expect(await until(() => cleaningOnA().length > 0, 120_000)).toBe(true);
    // Host B serves before A dies, so the run's workflow task has a worker to go to.
    await harness.startWorker('host-b', ['--slots', '2']);
    hostA.kill('SIGKILL');
    await hostA.exited;
    const runId = fixture.agentLog().find((l) => l.startsWith('start '))!.split(' ')[1]!;
    expect(turnStarts(fixture.agentLog(), 'host-a').map((l) => l.split(' ')[2])).toEqual(['1', '2']);

    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: 1, passed: 1, completed: 1 });
    // The run's own workflow completed: the batch did not record a failed workflow in its stead.
    expect((await client.workflow.getHandle(runId).describe()).status.name).toBe('COMPLETED');

    const run = await store.getRun(runId);
    expect(run).toMatchObject({ status: 'completed', result: 'pass', error: null });
    // The loss is said by the host_lost anomaly alone, not again as a failed cleanup.
    expect(run?.anomalies.filter((a) => a.kind === 'host_lost' || a.kind === 'cleanup')).toEqual([{ kind: 'host_lost', host: 'host-a', stage: 'cleanup', restartedOn: 'host-b' }]);
    expect((await store.getRunHosts([runId])).map((c) => [c.generation, c.host_id])).toEqual([
      [0, 'host-a'],
      [1, 'host-b'],
    ]);
    // Generation 1 ran every stage again on host B, its files there.
    expect(turnStarts(fixture.agentLog(), 'host-b').map((l) => l.split(' ')[2])).toEqual(['1', '2']);
    expect((await readEnvChecklist(resolve(fixture.root, run!.run_dir)))?.host.id).toBe('host-b');
    const events = await store.getTranscript(runId, { attempts: 'all' });
    expect(new Set(events.map((e) => generationOf(e.attempt)))).toEqual(new Set([0, 1]));
  }, 240_000);
});
