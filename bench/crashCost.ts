// 3. Crash cost: a 100-run batch with the scripted mock model, the worker killed with SIGKILL
// at three random points and started again, against the same batch without kills. Counts the
// model calls made beyond the uncrashed batch's (goal: none beyond the calls the kills
// interrupted: started, their answers not yet recorded in the store) and the seconds from each
// restart to the first progress (a model call or an agent turn starting).
//
//   node --import tsx bench/crashCost.ts
import { Client, Connection } from '@temporalio/client';
import type { BatchResult } from '../src/run/batchInput.js';
import { SHARED_TASK_QUEUE } from '../src/temporal/names.js';
import type { CliProcess } from '../test/support/cliProcess.js';
import { createCrashFixture } from '../test/support/crashFixture.js';
import { dropSchema, randomSchema, rawPostgres } from '../test/support/postgres.js';
import { startTestTemporal } from '../test/support/temporalServer.js';
import { row, writeResult } from './support/benchResult.js';

const RUNS = 100;
const PARALLELISM = 10;
const KILLS = 3;
const MODEL_DELAY_MS = 300;
const started = Date.now();

let seed = 20_261_201;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

async function main(): Promise<void> {
  const temporal = await startTestTemporal();
  const schema = randomSchema();
  const fixture = await createCrashFixture({
    temporalAddress: temporal.address,
    schema,
    models: { examiner: 'bench-examiner', judge: 'bench-judge' },
    modelDelayMs: MODEL_DELAY_MS,
    agentTurn: ['echo "start $(date +%s%3N)" >> "$log/agent.log"', 'sleep 1', 'echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"'],
    progressPostcondition: false,
  });
  let worker: CliProcess | undefined;
  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ connection });
    const agentStarts = () => fixture.agentLog().map((l) => Number(l.split(' ')[1]));
    // Each examiner or judge step the store has finished recorded the answer of one model call.
    const recordedAnswers = async () =>
      (await rawPostgres<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.run_steps WHERE state = 'finished' AND role IN ('examiner', 'judge')`))[0]!.n;

    const runBatch = async (name: string, kills: number) => {
      const stamp = name === 'baseline' ? '20261201T000001' : '20261201T000002';
      const input = fixture.batchInput({ name, stamp, runsPerCase: RUNS, parallelism: PARALLELISM, turnTimeoutS: 60 });
      const calls = fixture.modelCallTimes.length;
      worker = await fixture.startWorker();
      const t0 = Date.now();
      const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
      const inFlightAtKills: number[] = [];
      // Model calls started whose answers were not recorded when a worker died (read while no worker runs).
      let interrupted = 0;
      const toProgress: number[] = [];
      for (let k = 0; k < kills; k++) {
        await new Promise((r) => setTimeout(r, 4_000 + random() * 8_000));
        inFlightAtKills.push(fixture.modelCallsInFlight());
        worker.kill('SIGKILL');
        await worker.exited;
        interrupted = fixture.modelCallTimes.length - (await recordedAnswers());
        worker = await fixture.startWorker();
        const restarted = Date.now();
        const deadline = restarted + 60_000;
        for (;;) {
          const next = [...fixture.modelCallTimes.filter((t) => t > restarted), ...agentStarts().filter((t) => t > restarted)];
          if (next.length > 0) {
            toProgress.push((Math.min(...next) - restarted) / 1000);
            break;
          }
          if (Date.now() > deadline) throw new Error('no progress within 60 s of a restart');
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      const result = (await handle.result()) as BatchResult;
      const seconds = (Date.now() - t0) / 1000;
      worker.kill('SIGTERM');
      await worker.exited;
      worker = undefined;
      if (result.counts.completed !== RUNS) throw new Error(`${name}: expected ${RUNS} completed runs, found ${JSON.stringify(result.counts)}`);
      // Counting interrupted calls as calls less recorded answers holds only while each answer is one call.
      if (kills === 0) {
        const recorded = await recordedAnswers();
        if (recorded !== fixture.modelCallTimes.length) throw new Error(`${name}: ${fixture.modelCallTimes.length} model calls but ${recorded} recorded answers; a step made more than one call`);
      }
      return { calls: fixture.modelCallTimes.length - calls, seconds, inFlightAtKills, interrupted, toProgress };
    };

    const baseline = await runBatch('baseline', 0);
    const crashed = await runBatch('crashed', KILLS);
    const repeated = crashed.calls - baseline.calls;
    const atModel = crashed.inFlightAtKills.reduce((a, b) => a + b, 0);
    writeResult(
      {
        name: 'crash-cost',
        title: 'Crash cost',
        rows: [
          row('model calls repeated beyond those the kills interrupted', repeated - crashed.interrupted, 'calls', {
            goal: '<= 0',
            detail: `${repeated} repeated (${crashed.calls} vs ${baseline.calls} calls); ${crashed.interrupted} interrupted at the ${KILLS} kills (started, answer not yet recorded), ${atModel} of them still at the model`,
          }),
          row('restart to first progress, slowest', Math.max(...crashed.toProgress), 's', { detail: `each kill: ${crashed.toProgress.map((s) => s.toFixed(1)).join(', ')} s` }),
          row('batch time with kills', crashed.seconds / baseline.seconds, '×', { against: 'the same batch without kills', detail: `${crashed.seconds.toFixed(0)} s vs ${baseline.seconds.toFixed(0)} s` }),
        ],
        notes: [`${RUNS} runs at parallelism ${PARALLELISM}, 1 s agent turns, ${MODEL_DELAY_MS} ms model latency, ${KILLS} kills at random points`],
      },
      started,
    );
  } finally {
    worker?.kill('SIGKILL');
    await connection.close();
    await fixture.close();
    await temporal.stop();
    await dropSchema(schema);
  }
}

await main();
