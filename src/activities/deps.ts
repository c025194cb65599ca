import type { Candidate, CandidateSpec } from '../candidates/adapter.js';
import type { CandidateRunLimits } from '../candidates/index.js';
import type { LlmClient, LlmRole } from '../llm/port.js';
import type { ModelEndpoint } from '../run/runSpec.js';
import type { Store } from '../store/store.js';
import type { WorkflowSupport } from '../workflowUsage/index.js';

/** The candidate side as activities need it; built from the adapter registry in the worker. */
export interface CandidateFactory {
  create(spec: CandidateSpec, run?: CandidateRunLimits): Candidate;
  /** Where the adapter's agent discovers the workflow, and how its stream shows it used. */
  workflowSupport(adapter: string): WorkflowSupport;
  /** The CLI's version string, or null when it cannot be told (builtin, not installed). */
  version(spec: CandidateSpec): Promise<string | null>;
  /** Why this host cannot start the candidate, or null; absent: every host can (test doubles). */
  whyCannotRun?(spec: CandidateSpec): Promise<string | null>;
}

export interface ActivityLogger {
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

/** The run slots of this host (see `temporal/runSlots.ts`). */
export interface HostSlots {
  /** Takes a slot for the run; false when none is free or the host drains. */
  tryHold(runId: string): boolean;
  release(runId: string): void;
}

/** Everything activities use, injected by the worker (the only composition root). */
export interface ActivityDeps {
  store: Store;
  /** Stable id of this host; its task queue is `evalflow@<hostId>`. */
  hostId: string;
  /** evalflow's own state folder (imported project repos live here). */
  stateDir: string;
  /** Where sandboxes and agent homes of this host's runs live (outside any repository). */
  sandboxRoot: string;
  /** Where this host writes run dirs, whatever the batch says (the worker's EVALFLOW_RUNS_DIR or `runs_dir`); absent: the batch's `runsDir`. */
  runsDir?: string;
  /** The worker's workspace (the folder of its evalflow.config.yaml and `.env`): hidden from candidates. */
  workspaceDir?: string;
  /** A client for the examiner or judge endpoint of a run; keys are resolved from `env` by name. */
  llmFor(role: LlmRole, endpoint: ModelEndpoint): LlmClient;
  candidates: CandidateFactory;
  env: NodeJS.ProcessEnv;
  log: ActivityLogger;
  now(): Date;
  version: string;
  /** How many runs this host takes at once; unlimited when absent. */
  slots?: HostSlots;
}

