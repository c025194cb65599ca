import { resolve } from 'node:path';
import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { RUN_STATUSES } from '../../src/vocabulary/runStates.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { generationOf } from '../../src/transcript/attempts.js';
import { loggedAgentTurn, turnStarts, until } from '../support/agentLog.js';
import type { CliProcess } from '../support/cliProcess.js';
import { useCrashHarness } from '../support/useCrashHarness.js';

const RUNS = 8;

/**
 * Two workers with different host ids share a batch; one host is killed for good. Its runs
 * wait for it for the run's `hostLostAfterS`, then start again from prepare on the other
 * host: at most twice, recorded, never two live attempts of one run.
 */
describe('a batch that loses a host', () => {
  const crash = useCrashHarness({
    models: { examiner: 'lost-examiner', judge: 'lost-judge' },
    modelDelayMs: 0,
    agentTurn: loggedAgentTurn(2, { overlaps: true }),
    progressPostcondition: true,
  });

  async function startWorker(hostId: string): Promise<CliProcess> {
    // Slots for the whole window: the default (the machine's cores) would hold runs back from host A.
    return crash().startWorker(hostId, ['--slots', '6']);
  }

  it("restarts the lost host's runs on the other host, from prepare, once each, with the loss recorded", async () => {
    const { fixture, store, connection } = crash();
    // Host A alone first, so that runs are certain to live there; then host B joins.
    const hostA = await startWorker('host-a');
    const input = fixture.batchInput({ name: 'lost', stamp: '20260401T000000', runsPerCase: RUNS, parallelism: 6, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 5 } });
    const client = new Client({ connection });
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    // Kill host A for good once its agents are at work.
    const onA = () => turnStarts(fixture.agentLog(), 'host-a');
    await until(() => onA().length >= 3, 60_000);
    expect(onA().length).toBeGreaterThanOrEqual(3);
    await startWorker('host-b');
    hostA.kill('SIGKILL');
    await hostA.exited;
    // The runs host A had begun and not recorded: a run may end on A while B starts.
    const recordedOnA = new Set((await store.listRuns({ batchId: input.batchId })).filter((r) => (RUN_STATUSES as readonly string[]).includes(r.status)).map((r) => r.run_id));
    const workedOnA = [...new Set(onA().map((l) => l.split(' ')[1]!))].filter((runId) => !recordedOnA.has(runId));
    expect(workedOnA.length).toBeGreaterThan(0);

    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });
    expect(fixture.agentLog().filter((l) => l.startsWith('overlap '))).toEqual([]);
    const runs = await store.listRuns({ batchId: input.batchId });
    const restarted = runs.filter((r) => r.anomalies.some((a) => a.kind === 'host_lost')).map((r) => r.run_id);
    expect(restarted).toEqual(expect.arrayContaining(workedOnA));
    for (const runId of restarted) {
      const run = await store.getRun(runId);
      expect(run?.anomalies, runId).toContainEqual({ kind: 'host_lost', host: 'host-a', stage: expect.any(String), restartedOn: 'host-b' });
      // The workers keep run dirs relative to their workspace, the fixture's root.
      expect((await readEnvChecklist(resolve(fixture.root, run!.run_dir)))?.host.id).toBe('host-b');
      // The transcript the judge saw is the new generation's; the lost one stays in the store.
      const events = await store.getTranscript(runId, { attempts: 'all' });
      expect(new Set(events.map((e) => generationOf(e.attempt)))).toEqual(new Set([0, 1]));
      // After the restart the agent ran every turn once more, in a sandbox of host B.
      const starts = fixture.agentLog().filter((l) => l.startsWith(`start ${runId} `));
      expect(starts.filter((l) => l.includes('sandboxes-host-b')).map((l) => l.split(' ')[2])).toEqual(['1', '2']);
    }
    // The runs that never were on host A ran once, in generation 0.
    for (const run of runs.filter((r) => !restarted.includes(r.run_id))) {
      const events = await store.getTranscript(run.run_id, { attempts: 'all' });
      expect(events.every((e) => generationOf(e.attempt) === 0), run.run_id).toBe(true);
    }
  }, 240_000);
});
