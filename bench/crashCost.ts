// 3. Crash cost: a 100-run batch with the scripted mock model, the worker killed with SIGKILL
// at three random points and started again, against the same batch without kills. Counts the
// model calls made beyond the uncrashed batch's (goal: none beyond the calls in flight at the
// kills) and the seconds from each restart to the first progress (a model call or an agent
// turn starting).
//
//   node --import tsx bench/crashCost.ts
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadEvalCase } from '../src/evalset/index.js';
import { startMockServer } from '../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../src/llm/mock/types.js';
import type { BatchInput, BatchResult } from '../src/run/batchInput.js';
import { selectionDigest } from '../src/run/batchPlan.js';
import { SHARED_TASK_QUEUE } from '../src/temporal/names.js';
import { startCli, type CliProcess } from '../test/support/cliProcess.js';
import { dropSchema, postgresUrl, randomSchema } from '../test/support/postgres.js';
import { startTestTemporal } from '../test/support/temporalServer.js';
import { row, writeResult } from './support/benchResult.js';

const REPO = resolve(import.meta.dirname, '..');
const RUNS = 100;
const PARALLELISM = 10;
const KILLS = 3;
const MODEL_DELAY_MS = 300;
const started = Date.now();

const JUDGE = ["reasoning: 'ok'", 'result: pass', 'compliance: 4', 'execution_quality: 4', 'overall: 4', "summary: 'ok'", 'hard_requirements:', "  - item: 'progress.txt has a line per turn'", '    met: true', "    evidence: 'postcondition'", 'suggestions: []'].join('\n');

let seed = 20_261_201;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

async function main(): Promise<void> {
  const temporal = await startTestTemporal();
  const requests: number[] = [];
  let inFlight = 0;
  const mock = await startMockServer({
    script: async (request: MockRequest): Promise<MockReply> => {
      requests.push(Date.now());
      inFlight += 1;
      try {
        await new Promise((r) => setTimeout(r, MODEL_DELAY_MS));
        if (request.model === 'bench-judge') return { text: JUDGE };
        return { text: request.messages.filter((m) => m.role === 'assistant').length >= 2 ? '<<END>>' : 'Good, now the next step.' };
      } finally {
        inFlight -= 1;
      }
    },
  });
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-crash-'));
  const schema = randomSchema();
  let worker: CliProcess | undefined;
  const connection = await Connection.connect({ address: temporal.address });
  try {
    await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
    await mkdir(join(root, 'log'), { recursive: true });
    await writeFile(join(root, 'agent.sh'), ['#!/usr/bin/env bash', 'cat > /dev/null', `echo "start $(date +%s%3N)" >> ${root}/log/agent.log`, 'sleep 1', 'echo "turn $EVALFLOW_TURN" >> progress.txt', 'echo "did turn $EVALFLOW_TURN"', ''].join('\n'));
    await chmod(join(root, 'agent.sh'), 0o755);
    const caseDir = join(root, 'eval_sets', 'two-steps');
    await mkdir(caseDir, { recursive: true });
    await writeFile(join(caseDir, 'meta.yaml'), 'id: two-steps\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: Two turns of work.\nmax_turns: 3\n');
    await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Do step one.\n\n## Scenario\n\nA user with two steps.\n\n## Guidance\n\nAsk for the next step, then end.\n');
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- progress.txt has a line per turn\n\n## Quality\n\n## Common failures\n');
    await writeFile(join(caseDir, 'env.yaml'), 'postconditions: []\n');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: temporal.address,
      DATABASE_URL: await postgresUrl(),
      EVALFLOW_STORE_SCHEMA: schema,
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
      EVALFLOW_HOST_ID: 'bench-host',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-bench',
    };
    const client = new Client({ connection });
    const evalCase = await loadEvalCase(caseDir);
    const agentStarts = () => (existsSync(join(root, 'log/agent.log')) ? readFileSync(join(root, 'log/agent.log'), 'utf8').trim().split('\n').map((l) => Number(l.split(' ')[1])) : []);
    const startWorker = async () => {
      const w = startCli(['worker'], { cwd: root, env });
      await w.waitForLine(/^worker on /, 60_000);
      return w;
    };

    const runBatch = async (name: string, kills: number) => {
      const stamp = name === 'baseline' ? '20261201T000001' : '20261201T000002';
      const batchId = `batch-${stamp}-${name}`;
      const input: BatchInput = {
        batchId,
        stamp,
        selection: { paths: [join(root, 'eval_sets')], runsPerCase: RUNS, digest: selectionDigest([evalCase]) },
        template: {
          candidate: { name: 'agent', adapter: 'command', args: [join(root, 'agent.sh')], env: {} },
          examiner: { model: 'bench-examiner', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
          judge: { model: 'bench-judge', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
          project: join(root, 'project'),
          workflowDir: join(root, 'workflow'),
          runsDir: join(root, 'runs', name),
          turnTimeoutS: 60,
        },
        parallelism: PARALLELISM,
        total: null,
        offset: 0,
        counts: { finished: 0, passed: 0, failed: 0 },
        recent: [],
      };
      const calls = requests.length;
      worker = await startWorker();
      const t0 = Date.now();
      const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
      const inFlightAtKills: number[] = [];
      const toProgress: number[] = [];
      for (let k = 0; k < kills; k++) {
        await new Promise((r) => setTimeout(r, 4_000 + random() * 8_000));
        inFlightAtKills.push(inFlight);
        worker.kill('SIGKILL');
        await worker.exited;
        worker = await startWorker();
        const restarted = Date.now();
        const deadline = restarted + 60_000;
        for (;;) {
          const next = [...requests.filter((t) => t > restarted), ...agentStarts().filter((t) => t > restarted)];
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
      return { calls: requests.length - calls, seconds, inFlightAtKills, toProgress };
    };

    const baseline = await runBatch('baseline', 0);
    const crashed = await runBatch('crashed', KILLS);
    const repeated = crashed.calls - baseline.calls;
    const allowed = crashed.inFlightAtKills.reduce((a, b) => a + b, 0);
    writeResult(
      {
        name: 'crash-cost',
        title: 'Crash cost',
        rows: [
          row('model calls repeated beyond those in flight at the kills', repeated - allowed, 'calls', { goal: '<= 0', detail: `${repeated} repeated (${crashed.calls} vs ${baseline.calls} calls); ${allowed} in flight at the ${KILLS} kills` }),
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
    await mock.close();
    await temporal.stop();
    await dropSchema(schema);
    await rm(root, { recursive: true, force: true });
  }
}

await main();
