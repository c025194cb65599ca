import * as z from 'zod';
import { WorkflowExpectationSchema } from '../vocabulary/workflowUsage.js';
import { IsolationSchema } from '../vocabulary/isolation.js';

const CheckSchema = z.object({ description: z.string(), check: z.string(), severity: z.enum(['hard', 'soft']) });

/** What a run carries of its eval case: the texts the examiner and judge need, and its identity. */
export const CaseSnapshotSchema = z.object({
  id: z.string(),
  version: z.string(),
  /** sha256 of the four case files, so a run records exactly which case text it ran. */
  hash: z.string(),
  /** The case folder where the client read it; a host reads it there only when `pack` is absent. */
  dir: z.string(),
  /** The case folder travels with the batch as this pack (store `case_packs`): each host writes it out and runs from that copy. */
  pack: z.string().optional(),
  maxTurns: z.number().int().min(1).max(50),
  targetWorkflow: z.string(),
  category: z.string(),
  /** meta.yaml's purpose; absent in specs written before it was carried. */
  purpose: z.string().optional(),
  /** meta.yaml's tags, for filters in the dashboard; absent in specs written before they were carried. */
  tags: z.array(z.string()).optional(),
  task: z.object({ prompt: z.string(), scenario: z.string(), guidance: z.string() }),
  rubric: z.object({ hard: z.array(z.string()), quality: z.array(z.string()), commonFailures: z.array(z.string()) }),
  env: z.object({
    setup_commands: z.array(z.string()),
    preconditions: z.array(CheckSchema),
    post_run_cleanup: z.array(z.string()),
    postconditions: z.array(CheckSchema),
    /** env.yaml `setup_network`: the setup commands (only they) have the host's network. */
    setup_network: z.boolean().optional(),
    /** env.yaml `protected`; absent in specs written before it was carried, and when the case has none. */
    protected: z.array(z.string()).optional(),
  }),
  /** meta.yaml `expect_workflow`, when the case has one. */
  expectWorkflow: WorkflowExpectationSchema.optional(),
});
export type CaseSnapshot = z.infer<typeof CaseSnapshotSchema>;

/** The model behind the examiner or the judge: an OpenAI-compatible endpoint, or an agent CLI in text-only mode. */
export const ModelEndpointSchema = z.object({
  model: z.string(),
  baseUrl: z.string().optional(),
  /** Name of the environment variable holding the key (never the key: specs are stored in Temporal's history). */
  apiKeyEnv: z.string().optional(),
  /** An agent CLI adapter serving this role in text-only mode (for teams without API keys). */
  adapter: z.string().optional(),
  executable: z.string().optional(),
});
export type ModelEndpoint = z.infer<typeof ModelEndpointSchema>;

/**
 * A named candidate from the supply-side config: one adapter serves many candidates (the same
 * CLI with different models, args or env).
 */
export const CandidateSpecSchema = z.object({
  /** Used in run ids and reports, e.g. `claude-sonnet` or simply the adapter name. */
  name: z.string(),
  /** Adapter key in the registry: `claude-code`, `codex`, `command`, `builtin`, ... */
  adapter: z.string(),
  model: z.string().optional(),
  /** Extra arguments appended to every turn (CLI adapters), or the command itself (`command`). */
  args: z.array(z.string()),
  /** Extra environment of the candidate process; values may reference `${ENV_VAR}` of the host. */
  env: z.record(z.string(), z.string()),
  /** Base URL of the model endpoint the agent should use (OpenAI, Anthropic, Gemini style per adapter). */
  baseUrl: z.string().optional(),
  /** Name of the host environment variable that holds the API key (never the key itself). */
  apiKeyEnv: z.string().optional(),
  /** Override of the executable (path or name on PATH). */
  executable: z.string().optional(),
  /** How its processes are contained; absent in specs of earlier versions, which ran uncontained. */
  isolation: IsolationSchema.optional(),
  /** Remote `host:port` endpoints it may reach when contained (its provider); absent: none. */
  networkAllow: z.array(z.string()).optional(),
});
export type CandidateSpec = z.infer<typeof CandidateSpecSchema>;

/** How long a run waits out trouble before it gives up (defaults in `recovery.ts`). */
export const RecoverySchema = z.object({
  /** A model endpoint answering 429/5xx or not at all is retried with backoff this long before the step fails. */
  modelOutageS: z.number().int().positive(),
  /** A host whose queue has had no worker this long is given up: the run starts again on another host. */
  hostLostAfterS: z.number().int().positive(),
});
export type Recovery = z.infer<typeof RecoverySchema>;

/**
 * How a run is judged and what happens to a verdict in doubt. Absent in specs of earlier
 * versions, which read as one sample and `later`.
 */
export const JudgingPolicySchema = z.object({
  /** Independent judge samples (`--judges N`); samples that disagree on the result need a person. */
  samples: z.number().int().min(1).max(9),
  /** `wait`: the run's workflow waits for a person's decision; `later`: it records needs_review and ends. */
  review: z.enum(['wait', 'later']),
  /** The judge may share the candidate's model or agent (`--allow-self-judge`). */
  allowSelfJudge: z.boolean(),
});
export type JudgingPolicy = z.infer<typeof JudgingPolicySchema>;

/** The supply side shared by every run of a batch; a run's spec is this and the run's own fields. */
export const RunTemplateSchema = z.object({
  candidate: CandidateSpecSchema,
  examiner: ModelEndpointSchema,
  judge: ModelEndpointSchema,
  /** A local path (read on the host that prepares the run) or a git URL (read from each host's mirror at `projectCommit`). */
  project: z.string(),
  /** The commit a git URL `project` was pinned to when the batch started, so every host tests the same one; absent for a path. */
  projectCommit: z.string().optional(),
  /** A local path, or a git URL whose top holds the workflow folders (then `workflowRev` is the commit pinned at the start). */
  workflowDir: z.string(),
  runsDir: z.string(),
  turnTimeoutS: z.number().int().positive(),
  recovery: RecoverySchema.optional(),
  judging: JudgingPolicySchema.optional(),
  /**
   * Snapshot the workflow folders as of this commit of their repository, not as they are now: a
   * scheduled batch pins the rev it started with, an A/B arm its own.
   */
  workflowRev: z.string().optional(),
  /** The viewer's address from the config (`view`), for the run's link in the Web UI; absent when unknown. */
  viewerUrl: z.string().optional(),
});
export type RunTemplate = z.infer<typeof RunTemplateSchema>;

/**
 * The input of one evalRunWorkflow: everything a run needs, as plain JSON. It names the
 * environment variables that hold keys, never the keys, because workflow inputs are stored
 * in Temporal's history and shown in the Web UI.
 */
export const RunSpecSchema = RunTemplateSchema.extend({
  runId: z.string(),
  batchId: z.string(),
  /** Attempt index with --runs-per-case (1-based), else absent. */
  k: z.number().int().positive().optional(),
  /** The A/B arm this run belongs to, in a batch with arms. */
  arm: z.string().optional(),
  evalCase: CaseSnapshotSchema,
  /** Run without any workflow at all (the `workflow=none` arm: what the workflow adds). */
  noWorkflow: z.boolean().optional(),
  /** How often `evalflow resume` continued this run; its attempts are numbered past the earlier executions'. */
  resumes: z.number().int().nonnegative().optional(),
  /** The host the run must start on (a resumed run continues where its sandbox was kept); else any host. */
  host: z.string().optional(),
  createdAt: z.string(),
});
export type RunSpec = z.infer<typeof RunSpecSchema>;
