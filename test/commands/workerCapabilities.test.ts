import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { useCrashHarness } from '../support/useCrashHarness.js';

const RUNS = 2;

/** Why the run's claim on the slots queue was last refused, while it waits there; null once it has a host. */
async function claimRefusal(client: Client, runId: string): Promise<string | null> {
  const described = await client.workflow.getHandle(runId).describe();
  const claim = described.raw.pendingActivities?.find((a) => a.activityType?.name === 'claimSlot');
  return claim?.lastFailure?.message ?? null;
}

/**
 * Capabilities per host: a host without the candidate's program never takes its runs. Host A
 * lacks the agent (it is not on its PATH) and refuses every claim, saying why; the runs wait
 * on the slots queue until host B, which has it, joins and takes them all.
 */
describe('evalflow worker capabilities', () => {
  const crash = useCrashHarness(
    {
      models: { examiner: 'caps-examiner', judge: 'caps-judge' },
      modelDelayMs: 0,
      agentTurn: ['echo "start $EVALFLOW_RUN_ID $EVALFLOW_TURN $(pwd)" >> "$log/agent.log"', 'echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"'],
      progressPostcondition: false,
    },
    {
      timeoutMs: 180_000,
      // The agent under its bare name, installed only in host B's PATH.
      async setUp({ fixture }) {
        await mkdir(join(fixture.root, 'host-b-bin'));
        await writeFile(join(fixture.root, 'host-b-bin', 'caps-agent'), `#!/bin/sh\nexec ${join(fixture.root, 'agent.sh')} "$@"\n`);
        await chmod(join(fixture.root, 'host-b-bin', 'caps-agent'), 0o755);
      },
    },
  );

  it('sends every run to the host that can start its candidate', async () => {
    const harness = crash();
    const { fixture, store, connection } = harness;
    await harness.startWorker('host-a', ['--slots', '2']);
    const input = fixture.batchInput({ name: 'caps', stamp: '20260502T000000', runsPerCase: RUNS, parallelism: RUNS, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 300 } });
    input.template.candidate = { name: 'agent', adapter: 'command', args: ['caps-agent'], env: {} };
    const client = new Client({ connection });
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });

    // Host A ran the runs' workflow tasks and refused to claim them: they wait on the slots queue, saying why.
    const runs = await listRunIds(client, input.batchId);
    for (const runId of runs) {
      await expect.poll(() => claimRefusal(client, runId), { timeout: 90_000, interval: 500 }).toMatch(new RegExp(`^host host-a cannot take run ${runId} \\(claimed on the slots queue\\): candidate "agent" \\(adapter command\\) cannot start: caps-agent`));
    }
    expect(fixture.agentLog()).toEqual([]);

    // Host B has the agent: it takes both runs.
    await harness.startWorker('host-b', ['--slots', '2'], { PATH: `${join(fixture.root, 'host-b-bin')}:${process.env.PATH ?? ''}` });
    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: RUNS, completed: RUNS });
    const hosts = await store.getRunHosts(runs);
    expect(hosts.map((h) => [h.run_id, h.host_id, h.generation])).toEqual(runs.map((id) => [id, 'host-b', 0]).sort());
    const starts = fixture.agentLog().filter((l) => l.startsWith('start '));
    expect(starts.length).toBeGreaterThanOrEqual(RUNS);
    expect(starts.every((l) => l.includes('sandboxes-host-b'))).toBe(true);
  }, 400_000);
});

/** The run workflows of a batch, once its children are started (visibility may lag a little). */
async function listRunIds(client: Client, batchId: string): Promise<string[]> {
  for (let tries = 0; tries < 180; tries++) {
    const ids: string[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowType = 'evalRunWorkflow' AND EvalBatch = '${batchId}'` })) ids.push(run.workflowId);
    if (ids.length === RUNS) return ids.sort();
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the ${RUNS} run workflows of ${batchId} never showed in visibility`);
}
