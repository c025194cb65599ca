// Scale-out: the throughput of trivial runs with 1, 2 and 4 workers against one Temporal
// server, each worker a host of its own (host id, home, sandbox root) with the same slots, all
// on one PostgreSQL store. A warm-up batch first gives every host its history base; then the
// same batch with 4 workers, 2 (two drained away), 1. Runs per minute, and the ratio to one
// worker: what another host's slots add. All hosts share this machine's cores.
//
//   node --import tsx bench/scaleOut.ts
import { cpus } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import type { BatchResult } from '../src/run/batchInput.js';
import { SHARED_TASK_QUEUE } from '../src/temporal/names.js';
import type { CliProcess } from '../test/support/cliProcess.js';
import { createCrashFixture } from '../test/support/crashFixture.js';
import { dropSchema, randomSchema } from '../test/support/postgres.js';
import { startTestTemporal } from '../test/support/temporalServer.js';
import { row, writeResult } from './support/benchResult.js';

const RUNS = 24;
const SLOTS = 2;
const WORKER_COUNTS = [4, 2, 1] as const;
const started = Date.now();

async function main(): Promise<void> {
  const temporal = await startTestTemporal();
  const schema = randomSchema();
  const fixture = await createCrashFixture({
    temporalAddress: temporal.address,
    schema,
    models: { examiner: 'bench-examiner', judge: 'bench-judge' },
    modelDelayMs: 0,
    // A trivial agent: the run's cost is evalflow's own (prepare, model calls, checks, judge, record).
    agentTurn: ['echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"'],
    progressPostcondition: false,
  });
  const workers: CliProcess[] = [];
  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ connection });
    const runBatch = async (name: string, runs: number, parallelism: number) => {
      const input = fixture.batchInput({ name, stamp: `20261204T0000${String(workers.length).padStart(2, '0')}`, runsPerCase: runs, parallelism, turnTimeoutS: 60 });
      const t0 = Date.now();
      const result = (await client.workflow.execute('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] })) as BatchResult;
      if (result.counts.completed !== runs) throw new Error(`${name}: expected ${runs} completed runs, found ${JSON.stringify(result.counts)}`);
      return (Date.now() - t0) / 1000;
    };
    // Started one after another: four workers bundling their workflows at once would crowd the cores.
    for (let i = 1; i <= Math.max(...WORKER_COUNTS); i++) workers.push(await fixture.startWorker(`bench-host-${i}`, ['--slots', String(SLOTS)]));
    await runBatch('warmup', 2 * SLOTS * workers.length, SLOTS * workers.length);

    const seconds = new Map<number, number>();
    for (const count of WORKER_COUNTS) {
      // Stop the hosts beyond `count`: between batches they hold no run.
      while (workers.length > count) {
        const worker = workers.pop()!;
        worker.kill('SIGTERM');
        await worker.exited;
      }
      seconds.set(count, await runBatch(`workers-${count}`, RUNS, SLOTS * count));
      console.log(`  ${count} worker(s): ${RUNS} runs in ${seconds.get(count)!.toFixed(1)} s`);
    }
    const perMinute = (count: number) => (RUNS / seconds.get(count)!) * 60;
    writeResult(
      {
        name: 'scale-out',
        title: 'Scale-out',
        rows: [
          row('throughput, 1 worker', perMinute(1), 'runs/min', { detail: `${RUNS} runs in ${seconds.get(1)!.toFixed(0)} s` }),
          row('throughput, 2 workers', perMinute(2) / perMinute(1), '×', { against: '1 worker', detail: `${perMinute(2).toFixed(1)} runs/min; ${RUNS} runs in ${seconds.get(2)!.toFixed(0)} s` }),
          row('throughput, 4 workers', perMinute(4) / perMinute(1), '×', { against: '1 worker', detail: `${perMinute(4).toFixed(1)} runs/min; ${RUNS} runs in ${seconds.get(4)!.toFixed(0)} s` }),
        ],
        notes: [
          `${RUNS} trivial runs per batch (a command agent that writes a line per turn, the scripted mock model answering at once), ${SLOTS} slots per worker, parallelism = all the workers' slots`,
          `every worker a host of its own on this one machine (${cpus().length} cores, shared with whatever else runs): the hosts share its cores, so the ratios say what evalflow's own work costs across workers, not what separate machines would add`,
        ],
      },
      started,
    );
  } finally {
    for (const worker of workers) worker.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await connection.close();
    await fixture.close();
    await temporal.stop();
    await dropSchema(schema);
  }
}

await main();
