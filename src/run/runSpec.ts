import { z } from 'zod';

const CaseSnapshotSchema = z.object({
  id: z.string(),
  version: z.string(),
  /** sha256 of the four case files, so a run records exactly which case text it ran. */
  hash: z.string(),
  dir: z.string(),
  maxTurns: z.number().int().min(1).max(50),
  targetWorkflow: z.string(),
  category: z.string(),
  task: z.object({ prompt: z.string(), scenario: z.string(), guidance: z.string() }),
  rubric: z.object({ hard: z.array(z.string()), quality: z.array(z.string()), commonFailures: z.array(z.string()) }),
  env: z.object({
    setup_commands: z.array(z.string()),
    preconditions: z.array(z.object({ description: z.string(), check: z.string(), severity: z.enum(['hard', 'soft']) })),
    post_run_cleanup: z.array(z.string()),
    postconditions: z.array(z.object({ description: z.string(), check: z.string(), severity: z.enum(['hard', 'soft']) })),
  }),
});
export type CaseSnapshot = z.infer<typeof CaseSnapshotSchema>;

const EndpointSchema = z.object({
  model: z.string(),
  baseUrl: z.string().optional(),
  apiKeyEnv: z.string().optional(),
  adapter: z.string().optional(),
  executable: z.string().optional(),
});

const CandidateSpecSchema = z.object({
  name: z.string(),
  adapter: z.string(),
  model: z.string().optional(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  baseUrl: z.string().optional(),
  apiKeyEnv: z.string().optional(),
  executable: z.string().optional(),
});

/**
 * The input of one evalRunWorkflow: everything a run needs, as plain JSON. It names the
 * environment variables that hold keys, never the keys, because workflow inputs are stored
 * in Temporal's history and shown in the Web UI.
 */
export const RunSpecSchema = z.object({
  runId: z.string(),
  batchId: z.string(),
  /** Attempt index with --runs-per-case (1-based), else absent. */
  k: z.number().int().positive().optional(),
  evalCase: CaseSnapshotSchema,
  candidate: CandidateSpecSchema,
  examiner: EndpointSchema,
  judge: EndpointSchema,
  project: z.string(),
  workflowDir: z.string(),
  runsDir: z.string(),
  turnTimeoutS: z.number().int().positive(),
  createdAt: z.string(),
});
export type RunSpec = z.infer<typeof RunSpecSchema>;

/** How a run ended (DESIGN.md, failure classification). */
export type RunStatus = 'completed' | 'aborted' | 'infra_error' | 'judge_failed' | 'cancelled';

export interface RunOutcome {
  runId: string;
  caseId: string;
  status: RunStatus;
  result: 'pass' | 'fail' | null;
  overall: number | null;
  runDir: string;
  anomalies: string[];
  error?: string;
}
