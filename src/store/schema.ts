import * as z from 'zod';
import { BATCH_STATUSES } from '../vocabulary/batchStatuses.js';
import { RunAnomalySchema } from '../vocabulary/anomaly.js';
import { RunStateSchema } from '../vocabulary/runStatus.js';
import { HardRequirementCoreSchema, ScoreSchema, ScoreValueSchema } from '../vocabulary/score.js';
import { VerdictResultSchema } from '../vocabulary/verdictResult.js';
import { UsageSchema } from '../vocabulary/usage.js';

/**
 * The store's row formats: what repositories accept and return, and what rows read back are
 * checked against. Field names are the column names (snake_case, like the transcript and
 * score.yaml); timestamps are ISO-8601 strings; everything is plain JSON, fit for Temporal.
 */

const Timestamp = z.iso.datetime({ offset: true }).describe('ISO-8601 timestamp, e.g. 2026-01-31T12:00:00.000Z');
const JsonObject = z.record(z.string(), z.unknown());

/** Model names per role for one run; only the roles that used a model are present. */
export const RunModelsSchema = z.object({
  examiner: z.string().optional(),
  judge: z.string().optional(),
  candidate: z.string().optional(),
});
export type RunModels = z.infer<typeof RunModelsSchema>;

/** Tokens a run used, per role; a role's usage is null when it is not known (a CLI that does not report it). */
export const RoleTokensSchema = z.object({ examiner: UsageSchema.nullable(), candidate: UsageSchema.nullable(), judge: UsageSchema.nullable() });
export type RoleTokens = z.infer<typeof RoleTokensSchema>;

/** One row of `runs`. */
export const RunRowSchema = z.object({
  run_id: z.string().min(1),
  batch_id: z.string().nullable().describe('null for a run outside any batch'),
  case_id: z.string().min(1),
  case_version: z.string(),
  case_hash: z.string(),
  candidate: z.string().min(1),
  candidate_adapter: z.string(),
  models: RunModelsSchema,
  workflow_rev: z.string().nullable().describe('git commit of the workflow repo; null when it is not a git repo'),
  status: RunStateSchema,
  result: VerdictResultSchema.nullable(),
  overall: ScoreValueSchema.nullable(),
  run_dir: z.string(),
  temporal_workflow_id: z.string().nullable(),
  temporal_run_id: z.string().nullable(),
  config: JsonObject.describe('the supply side of the run, as in config.yaml'),
  spec: JsonObject.nullable().describe('the workflow input of the run (RunSpec), for rejudging'),
  judge_input: JsonObject.nullable().describe('run facts, postcondition results and host, for rejudging'),
  anomalies: z.array(RunAnomalySchema),
  error: z.string().nullable(),
  parked_host: z.string().nullable().describe('the host keeping the sandbox of an infra_error run that `evalflow resume` can continue'),
  project_rev: z.string().nullable().describe('the commit of the project the sandbox started from'),
  candidate_cli_version: z.string().nullable(),
  workflow_dirty: z.boolean().nullable().describe('the workflow folders had uncommitted changes'),
  workflow_hash: z.string().nullable().describe("content hash of the run's workflow snapshot"),
  arm: z.string().nullable().describe('the A/B arm of the run; null outside an experiment'),
  attempt_index: z.number().int().positive().nullable().describe('k of --runs-per-case; null with one run per case'),
  tokens: RoleTokensSchema.nullable().describe('tokens per role; null until the run recorded itself'),
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Run = z.infer<typeof RunRowSchema>;

/** Where one run of a batch stands, as the live view polls it: a few columns, never the run's large ones. */
export const RunStateRowSchema = RunRowSchema.pick({ run_id: true, status: true, result: true, updated_at: true });
export type RunStateRow = z.infer<typeof RunStateRowSchema>;

/**
 * A run of a batch as the viewer's case views list it: a few columns, never the run's large
 * ones; `result` and `overall` are its verdict's (null without one), a person's decision
 * replacing the judge's result as summaries count it.
 */
export const CaseRunRowSchema = RunRowSchema.pick({ run_id: true, case_id: true, arm: true, attempt_index: true, status: true, result: true, overall: true });
export type CaseRunRow = z.infer<typeof CaseRunRowSchema>;

/**
 * One workflow revision's runs of one case, counted in SQL (history's row source): a run
 * without any workflow has no revision and is not counted; `unknown` when the folder was no
 * git repository. Counts follow the runs' verdicts as summaries count them: judged = completed
 * with a verdict, a person's decision replacing the judge's result.
 */
export const RevisionCaseStatsRowSchema = z.object({
  workflow_rev: z.string(),
  case_id: z.string(),
  /** The case version and hash of the revision's earliest run of the case. */
  case_version: z.string(),
  case_hash: z.string(),
  /** How many different case hashes the runs had: more than one is no single side of the case. */
  hashes: z.coerce.number().int().positive(),
  runs: z.coerce.number().int().positive(),
  judged: z.coerce.number().int().nonnegative(),
  passes: z.coerce.number().int().nonnegative(),
  overall_sum: z.coerce.number().nullable(),
  overall_n: z.coerce.number().int().nonnegative(),
  /** Runs not judged, by status. */
  uncounted: z.record(z.string(), z.coerce.number().int().positive()),
  first_created_at: Timestamp,
});
export type RevisionCaseStatsRow = z.infer<typeof RevisionCaseStatsRowSchema>;

/** What `upsertRun` takes: a run, with the optional columns defaulted. */
export const RunRowInputSchema = RunRowSchema.omit({ created_at: true, updated_at: true }).extend({
  batch_id: RunRowSchema.shape.batch_id.default(null),
  models: RunModelsSchema.default({}),
  workflow_rev: RunRowSchema.shape.workflow_rev.default(null),
  status: RunStateSchema.default('pending'),
  result: RunRowSchema.shape.result.default(null),
  overall: RunRowSchema.shape.overall.default(null),
  temporal_workflow_id: RunRowSchema.shape.temporal_workflow_id.default(null),
  temporal_run_id: RunRowSchema.shape.temporal_run_id.default(null),
  config: JsonObject.default({}),
  spec: JsonObject.nullable().default(null),
  judge_input: JsonObject.nullable().default(null),
  anomalies: z.array(RunAnomalySchema).default([]),
  error: RunRowSchema.shape.error.default(null),
  parked_host: RunRowSchema.shape.parked_host.default(null),
  project_rev: RunRowSchema.shape.project_rev.default(null),
  candidate_cli_version: RunRowSchema.shape.candidate_cli_version.default(null),
  workflow_dirty: RunRowSchema.shape.workflow_dirty.default(null),
  workflow_hash: RunRowSchema.shape.workflow_hash.default(null),
  arm: RunRowSchema.shape.arm.default(null),
  attempt_index: RunRowSchema.shape.attempt_index.default(null),
  tokens: RunRowSchema.shape.tokens.default(null),
  started_at: RunRowSchema.shape.started_at.default(null),
  finished_at: RunRowSchema.shape.finished_at.default(null),
  created_at: Timestamp.optional().describe('kept from the first upsert; defaults to now'),
});
export type RunRowInput = z.input<typeof RunRowInputSchema>;

/** What `updateRun` may change. The run's identity (case, candidate) never changes. */
export const RunPatchSchema = RunRowSchema.pick({
  batch_id: true,
  models: true,
  workflow_rev: true,
  status: true,
  result: true,
  overall: true,
  run_dir: true,
  temporal_workflow_id: true,
  temporal_run_id: true,
  config: true,
  spec: true,
  judge_input: true,
  anomalies: true,
  error: true,
  parked_host: true,
  project_rev: true,
  candidate_cli_version: true,
  workflow_dirty: true,
  workflow_hash: true,
  arm: true,
  attempt_index: true,
  tokens: true,
  started_at: true,
  finished_at: true,
})
  .partial()
  .strict();
export type RunPatch = z.infer<typeof RunPatchSchema>;

export const ListRunsFilterSchema = z
  .object({
    batchId: z.string().optional(),
    caseId: z.string().optional(),
    candidate: z.string().optional(),
    status: z.union([RunStateSchema, z.array(RunStateSchema)]).optional(),
    workflowRev: z.string().optional(),
    /** Runs whose workflow_rev starts with this (a commit named by its prefix), matched in SQL. */
    workflowRevPrefix: z.string().min(1).optional(),
    /** Only runs that ran a workflow: not `spec.noWorkflow`, nor workflow_rev `none` (see summaries/workflowRevision.ts). */
    withWorkflow: z.literal(true).optional(),
    arm: z.string().optional(),
    limit: z.number().int().positive().optional(),
    /**
     * Paging through many runs: only runs whose id sorts after this one, listed in run_id
     * order instead of newest first (the primary key's order, so each page is a range read).
     */
    afterRunId: z.string().optional(),
    /**
     * The next page of the newest-first list: only runs listed after this one, by
     * (created_at, run_id), so a page is a range read of an index whatever its depth. A run id
     * the store does not have selects nothing.
     */
    olderThan: z.string().optional(),
  })
  .strict()
  .refine((f) => f.afterRunId === undefined || f.olderThan === undefined, { message: 'afterRunId (run_id order) and olderThan (newest first) page different orders; give one' });
export type ListRunsFilter = z.infer<typeof ListRunsFilterSchema>;

/** One hard requirement of a verdict (`met` null: not assessed); other keys the judge adds pass through. */
export const HardRequirementRowSchema = HardRequirementCoreSchema.loose();
export type HardRequirementRow = z.infer<typeof HardRequirementRowSchema>;

/**
 * One row of `scores`, and of `score_history`: score.yaml's fields (vocabulary/score.ts) as the
 * table keeps them, looser where rows of earlier versions differ (scores may be null, suggestions
 * untagged), plus the judge's raw answer.
 */
export const ScoreRowSchema = z.object({
  run_id: z.string().min(1),
  result: ScoreSchema.shape.result,
  compliance: ScoreValueSchema.nullable(),
  execution_quality: ScoreValueSchema.nullable(),
  overall: ScoreValueSchema.nullable(),
  summary: ScoreSchema.shape.summary,
  hard_requirements: z.array(HardRequirementRowSchema),
  suggestions: z.array(z.string()),
  judge_model: ScoreSchema.shape.judge_model,
  judged_at: Timestamp,
  raw: z.string().describe("the judge's raw answer"),
  salvaged: ScoreSchema.shape.salvaged,
});
export type ScoreRow = z.infer<typeof ScoreRowSchema>;

/** What `saveScore` takes (the run id is its own argument). */
export const ScoreRowInputSchema = ScoreRowSchema.omit({ run_id: true }).extend({
  compliance: ScoreRowSchema.shape.compliance.default(null),
  execution_quality: ScoreRowSchema.shape.execution_quality.default(null),
  overall: ScoreRowSchema.shape.overall.default(null),
  summary: z.string().default(''),
  hard_requirements: z.array(HardRequirementRowSchema).default([]),
  suggestions: z.array(z.string()).default([]),
  raw: z.string().default(''),
  salvaged: z.boolean().default(false),
});
export type ScoreRowInput = z.input<typeof ScoreRowInputSchema>;

/** One verdict of `score_history` with the run facts a trend report groups by. */
export const ScoreHistoryEntrySchema = ScoreRowSchema.omit({ raw: true }).extend({
  case_id: z.string(),
  case_version: z.string(),
  candidate: z.string(),
  batch_id: z.string().nullable(),
  workflow_rev: z.string().nullable(),
  finished_at: Timestamp.nullable(),
});
export type ScoreHistoryEntry = z.infer<typeof ScoreHistoryEntrySchema>;

export const ScoreHistoryFilterSchema = z
  .object({ caseId: z.string().optional(), candidate: z.string().optional(), limit: z.number().int().positive().optional() })
  .strict();
export type ScoreHistoryFilter = z.infer<typeof ScoreHistoryFilterSchema>;

export const BatchStatusSchema = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatusSchema>;

/** One row of `batches`. */
export const BatchRowSchema = z.object({
  batch_id: z.string().min(1),
  status: BatchStatusSchema,
  spec: JsonObject.describe('what the batch was asked to run'),
  counts: z.record(z.string(), z.number().int().nonnegative()).describe('runs per status or result'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Batch = z.infer<typeof BatchRowSchema>;

export const BatchRowInputSchema = BatchRowSchema.omit({ created_at: true, updated_at: true }).extend({
  status: BatchStatusSchema.default('pending'),
  spec: JsonObject.default({}),
  counts: BatchRowSchema.shape.counts.default({}),
  created_at: Timestamp.optional(),
});
export type BatchRowInput = z.input<typeof BatchRowInputSchema>;

/** What `updateBatch` may change: its status and counts (never its spec or creation time). */
export const BatchPatchSchema = BatchRowSchema.pick({ status: true, counts: true }).partial().strict();
export type BatchPatch = z.infer<typeof BatchPatchSchema>;

/** One (case, attempt) of a batch's plan, in run order. */
export const PlanEntryRowSchema = z.object({
  idx: z.number().int().nonnegative(),
  case_id: z.string().min(1),
  case_dir: z.string(),
  case_hash: z.string(),
  k: z.number().int().positive().nullable(),
  /** The A/B arm of the run; null outside an experiment. */
  arm: z.string().nullable().default(null),
  /** The `sha256:…` of the case folder's pack (store `case_packs`) the run reads its case from; null in plans made from paths. */
  case_pack: z.string().nullable().default(null),
});
export type PlanEntry = z.infer<typeof PlanEntryRowSchema>;
/** A plan entry as written: `arm` and `case_pack` may be left out (null). */
export type PlanEntryInput = z.input<typeof PlanEntryRowSchema>;

export const ListBatchesFilterSchema = z
  .object({
    status: z.union([BatchStatusSchema, z.array(BatchStatusSchema)]).optional(),
    limit: z.number().int().positive().optional(),
    /** The next page: only batches listed after this one, by (created_at, batch_id). An id the store does not have selects nothing. */
    olderThan: z.string().optional(),
  })
  .strict();
export type ListBatchesFilter = z.infer<typeof ListBatchesFilterSchema>;

/** One row of `run_reviews`: a person's decision on a run whose verdict needed one. */
export const RunReviewRowSchema = z.object({
  run_id: z.string().min(1),
  result: VerdictResultSchema,
  author: z.string().min(1),
  note: z.string(),
  judge_result: VerdictResultSchema.nullable().describe("the judge's result when the person decided"),
  reasons: z.array(z.string()).describe('why the verdict needed a person, as the judge stage said'),
  decided_at: Timestamp,
});
export type RunReview = z.infer<typeof RunReviewRowSchema>;

/** What `saveReview` takes (the run id is its own argument). */
export const RunReviewRowInputSchema = RunReviewRowSchema.omit({ run_id: true });
export type RunReviewRowInput = z.infer<typeof RunReviewRowInputSchema>;

export const RunStepRoleSchema = z.enum(['setup', 'examiner', 'candidate', 'judge']);
export type RunStepRole = z.infer<typeof RunStepRoleSchema>;

/** One attempt at a step of a run: `spending` from just before the agent or model is called, `finished` with its output. */
export const RunStepRowSchema = z.object({
  run_id: z.string().min(1),
  role: RunStepRoleSchema,
  turn: z.number().int().nonnegative(),
  attempt: z.number().int().positive(),
  state: z.enum(['spending', 'finished']),
  usage: UsageSchema.nullable(),
  output: JsonObject.nullable(),
  started_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type RunStep = z.infer<typeof RunStepRowSchema>;

export const RunStepKeySchema = RunStepRowSchema.pick({ run_id: true, role: true, turn: true, attempt: true });
export type RunStepKey = z.infer<typeof RunStepKeySchema>;

/** A run with its current verdict (null until it was judged), as reports read them. */
export interface RunWithVerdict {
  run: Run;
  verdict: ScoreRow | null;
}
