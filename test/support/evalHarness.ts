import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { CandidateFactory } from '../../src/activities/index.js';
import type { Candidate, CandidateSpec } from '../../src/candidates/adapter.js';
import { loadSettings } from '../../src/config.js';
import { loadEvalCase } from '../../src/evalset/index.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockDialect, MockScript } from '../../src/llm/mock/types.js';
import { toCaseSnapshot } from '../../src/run/caseSnapshot.js';
import { makeRunId } from '../../src/run/runId.js';
import type { RunOutcome } from '../../src/run/runOutcome.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { openStore, type Store } from '../../src/store/index.js';
import { installQuietRuntime } from '../../src/temporal/runtime.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../../src/temporal/names.js';
import { startWorkers, type RunningWorkers } from '../../src/worker.js';
import { dropSchema, postgresUrl, randomSchema } from './postgres.js';
import type { TestTemporal } from './temporalServer.js';
import { FAKE_WORKFLOW_SUPPORT } from './fakeWorkflowSupport.js';

export type Backend = 'pglite' | 'postgres';

const REPO = resolve(import.meta.dirname, '../..');

export interface EvalHarness {
  root: string;
  casesDir: string;
  runsDir: string;
  mock: MockServer;
  store: Store;
  client: Client;
  workers: RunningWorkers;
  /** The environment the workers see: the mock server is the OpenAI endpoint of every role. */
  env: NodeJS.ProcessEnv;
  /** Writes an eval case folder (path → content) and returns its directory. */
  writeCase(id: string, files: Record<string, string>): Promise<string>;
  /** The spec of a run of one eval case (a fresh run id each time), with `overrides` applied. */
  specFor(caseId: string, candidate: CandidateSpec, overrides?: Partial<RunSpec>): Promise<RunSpec>;
  /** Runs one eval case as an evalRunWorkflow and returns its outcome and spec. */
  runCase(caseId: string, candidate: CandidateSpec, overrides?: Partial<RunSpec>): Promise<{ outcome: RunOutcome; spec: RunSpec }>;
  /** Stops the workers (as a crash or a deploy would, between tasks) and starts new ones. */
  restartWorkers(): Promise<void>;
  /** The environment that opens this harness's store from another process or command (PostgreSQL only). */
  storeEnv: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

let stampCounter = 0;

/**
 * Everything real but the model: the test's Temporal dev server, the store (PGlite or the
 * PostgreSQL on 127.0.0.1), workers built by the composition root, git sandboxes of a copy of
 * the example project, and the scripted mock model server on loopback.
 */
export async function createEvalHarness(options: {
  backend: Backend;
  temporal: Pick<TestTemporal, 'address' | 'namespace'>;
  script: MockScript;
  dialects?: MockDialect[];
  env?: NodeJS.ProcessEnv;
  /** Extra candidates by adapter name (test doubles), next to the real registry. */
  fakeCandidates?: Record<string, Candidate>;
  /** The worker's own runs dir (EVALFLOW_RUNS_DIR / `runs_dir` of a worker host); absent: where the batch says. */
  workerRunsDir?: string;
}): Promise<EvalHarness> {
  installQuietRuntime();
  const root = await mkdtemp(join(tmpdir(), 'evalflow-e2e-'));
  const casesDir = join(root, 'eval_sets');
  const runsDir = join(root, 'runs');
  await mkdir(casesDir, { recursive: true });
  await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
  await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
  const mock = await startMockServer({ script: options.script, ...(options.dialects ? { dialects: options.dialects } : {}) });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    OPENAI_BASE_URL: mock.url,
    OPENAI_API_KEY: 'sk-test-secret-value-1234',
    EVALFLOW_HOME: join(root, '.evalflow'),
    EVALFLOW_EXAMINER_MODEL: 'test-examiner',
    EVALFLOW_JUDGE_MODEL: 'test-judge',
    ...options.env,
  };
  const schema = options.backend === 'postgres' ? randomSchema() : undefined;
  const databaseUrl = options.backend === 'postgres' ? await postgresUrl() : undefined;
  const store = await openStore(databaseUrl ? { databaseUrl, schema: schema! } : {});
  const settings = await loadSettings(root, env, { project: join(root, 'project'), workflowDir: join(root, 'workflow'), runsDir });
  const native = await NativeConnection.connect({ address: options.temporal.address });
  const connection = await Connection.connect({ address: options.temporal.address });
  const client = new Client({ connection, namespace: options.temporal.namespace });
  const fakes = options.fakeCandidates ?? {};
  const start = () => startWorkers({
    settings,
    store,
    connection: native,
    namespace: options.temporal.namespace,
    env,
    sandboxRoot: join(root, 'sandboxes'),
    ...(options.workerRunsDir ? { runsDir: options.workerRunsDir } : {}),
    ...(Object.keys(fakes).length > 0
      ? {
          decorateCandidates: (factory: CandidateFactory): CandidateFactory => ({
            create: (spec) => fakes[spec.adapter] ?? factory.create(spec),
            workflowSupport: (adapter) => (fakes[adapter] ? FAKE_WORKFLOW_SUPPORT : factory.workflowSupport(adapter)),
            version: (spec) => (fakes[spec.adapter] ? Promise.resolve('fake 1.0') : factory.version(spec)),
          }),
        }
      : {}),
  });
  let workers = await start();

  const specFor = async (caseId: string, candidate: CandidateSpec, overrides: Partial<RunSpec> = {}): Promise<RunSpec> => {
    const evalCase = await loadEvalCase(join(casesDir, caseId));
    stampCounter += 1;
    const stamp = `20260101T${String(100000 + stampCounter).slice(-6)}`;
    return {
      runId: makeRunId(caseId, candidate.name, stamp),
      batchId: 'batch-test',
      evalCase: toCaseSnapshot(evalCase),
      candidate,
      examiner: settings.examiner,
      judge: settings.judge,
      project: settings.project,
      workflowDir: settings.workflowDir,
      runsDir,
      turnTimeoutS: 60,
      createdAt: new Date().toISOString(),
      ...overrides,
    };
  };

  return {
    root,
    casesDir,
    runsDir,
    mock,
    store,
    client,
    get workers() {
      return workers;
    },
    env,
    storeEnv: databaseUrl ? { DATABASE_URL: databaseUrl, EVALFLOW_STORE_SCHEMA: schema! } : {},
    specFor,
    async restartWorkers() {
      await workers.shutdown();
      workers = await start();
    },
    async writeCase(id, files) {
      const dir = join(casesDir, id);
      await mkdir(dir, { recursive: true });
      for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
      return dir;
    },
    async runCase(caseId, candidate, overrides) {
      const spec = await specFor(caseId, candidate, overrides);
      const outcome = (await client.workflow.execute('evalRunWorkflow', {
        taskQueue: SHARED_TASK_QUEUE,
        workflowId: spec.runId,
        args: [spec],
        typedSearchAttributes: [
          { key: searchAttributes.caseId, value: caseId },
          { key: searchAttributes.candidate, value: candidate.name },
        ],
      })) as RunOutcome;
      return { outcome, spec };
    },
    async close() {
      await workers.shutdown();
      await native.close();
      await connection.close();
      await store.close();
      await mock.close();
      if (schema) await dropSchema(schema);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A builtin candidate on the mock endpoint. */
export function builtinCandidate(mock: MockServer, model = 'test-candidate'): CandidateSpec {
  return { name: 'builtin', adapter: 'builtin', model, args: [], env: {}, baseUrl: mock.url, apiKeyEnv: 'OPENAI_API_KEY' };
}
