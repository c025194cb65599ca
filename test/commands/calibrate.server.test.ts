import { chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockRequest } from '../../src/llm/mock/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { REFERENCE_SOLUTIONS, solverScript } from '../evalset/referenceSolutions.js';
import { cliEnv, copyExamples, writeCliConfig } from '../support/cliFolder.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { passingJudgeAnswer } from '../support/judgeAnswer.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

const REPO = resolve(import.meta.dirname, '../..');
const CASES = ['add-truncate', 'fix-slug-dashes'] as const;
const PASS = passingJudgeAnswer([1, 2, 3, 4, 5].map((i) => `item ${i}`));

/**
 * `evalflow calibrate` as a user runs it: the real dev server, PostgreSQL, sandboxes and a
 * `command` candidate that solves both cases every time; only the model is the mock. The A/A
 * batch is a normal batch of two arms that change nothing, and its verdicts never flip.
 */
describe('evalflow calibrate', () => {
  let temporal: TestTemporal;
  let mock: MockServer;
  let root: string;
  let schema: string;
  let env: NodeJS.ProcessEnv;
  let store: Store;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    mock = await startMockServer({ script: (request: MockRequest) => ({ text: request.model === 'calibrate-judge' ? PASS : '<<END>>' }) });
    root = await mkdtemp(join(tmpdir(), 'evalflow-calibrate-'));
    for (const id of CASES) await cp(join(REPO, 'eval_sets', id), join(root, 'eval_sets', id), { recursive: true });
    await copyExamples(root);
    await writeFile(join(root, 'solver.cjs'), solverScript({ [CASES[0]]: REFERENCE_SOLUTIONS[CASES[0]], [CASES[1]]: REFERENCE_SOLUTIONS[CASES[1]] }, []));
    await chmod(join(root, 'solver.cjs'), 0o755);
    await writeCliConfig(root, { candidates: { solver: './solver.cjs' }, mockUrl: mock.url, examiner: 'calibrate-examiner', judge: 'calibrate-judge' });
    schema = randomSchema();
    env = { ...cliEnv(root), TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema, EVALFLOW_HOST_ID: 'calibrate-host' };
    store = await openStore({ databaseUrl: env.DATABASE_URL!, schema });
  });

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await store?.close();
    await mock?.close();
    await temporal?.stop();
    if (schema) await dropSchema(schema);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('runs each case k times a side, interleaved, and stores a flip rate of 0 per case version', async () => {
    worker = startCli(['worker'], { cwd: root, env });
    await worker.waitForLine(/^worker on /, 120_000);
    const cli = startCli(['calibrate', '--no-worker', '--candidate', 'solver', '--runs-per-case', '2', '--parallelism', '4', '--json'], { cwd: root, env });
    const code = await cli.exited;
    expect(code, cli.stderr.join('\n')).toBe(0);
    const doc = JSON.parse(cli.stdout.join('\n')) as { batch_id: string; cases: { case_id: string; runs: number; passes: number; flip_rate: number | null }[] };
    expect(doc.cases.map((c) => [c.case_id, c.runs, c.passes, c.flip_rate])).toEqual(CASES.map((id) => [id, 4, 4, 0]));
    const runs = await store.listRuns({ batchId: doc.batch_id });
    for (const id of CASES) expect(runs.filter((r) => r.case_id === id).map((r) => r.arm).sort()).toEqual(['A1', 'A1', 'A2', 'A2']);
    const rows = await store.latestCalibrations([...CASES]);
    expect(rows.map((r) => [r.case_id, r.batch_id, r.runs, r.passes, r.candidate])).toEqual(CASES.map((id) => [id, doc.batch_id, 4, 4, 'solver']));
    expect(rows.map((r) => r.case_hash)).toEqual(CASES.map((id) => runs.find((r) => r.case_id === id)!.case_hash));
  }, 600_000);
});
