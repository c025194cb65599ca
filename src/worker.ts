import { readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { RunSlots } from './temporal/runSlots.js';
import { heartbeatWorker } from './temporal/workerHeartbeat.js';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { failActivitiesOfDeadWorkers } from './temporal/failover.js';
import { WORKER_TUNING } from './temporal/workerTuning.js';
import { installQuietRuntime } from './temporal/runtime.js';
import { workflowBundle } from './temporal/workflowBundle.js';
import { createActivities, inflightDir, type ActivityDeps, type CandidateFactory } from './activities/index.js';
import { createAgentCliLlm, createCandidateFactory, whyCannotRunHere } from './candidates/index.js';
import type { ModelEndpoint, Settings } from './config.js';
import { createOpenAiClient } from './llm/openaiClient.js';
import type { LlmClient, LlmRole } from './llm/port.js';
import { sweepHost } from './sandbox/sweepHost.js';
import type { Store } from './store/index.js';
import { hostTaskQueue, SHARED_TASK_QUEUE, SLOTS_TASK_QUEUE } from './temporal/names.js';
import { packageRoot } from './packageRoot.js';

/** The evalflow version, from package.json (shown in env_checklist.yaml). */
export const EVALFLOW_VERSION: string = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

export interface WorkerOptions {
  settings: Settings;
  store: Store;
  connection: NativeConnection;
  namespace: string;
  env: NodeJS.ProcessEnv;
  /** Where the host's sandboxes live; default `<tmp>/evalflow`. */
  sandboxRoot?: string;
  /** Wraps the candidate registry, e.g. to add test doubles next to the real adapters. */
  decorateCandidates?: (factory: CandidateFactory) => CandidateFactory;
  /** Where the worker says what it did at start (released attempts, killed leftovers); default stderr. */
  say?: (line: string) => void;
  /** The most runs this host takes at once (`evalflow worker --slots`); no limit when absent. */
  slots?: number;
  /** Where this host writes run dirs whatever the batch says; absent: where the batch says (the client's `runs_dir`). */
  runsDir?: string;
}

export interface RunningWorkers {
  hostId: string;
  hostQueue: string;
  slots: RunSlots;
  shutdown(): Promise<void>;
  /** Takes no new run, lets the held ones finish here, then shuts down (`--drain`, SIGUSR2, or asked through the store). */
  drain(): Promise<void>;
  /** Settles when both workers have stopped. */
  done: Promise<void>;
}

/**
 * The only composition root: builds the activity dependencies and runs three workers, one on
 * the shared queue (workflows, planning, examiner, judge), one on this host's queue
 * (everything that touches a run's sandbox), as in the worker-specific task queue pattern,
 * and one on the slots queue, where runs wait for a host with a free slot.
 */
export async function startWorkers(options: WorkerOptions): Promise<RunningWorkers> {
  installQuietRuntime();
  const decorate = options.decorateCandidates ?? ((factory: CandidateFactory) => factory);
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const hostId = options.env.EVALFLOW_HOST_ID ?? hostname();
  const slots = new RunSlots(options.slots ?? null);
  const deps: ActivityDeps = {
    slots,
    store: options.store,
    hostId,
    stateDir: options.settings.stateDir,
    workspaceDir: options.settings.root,
    ...(options.runsDir ? { runsDir: options.runsDir } : {}),
    sandboxRoot: options.sandboxRoot ?? options.env.EVALFLOW_SANDBOX_ROOT ?? join(tmpdir(), 'evalflow'),
    llmFor: (role, endpoint) => llmForEndpoint(role, endpoint, options.env),
    // A host claims only runs whose candidate it can start (capabilities per host: docs/scale-out.md).
    candidates: decorate({ ...createCandidateFactory({ env: options.env, llmFor: (endpoint) => llmForEndpoint('candidate', endpoint, options.env) }), whyCannotRun: (spec) => whyCannotRunHere(spec, options.env) }),
    env: options.env,
    log: { info: () => undefined, warn: (message) => say(`warning: ${message}`) },
    now: () => new Date(),
    version: EVALFLOW_VERSION,
  };
  // Before taking work: whatever a dead worker left running here dies, and sandboxes of runs that are over go.
  const swept = await sweepHost(deps.sandboxRoot, async (runId) => {
    const run = await options.store.getRun(runId);
    // Another store's run (another project sharing this sandbox root): not ours to remove.
    if (!run) return 'unknown';
    if (run.status === 'pending' || run.status === 'running') return 'active';
    return run.parked_host === hostId ? 'parked' : 'over';
  });
  // Then the attempts a dead worker here was running fail now, to be retried at once, not after their heartbeat timeout.
  const failedOver = await failActivitiesOfDeadWorkers(inflightDir(deps.sandboxRoot), new Client({ connection: options.connection, namespace: options.namespace }));
  if (failedOver.length > 0) {
    say(`released ${failedOver.length} attempt${failedOver.length === 1 ? '' : 's'} held by a worker that is gone: ${failedOver.map((r) => `${r.workflowId ?? '?'}: ${r.activityType}`).join(', ')}`);
  }
  if (swept.killed > 0 || swept.removed.length > 0) {
    say(`worker start on ${hostId}: killed ${swept.killed} process(es) a dead worker left running, removed ${swept.removed.length} sandbox(es) of finished runs`);
  }
  const activities = createActivities(deps);
  const common = { connection: options.connection, namespace: options.namespace, activities, ...WORKER_TUNING };
  const shared = await Worker.create({ ...common, taskQueue: SHARED_TASK_QUEUE, workflowBundle: await workflowBundle(options.env) });
  const host = await Worker.create({ ...common, taskQueue: hostTaskQueue(hostId) });
  // Polls only while a slot is free and the host does not drain (the supplier holds the poll back).
  const fixed = { type: 'fixed-size', numSlots: 1 } as const;
  const claims = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    activities,
    taskQueue: SLOTS_TASK_QUEUE,
    tuner: { activityTaskSlotSupplier: slots.supplier(), workflowTaskSlotSupplier: fixed, localActivityTaskSlotSupplier: fixed, nexusTaskSlotSupplier: fixed },
  });
  const workers = [shared, host, claims];
  let drain: () => Promise<void> = () => Promise.resolve();
  const heartbeat = heartbeatWorker({ store: options.store, hostId, slots, now: deps.now, onDrainAsked: () => void drain(), say });
  // The row goes once the workers have stopped, before the caller closes the store.
  const done = Promise.all(workers.map((worker) => worker.run())).finally(() => heartbeat.stop()).then(() => undefined);
  const shutdown = async () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    await done;
  };
  let draining: Promise<void> | undefined;
  drain = () =>
    (draining ??= (async () => {
      slots.drain();
      say(`draining ${hostId}: taking no new runs, finishing ${slots.busy} held`);
      await slots.idle();
      await shutdown();
    })());
  return { hostId, hostQueue: hostTaskQueue(hostId), slots, done, shutdown, drain };
}

function llmForEndpoint(role: LlmRole, endpoint: ModelEndpoint, env: NodeJS.ProcessEnv): LlmClient {
  if (endpoint.adapter) {
    // An agent CLI in text-only mode: teams with agent subscriptions but no API keys.
    return createAgentCliLlm(endpoint.adapter, { name: `${role}-${endpoint.adapter}`, model: endpoint.model, ...(endpoint.baseUrl ? { baseUrl: endpoint.baseUrl } : {}), ...(endpoint.apiKeyEnv ? { apiKeyEnv: endpoint.apiKeyEnv } : {}), ...(endpoint.executable ? { executable: endpoint.executable } : {}) }, { hostEnv: env });
  }
  const apiKey = endpoint.apiKeyEnv ? env[endpoint.apiKeyEnv] : undefined;
  // The worker's env, not process.env, decides the default endpoint (the openai package would read process.env).
  const baseUrl = endpoint.baseUrl ?? env.OPENAI_BASE_URL;
  return createOpenAiClient({
    [role]: { model: endpoint.model, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) },
  });
}
