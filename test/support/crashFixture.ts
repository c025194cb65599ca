import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvalCase, type EvalCase } from '../../src/evalset/index.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import type { BatchInput, BatchSelection } from '../../src/run/batchInput.js';
import type { RunTemplate } from '../../src/run/runSpec.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import { copyExamples } from './cliFolder.js';
import { startCli, type CliProcess } from './cliProcess.js';
import { postgresUrl } from './postgres.js';
import { twoStepsExaminer, TWO_STEPS_VERDICT, writeTwoStepsCase } from './twoStepsCase.js';

/** The model names the scripted mock answers as examiner and as judge. */
export type CrashModels = Record<'examiner' | 'judge', RunTemplate['judge']['model']>;

export interface CrashFixtureOptions {
  /** The Temporal frontend the worker connects to. */
  temporalAddress: string;
  /** The store schema the worker writes to (the caller creates and drops it). */
  schema: string;
  models: CrashModels;
  /** How long the mock takes to answer each model call, so that kills can land while calls are in flight. */
  modelDelayMs: number;
  /**
   * What the agent does each turn, as bash lines; `$log` is the folder whose `agent.log`
   * `agentLog()` reads. The case's rubric asks for a line `turn $EVALFLOW_TURN` in progress.txt
   * per turn.
   */
  agentTurn: string[];
  /** Whether the case also checks, as a hard postcondition, that progress.txt has each turn's line exactly once. */
  progressPostcondition: boolean;
  /** The case's post_run_cleanup commands, run in the run's sandbox; `$log` is the agent log's folder, as in `agentTurn`. */
  postRunCleanup?: string[];
}

/** What a batch for the fixture's case varies in. */
export type CrashBatch = { name: string } & Pick<BatchInput, 'stamp' | 'parallelism'> & Pick<BatchSelection, 'runsPerCase'> & Pick<RunTemplate, 'turnTimeoutS' | 'recovery'>;

export interface CrashFixture {
  root: string;
  mock: MockServer;
  /** The environment of every worker process: the dev server, the store schema, the mock as OpenAI. */
  env: NodeJS.ProcessEnv;
  evalCase: EvalCase;
  /** When each model call arrived (ms since the epoch). */
  modelCallTimes: number[];
  /** Model calls being answered right now. */
  modelCallsInFlight(): number;
  /** The lines the agent has written to `$log/agent.log` so far. */
  agentLog(): string[];
  /**
   * An `evalflow worker` process, once it serves. A worker for `hostId` stands for another
   * machine: its own host id, state folder and sandboxes; `env` adds to (or replaces) the
   * fixture's environment, e.g. a PATH with what only that host has installed.
   */
  startWorker(hostId?: string, args?: string[], env?: NodeJS.ProcessEnv): Promise<CliProcess>;
  /** A batch of the case for the `command` agent, examined and judged by the mock. */
  batchInput(batch: CrashBatch): BatchInput;
  close(): Promise<void>;
}

/**
 * A folder for batches whose worker, or whole host, gets killed: the case `two-steps` (the
 * examiner asks for one more step, then ends; the judge passes), the example project and
 * workflow, a `command` agent running `agentTurn`, and the scripted mock model.
 */
export async function createCrashFixture(options: CrashFixtureOptions): Promise<CrashFixture> {
  const modelCallTimes: number[] = [];
  let inFlight = 0;
  const mock = await startMockServer({
    script: async (request: MockRequest): Promise<MockReply> => {
      modelCallTimes.push(Date.now());
      inFlight += 1;
      try {
        await new Promise((r) => setTimeout(r, options.modelDelayMs));
        return request.model === options.models.judge ? { text: TWO_STEPS_VERDICT } : twoStepsExaminer(request);
      } finally {
        inFlight -= 1;
      }
    },
  });
  const root = await mkdtemp(join(tmpdir(), 'evalflow-crash-'));
  try {
    await copyExamples(root);
    const log = join(root, 'log');
    await mkdir(log, { recursive: true });
    // The command adapter hands the agent its prompt on stdin; this agent works without it.
    await writeFile(join(root, 'agent.sh'), ['#!/usr/bin/env bash', 'cat > /dev/null', `log=${log}`, ...options.agentTurn, ''].join('\n'));
    await chmod(join(root, 'agent.sh'), 0o755);
    const caseDir = await writeTwoStepsCase(join(root, 'eval_sets'), { ...options, postRunCleanup: options.postRunCleanup?.map((line) => `log=${log}; ${line}`) });
    const evalCase = await loadEvalCase(caseDir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TEMPORAL_ADDRESS: options.temporalAddress,
      DATABASE_URL: await postgresUrl(),
      EVALFLOW_STORE_SCHEMA: options.schema,
      EVALFLOW_HOME: join(root, '.evalflow'),
      EVALFLOW_SANDBOX_ROOT: join(root, 'sandboxes'),
      EVALFLOW_HOST_ID: 'crash-host',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-crash',
      EVALFLOW_EXAMINER_MODEL: options.models.examiner,
      EVALFLOW_JUDGE_MODEL: options.models.judge,
    };
    const agentLogFile = join(log, 'agent.log');
    return {
      root,
      mock,
      env,
      evalCase,
      modelCallTimes,
      modelCallsInFlight: () => inFlight,
      agentLog: () => (existsSync(agentLogFile) ? readFileSync(agentLogFile, 'utf8').trim().split('\n').filter(Boolean) : []),
      async startWorker(hostId, args = [], extra = {}) {
        const host = hostId ? { EVALFLOW_HOME: join(root, `.evalflow-${hostId}`), EVALFLOW_SANDBOX_ROOT: join(root, `sandboxes-${hostId}`), EVALFLOW_HOST_ID: hostId } : {};
        const worker = startCli(['worker', ...args], { cwd: root, env: { ...env, ...host, ...extra } });
        await worker.waitForLine(/^worker on /, 150_000);
        return worker;
      },
      batchInput: ({ name, stamp, parallelism, runsPerCase, turnTimeoutS, recovery }) => ({
        batchId: `batch-${stamp}-${name}`,
        stamp,
        selection: { paths: [join(root, 'eval_sets')], runsPerCase, digest: selectionDigest([evalCase]) },
        template: {
          candidate: { name: 'agent', adapter: 'command', args: [join(root, 'agent.sh')], env: {} },
          examiner: { model: options.models.examiner, apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
          judge: { model: options.models.judge, apiKeyEnv: 'OPENAI_API_KEY', baseUrl: mock.url },
          project: join(root, 'project'),
          workflowDir: join(root, 'workflow'),
          runsDir: join(root, 'runs', name),
          turnTimeoutS,
          ...(recovery ? { recovery } : {}),
        },
        parallelism,
        total: null,
        offset: 0,
        counts: { finished: 0, passed: 0, failed: 0 },
        recent: [],
      }),
      async close() {
        await mock.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await mock.close();
    await rm(root, { recursive: true, force: true });
    throw err;
  }
}
