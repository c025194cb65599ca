import * as z from 'zod';

/**
 * What an edit-prediction batch workflow takes and returns: plain JSON, small. Examples cross
 * Temporal by key (their spec is in the store), so a batch of thousands stays far below the
 * payload and history limits. The workflow imports only the types (its bundle stays free of zod).
 */

/** The model endpoint of the `openai` provider (the key is read from `apiKeyEnv` by the worker). */
export const EpModelEndpointSchema = z.object({
  model: z.string(),
  baseUrl: z.string().optional(),
  apiKeyEnv: z.string().optional(),
});
export type EpModelEndpoint = z.infer<typeof EpModelEndpointSchema>;

export const EpProviderSpecSchema = z.object({
  /** `noop` or `openai` (see PROVIDER_NAMES). */
  name: z.string(),
  /** Required by `openai`. */
  endpoint: EpModelEndpointSchema.optional(),
});
export type EpProviderSpec = z.infer<typeof EpProviderSpecSchema>;

/** One example of a batch, in processing order. */
export const EpBatchExampleSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** Index of its repository group: examples of one group run one after another (they share a worktree). */
  group: z.number().int().nonnegative(),
});
export type EpBatchExample = z.infer<typeof EpBatchExampleSchema>;

/** `predict` stops after the prediction; `score` (ep score, ep eval) also scores it. */
export const EpBatchStageSchema = z.enum(['predict', 'score']);
export type EpBatchStage = z.infer<typeof EpBatchStageSchema>;

export const EpBatchCountsSchema = z.object({
  finished: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Examples whose predictions were already in the store (from the input, or an earlier attempt). */
  reused: z.number().int().nonnegative(),
});
export type EpBatchCounts = z.infer<typeof EpBatchCountsSchema>;

/** The step an example failed at, and why. */
export const EpExampleFailureSchema = z.object({
  key: z.string(),
  name: z.string(),
  stage: z.enum(['load', 'predict', 'score']),
  error: z.string(),
});
export type EpExampleFailure = z.infer<typeof EpExampleFailureSchema>;

/** One finished example as the progress query shows it. */
export const EpBatchOutcomeSchema = z.object({
  key: z.string(),
  name: z.string(),
  status: z.enum(['done', 'failed']),
  /** e.g. `predicted by openai:gpt-4o-mini; delta chrF 100.00`, or `failed at load: …`. */
  detail: z.string(),
});
export type EpBatchOutcome = z.infer<typeof EpBatchOutcomeSchema>;

/** The input of editPredictionBatchWorkflow, also carried over each continue-as-new. */
export const EpBatchInputSchema = z.object({
  batchId: z.string(),
  examples: z.array(EpBatchExampleSchema),
  provider: EpProviderSpecSchema,
  stage: EpBatchStageSchema,
  /** Delta chrF β. */
  beta: z.number(),
  /** Repository groups processed at the same time. */
  maxParallelism: z.number().int().positive(),
  /** Stop starting examples after the first failure. */
  failfast: z.boolean(),
  /** Relative local repository paths resolve against this directory (where the user ran evalflow). */
  cwd: z.string(),
  /** Examples per page; the workflow continues as new after each page (default 200). */
  pageSize: z.number().int().positive().optional(),
  /** Where this (continued) execution starts in `examples`. */
  offset: z.number().int().nonnegative(),
  counts: EpBatchCountsSchema,
  failures: z.array(EpExampleFailureSchema),
  /** The most recent outcomes, carried across continue-as-new for the progress query. */
  recent: z.array(EpBatchOutcomeSchema),
});
export type EpBatchInput = z.infer<typeof EpBatchInputSchema>;

export const EpBatchResultSchema = z.object({
  batchId: z.string(),
  total: z.number().int().nonnegative(),
  counts: EpBatchCountsSchema,
  /** The first failures (at most MAX_FAILURES_KEPT); `counts.failed` counts all. */
  failures: z.array(EpExampleFailureSchema),
  /** `failfast` stopped the batch before every example ran. */
  stoppedEarly: z.boolean(),
});
export type EpBatchResult = z.infer<typeof EpBatchResultSchema>;
