import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalCase } from '../../src/evalset/index.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { RunAnomaly } from '../../src/run/anomaly.js';
import type { BatchInput, BatchResult } from '../../src/run/batchInput.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import { openStore, type Store } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');
const RUNS = 30;
const PARALLELISM = 8;
/** How long the scripted agent works per turn. */
const TURN_S = 6;

const JUDGE = [
  "reasoning: 'Both turns wrote their line.'",
  'result: pass',
  'compliance: 4',
  'execution_quality: 4',
  'overall: 4',
  "summary: 'ok'",
  'hard_requirements:',
  "  - item: 'progress.txt has a line per turn'",
  '    met: true',
  "    evidence: 'postcondition'",
  'suggestions: []',
].join('\n');

/**
 * The product's promise for a user who walks away from a batch: the worker is killed with
 * SIGKILL twice mid-batch (once while a model call is in flight, once while agents run) and
 * started again. Everything is real (the dev server, a separate `evalflow worker` process,
 * PostgreSQL, git sandboxes, a `command` agent); only the model is the scripted mock, with
 * 100 ms latency.
 */
describe('a batch whose worker is killed twice', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let schema: string;
  let store: Store;
  let connection: Connection;
  let client: Client;
  let env: NodeJS.ProcessEnv;
  /** Model calls being answered right now (the mock delays each by 100 ms). */
  let inFlightModelCalls = 0;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: async (request: MockRequest): Promise<MockReply> => {
        inFlightModelCalls += 1;
        try {
          await new Promise((r) => setTimeout(r, 100));
          if (request.model === 'crash-judge') return { text: JUDGE };
          const turns = request.messages.filter((m) => m.role === 'assistant').length;
          return { text: turns >= 2 ? '<<END>>' : 'Good, now do the next step.' };
        } finally {
          inFlightModelCalls -= 1;
        }
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-crash-'));
    await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
    await mkdir(join(root, 'log'), { recursive: true });
    // The agent logs each turn's start and end with its pid, and says so if an earlier
    // attempt of the same turn is still alive when it starts.
    await writeFile(
      join(root, 'agent.sh'),
      [
        '#!/usr/bin/env bash',
        'cat > /dev/null',
        `log=${root}/log`,
        'key="$EVALFLOW_RUN_ID.$EVALFLOW_TURN"',
        'if [ -f "$log/$key.pid" ] && kill -0 "$(cat "$log/$key.pid")" 2>/dev/null; then echo "overlap $EVALFLOW_RUN_ID $EVALFLOW_TURN" >> "$log/agent.log"; fi',
        'echo $$ > "$log/$key.pid"',
        'echo "start $EVALFLOW_RUN_ID $EVALFLOW_TURN $$ $(date +%s%3N)" >> "$log/agent.log"',
        `sleep ${TURN_S}`,
        'echo "turn $EVALFLOW_TURN" >> progress.txt',
        'echo "end $EVALFLOW_RUN_ID $EVALFLOW_TURN $$" >> "$log/agent.log"',
        'echo "did turn $EVALFLOW_TURN"',
        '',
      ].join('\n'),
    );
    await chmod(join(root, 'agent.sh'), 0o755);
    const caseDir = join(root, 'eval_sets', 'two-steps');
    await mkdir(caseDir, { recursive: true });
    await writeFile(join(caseDir, 'meta.yaml'), 'id: two-steps\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: Two turns of work.\nmax_turns: 3\n');
    await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Do step one.\n\n## Scenario\n\nA user with two steps.\n\n## Guidance\n\nAsk for the next step, then end.\n');
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- progress.txt has a line per turn\n\n## Quality\n\n## Common failures\n');
    await writeFile(
      join(caseDir, 'env.yaml'),
      'postconditions:\n  - description: one line per turn, none twice\n    check: test "$(cat "${SANDBOX_DIR}/progress.txt")" = "$(printf \'turn 1\\nturn 2\')"\n    severity: hard\n',
    );
    await writeFile(join(root, 'evalflow.config.yaml'), `candidates:\n  agent:\n    adapter: command\n    args: [./agent.sh]\n`);
    schema = randomSchema();
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: temporal.address,
      DATABASE_URL: await postgresUrl(),
      EVALFLOW_STORE_SCHEMA: schema,
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
      EVALFLOW_HOST_ID: 'crash-host',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-crash-test',
      EVALFLOW_EXAMINER_MODEL: 'crash-examiner',
      EVALFLOW_JUDGE_MODEL: 'crash-judge',
    };
    store = await openStore({ databaseUrl: env.DATABASE_URL!, schema });
    connection = await Connection.connect({ address: temporal.address });
    client = new Client({ connection });
  });

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await connection?.close();
    await store?.close();
    await mock?.close();
    await temporal?.stop();
    if (schema) await dropSchema(schema);
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function startWorker(): Promise<CliProcess> {
    const started = startCli(['worker'], { cwd: root, env });
    await started.waitForLine(/^worker on /, 60_000);
    return started;
  }

  async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const agentLog = () => (existsSync(join(root, 'log/agent.log')) ? readFileSync(join(root, 'log/agent.log'), 'utf8').trim().split('\n').filter(Boolean) : []);
  const turnsInFlight = () => {
    const open = new Map<string, string>();
    for (const line of agentLog()) {
      const [kind, run, turn, pid] = line.split(' ');
      if (kind === 'start') open.set(`${run} ${turn} ${pid}`, line);
      if (kind === 'end') open.delete(`${run} ${turn} ${pid}`);
    }
    return [...open.keys()];
  };

  async function runBatch(
    name: string,
    kills: ('model' | 'candidate')[],
  ): Promise<{ batchId: string; seconds: number; result: BatchResult; killedAttempts: string[]; killedAt: number[]; restartedAt: number[] }> {
    const evalCase = await loadEvalCase(join(root, 'eval_sets', 'two-steps'));
    const stamp = name === 'baseline' ? '20260301T000001' : '20260301T000002';
    const batchId = `batch-${stamp}-${name}`;
    const input: BatchInput = {
      batchId,
      stamp,
      selection: { paths: [join(root, 'eval_sets')], runsPerCase: RUNS, digest: selectionDigest([evalCase]) },
      template: {
        candidate: { name: 'agent', adapter: 'command', args: [join(root, 'agent.sh')], env: {} },
        examiner: { model: 'crash-examiner', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
        judge: { model: 'crash-judge', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
        project: join(root, 'project'),
        workflowDir: join(root, 'workflow'),
        runsDir: join(root, 'runs'),
        turnTimeoutS: 120,
      },
      parallelism: PARALLELISM,
      total: null,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    worker = await startWorker();
    const started = Date.now();
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const killedAttempts: string[] = [];
    const killedAt: number[] = [];
    const restartedAt: number[] = [];
    for (const kill of kills) {
      // Kill in the middle of the batch, while what the kill is about is under way.
      await until(() => agentLog().filter((l) => l.startsWith('end ') && l.includes(stamp)).length >= (kill === 'model' ? 10 : 25), 'runs to progress');
      if (kill === 'model') await until(() => inFlightModelCalls > 0, 'a model call in flight');
      else await until(() => turnsInFlight().filter((t) => t.includes(stamp)).length >= 3, 'agents at work');
      worker.kill('SIGKILL');
      killedAt.push(Date.now());
      await worker.exited;
      // What was in flight: every agent that logged its start and never its end (they die with the worker).
      await new Promise((r) => setTimeout(r, 200));
      killedAttempts.push(...turnsInFlight().filter((t) => t.includes(stamp) && !killedAttempts.includes(t)));
      worker = await startWorker();
      restartedAt.push(Date.now());
    }
    const result = (await handle.result()) as BatchResult;
    const seconds = (Date.now() - started) / 1000;
    worker.kill('SIGTERM');
    await worker.exited;
    worker = undefined;
    return { batchId, seconds, result, killedAttempts, killedAt, restartedAt };
  }

  it(`finishes all ${RUNS} runs once, repeats only the turns in flight (recorded), leaves no agent alive, within 1.5× the batch without kills`, async () => {
    const baseline = await runBatch('baseline', []);
    expect(baseline.result.counts).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });

    const crashed = await runBatch('crashed', ['model', 'candidate']);
    const ratio = crashed.seconds / baseline.seconds;
    console.log(`crash recovery: baseline ${baseline.seconds.toFixed(1)} s, with two kill -9 ${crashed.seconds.toFixed(1)} s, ratio ${ratio.toFixed(2)}`);

    // Every run completed once: one row, one verdict, and a clean sandbox history.
    const runs = await store.listRuns({ batchId: crashed.batchId });
    for (const run of runs.filter((r) => r.result !== 'pass')) {
      console.log(`${run.run_id} ${run.status} ${run.result}:\n${readFileSync(join(run.run_dir, 'review.md'), 'utf8')}\n${readFileSync(join(run.run_dir, 'env_checklist.yaml'), 'utf8')}`);
    }
    expect(crashed.result.counts).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });
    expect(runs).toHaveLength(RUNS);
    expect(runs.every((r) => r.status === 'completed' && r.result === 'pass')).toBe(true);
    for (const run of runs) {
      const history = (await store.scoreHistory({ caseId: 'two-steps' })).filter((h) => h.run_id === run.run_id);
      expect(history, run.run_id).toHaveLength(1);
    }

    // Per (run, turn) the agent started once, except the turns in flight at a kill: those
    // started twice (the first time before a kill and within one turn's time of it, the
    // second after it) and are recorded as repeated spend on their run.
    const log = agentLog().filter((l) => l.includes('20260301T000002'));
    expect(log.filter((l) => l.startsWith('overlap '))).toEqual([]);
    const starts = new Map<string, number[]>();
    for (const line of log.filter((l) => l.startsWith('start '))) {
      const [, run, turn, , at] = line.split(' ');
      starts.set(`${run} ${turn}`, [...(starts.get(`${run} ${turn}`) ?? []), Number(at)]);
    }
    expect([...starts.values()].every((times) => times.length <= 2)).toBe(true);
    const repeatedTurns = [...starts.entries()].filter(([, times]) => times.length > 1).map(([key]) => key).sort();
    expect(repeatedTurns.length).toBeGreaterThan(0);
    expect(repeatedTurns.length).toBeLessThanOrEqual(2 * PARALLELISM);
    for (const key of repeatedTurns) {
      const [first, second] = starts.get(key)!;
      const kill = crashed.killedAt.find((at) => first! < at && at < second!);
      expect(kill, `${key}: started twice, but not across a kill`).toBeDefined();
      expect(kill! - first!, `${key}: its first attempt was not in flight at the kill`).toBeLessThan((TURN_S + 3) * 1000);
    }
    const recorded = runs.flatMap((r) =>
      r.anomalies
        .filter((a): a is Extract<RunAnomaly, { kind: 'repeated_spend' }> => a.kind === 'repeated_spend' && a.role === 'candidate')
        .map((a) => `${r.run_id} ${a.turn}`),
    );
    expect(recorded.sort()).toEqual(repeatedTurns);
    // How long recovery took: from the kill to the worker serving again, and to the first repeated turn starting.
    const retryStarts = (after: number) =>
      log
        .filter((l) => l.startsWith('start ') && repeatedTurns.includes(l.split(' ').slice(1, 3).join(' ')))
        .map((l) => Number(l.split(' ')[4]))
        .filter((t) => t > after);
    for (const [i, at] of crashed.killedAt.entries()) {
      const firstRetry = Math.min(...retryStarts(at));
      console.log(
        `kill ${i + 1} (${['model call', 'candidate turn'][i]}): worker serving again after ${((crashed.restartedAt[i]! - at) / 1000).toFixed(1)} s, first repeated turn started after ${((firstRetry - at) / 1000).toFixed(1)} s`,
      );
    }

    // The agents at work when their worker was killed died with it: none finished its turn
    // afterwards, and none is alive.
    expect(crashed.killedAttempts.length).toBeGreaterThan(0);
    for (const attempt of crashed.killedAttempts) {
      const pid = Number(attempt.split(' ')[2]);
      expect(log.some((l) => l === `end ${attempt}`), attempt).toBe(false);
      expect(() => process.kill(pid, 0), `pid ${pid} of ${attempt}`).toThrow();
      expect(repeatedTurns, attempt).toContain(attempt.split(' ').slice(0, 2).join(' '));
    }
    // Model calls in flight at the first kill were repeated, and say so.
    const examinerRepeats = runs.flatMap((r) => r.anomalies.filter((a) => a.kind === 'repeated_spend' && a.role !== 'candidate'));
    expect(examinerRepeats.length).toBeGreaterThan(0);

    expect(ratio).toBeLessThan(1.5);
  }, 600_000);
});
