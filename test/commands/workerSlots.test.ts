import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import { hostLines } from '../../src/cli/batch/hosts.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { loggedAgentTurn, mostAtOnce, turnStarts, until } from '../support/agentLog.js';
import type { CliProcess } from '../support/cliProcess.js';
import { useCrashHarness } from '../support/useCrashHarness.js';

const RUNS = 5;

/**
 * Workers with slots, as hosts of a cluster: a host never holds more runs than its slots, a
 * host that joins mid-batch takes its share of the next runs, and a draining host (SIGUSR2)
 * finishes the run it holds, takes no new one and exits, while the others take the rest.
 */
describe('evalflow worker --slots and drain', () => {
  const crash = useCrashHarness(
    {
      models: { examiner: 'slots-examiner', judge: 'slots-judge' },
      modelDelayMs: 0,
      agentTurn: loggedAgentTurn(2),
      progressPostcondition: false,
    },
    { timeoutMs: 180_000 },
  );

  async function startWorker(hostId: string, slots: number): Promise<CliProcess> {
    return crash().startWorker(hostId, ['--slots', String(slots)]);
  }

  it('holds at most its slots, shares with a host that joins, and drains without a restart', async () => {
    const { fixture, store, connection } = crash();
    const hostA = await startWorker('host-a', 1);
    const input = fixture.batchInput({ name: 'slots', stamp: '20260501T000000', runsPerCase: RUNS, parallelism: RUNS, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 300 } });
    const client = new Client({ connection });
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const startsOn = (host: string) => turnStarts(fixture.agentLog(), host);
    expect(await until(() => startsOn('host-a').length > 0, 90_000)).toBe(true);

    // Host A's one slot is held: status says so, from its heartbeat row (written every 5 s).
    await new Promise((r) => setTimeout(r, 6_000));
    const seen = await hostLines(store, []);
    expect(seen.find((l) => l.includes('host-a'))).toMatch(/host-a: 0\/1 slots free/);

    // Host B joins mid-batch and takes the runs waiting for a slot.
    await startWorker('host-b', 2);
    expect(await until(() => startsOn('host-b').length > 0, 90_000)).toBe(true);

    // Host A drains: it finishes the run it holds, takes no other, and exits 0.
    const heldByA = startsOn('host-a').at(-1)!.split(' ')[1]!;
    hostA.kill('SIGUSR2');
    expect(await hostA.exited).toBe(0);

    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: RUNS, completed: RUNS });
    const log = fixture.agentLog();
    expect(mostAtOnce(log, 'host-a')).toBe(1);
    expect(mostAtOnce(log, 'host-b')).toBeLessThanOrEqual(2);

    // Every run had one attempt, on one host; the drained run ended on A without a restart.
    const runs = await store.listRuns({ batchId: input.batchId });
    const hosts = await store.getRunHosts(runs.map((r) => r.run_id));
    expect(hosts).toHaveLength(RUNS);
    expect(hosts.every((h) => h.generation === 0)).toBe(true);
    expect(new Set(hosts.map((h) => h.host_id))).toEqual(new Set(['host-a', 'host-b']));
    expect(hosts.find((h) => h.run_id === heldByA)?.host_id).toBe('host-a');
    expect(runs.find((r) => r.run_id === heldByA)?.status).toBe('completed');
    expect(runs.flatMap((r) => r.anomalies).filter((a) => a.kind === 'host_lost')).toEqual([]);
    // The drained worker's row is gone; host B's says its slots are free again once its next heartbeat lands (every 5 s).
    expect((await hostLines(store, [])).some((l) => l.includes('host-a'))).toBe(false);
    await expect.poll(async () => (await hostLines(store, [])).find((l) => l.includes('host-b')), { timeout: 30_000, interval: 500 }).toMatch(/host-b: 2\/2 slots free/);
  }, 400_000);
});
