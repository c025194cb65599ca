import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalCase } from '../../src/evalset/index.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { BatchInput, BatchResult } from '../../src/run/batchInput.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import { readEnvChecklist } from '../../src/run/runFiles.js';
import { openStore, type Store } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { generationOf } from '../../src/transcript/attempts.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');
const RUNS = 8;

const JUDGE = [
  "reasoning: 'ok'",
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
 * Two workers with different host ids share a batch; one host is killed for good. Its runs
 * wait for it for the run's `hostLostAfterS`, then start again from prepare on the other
 * host: at most twice, recorded, never two live attempts of one run.
 */
describe('a batch that loses a host', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let schema: string;
  let store: Store;
  let connection: Connection;
  const workers: CliProcess[] = [];

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({
      script: (request: MockRequest): MockReply => {
        if (request.model === 'lost-judge') return { text: JUDGE };
        const turns = request.messages.filter((m) => m.role === 'assistant').length;
        return { text: turns >= 2 ? '<<END>>' : 'Next step.' };
      },
    });
    root = await mkdtemp(join(tmpdir(), 'evalflow-lost-host-'));
    await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
    await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
    await writeFile(
      join(root, 'agent.sh'),
      [
        '#!/usr/bin/env bash',
        'cat > /dev/null',
        `log=${root}/agent.log`,
        'key="$EVALFLOW_RUN_ID.$EVALFLOW_TURN"',
        `if [ -f "${root}/$key.pid" ] && kill -0 "$(cat "${root}/$key.pid")" 2>/dev/null; then echo "overlap $key" >> "$log"; fi`,
        `echo $$ > "${root}/$key.pid"`,
        'echo "start $EVALFLOW_RUN_ID $EVALFLOW_TURN $(pwd)" >> "$log"',
        'sleep 2',
        'echo "turn $EVALFLOW_TURN" >> progress.txt',
        'echo "end $EVALFLOW_RUN_ID $EVALFLOW_TURN" >> "$log"',
        'echo "did turn $EVALFLOW_TURN"',
        '',
      ].join('\n'),
    );
    await chmod(join(root, 'agent.sh'), 0o755);
    const caseDir = join(root, 'eval_sets', 'two-steps');
    await mkdir(caseDir, { recursive: true });
    await writeFile(join(caseDir, 'meta.yaml'), 'id: two-steps\nversion: v1\ntarget_workflow: t\ncategory: c\npurpose: Two turns.\nmax_turns: 3\n');
    await writeFile(join(caseDir, 'task.md'), '## Prompt\n\n> Step one.\n\n## Scenario\n\nA user.\n\n## Guidance\n\nAsk for the next step, then end.\n');
    await writeFile(join(caseDir, 'rubric.md'), '## Hard requirements\n\n- progress.txt has a line per turn\n\n## Quality\n\n## Common failures\n');
    await writeFile(
      join(caseDir, 'env.yaml'),
      'postconditions:\n  - description: one line per turn, from one sandbox\n    check: test "$(cat "${SANDBOX_DIR}/progress.txt")" = "$(printf \'turn 1\\nturn 2\')"\n    severity: hard\n',
    );
    schema = randomSchema();
    store = await openStore({ databaseUrl: await postgresUrl(), schema });
    connection = await Connection.connect({ address: temporal.address });
  });

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await connection?.close();
    await store?.close();
    await mock?.close();
    await temporal?.stop();
    if (schema) await dropSchema(schema);
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function startWorker(hostId: string): Promise<CliProcess> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: temporal.address,
      DATABASE_URL: await postgresUrl(),
      EVALFLOW_STORE_SCHEMA: schema,
      EVALFLOW_HOME: join(root, `.evalflow-${hostId}`),
      EVALFLOW_SANDBOX_ROOT: join(root, `sandboxes-${hostId}`),
      EVALFLOW_HOST_ID: hostId,
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-lost-host',
    };
    const worker = startCli(['worker'], { cwd: root, env });
    await worker.waitForLine(/^worker on /, 60_000);
    workers.push(worker);
    return worker;
  }

  const agentLog = () => (existsSync(join(root, 'agent.log')) ? readFileSync(join(root, 'agent.log'), 'utf8').trim().split('\n').filter(Boolean) : []);

  it("restarts the lost host's runs on the other host, from prepare, once each, with the loss recorded", async () => {
    // Host A alone first, so that runs are certain to live there; then host B joins.
    const hostA = await startWorker('host-a');
    const evalCase = await loadEvalCase(join(root, 'eval_sets', 'two-steps'));
    const input: BatchInput = {
      batchId: 'batch-20260401T000000-lost',
      stamp: '20260401T000000',
      selection: { paths: [join(root, 'eval_sets')], runsPerCase: RUNS, digest: selectionDigest([evalCase]) },
      template: {
        candidate: { name: 'agent', adapter: 'command', args: [join(root, 'agent.sh')], env: {} },
        examiner: { model: 'lost-examiner', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
        judge: { model: 'lost-judge', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
        project: join(root, 'project'),
        workflowDir: join(root, 'workflow'),
        runsDir: join(root, 'runs'),
        turnTimeoutS: 60,
        recovery: { modelOutageS: 60, hostLostAfterS: 5 },
      },
      parallelism: 6,
      total: null,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    const client = new Client({ connection });
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    // Kill host A for good once its agents are at work.
    const onA = () => agentLog().filter((l) => l.startsWith('start ') && l.includes('sandboxes-host-a'));
    const deadline = Date.now() + 60_000;
    while (onA().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(onA().length).toBeGreaterThanOrEqual(3);
    await startWorker('host-b');
    hostA.kill('SIGKILL');
    await hostA.exited;
    const workedOnA = [...new Set(onA().map((l) => l.split(' ')[1]!))];

    const result = (await handle.result()) as BatchResult;
    expect(result.counts).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });
    expect(agentLog().filter((l) => l.startsWith('overlap '))).toEqual([]);
    const runs = await store.listRuns({ batchId: input.batchId });
    const restarted = runs.filter((r) => r.anomalies.some((a) => a.kind === 'host_lost')).map((r) => r.run_id);
    expect(restarted).toEqual(expect.arrayContaining(workedOnA));
    for (const runId of restarted) {
      const run = await store.getRun(runId);
      expect(run?.anomalies, runId).toContainEqual({ kind: 'host_lost', host: 'host-a', stage: expect.any(String), restartedOn: 'host-b' });
      expect((await readEnvChecklist(run!.run_dir))?.host.id).toBe('host-b');
      // The transcript the judge saw is the new generation's; the lost one stays in the store.
      const events = await store.getTranscript(runId, { attempts: 'all' });
      expect(new Set(events.map((e) => generationOf(e.attempt)))).toEqual(new Set([0, 1]));
      // After the restart the agent ran every turn once more, in a sandbox of host B.
      const starts = agentLog().filter((l) => l.startsWith(`start ${runId} `));
      expect(starts.filter((l) => l.includes('sandboxes-host-b')).map((l) => l.split(' ')[2])).toEqual(['1', '2']);
    }
    // The runs that never were on host A ran once, in generation 0.
    for (const run of runs.filter((r) => !restarted.includes(r.run_id))) {
      const events = await store.getTranscript(run.run_id, { attempts: 'all' });
      expect(events.every((e) => generationOf(e.attempt) === 0), run.run_id).toBe(true);
    }
  }, 240_000);
});
