import { z } from 'zod';
import { CandidateSpecSchema, ModelEndpointSchema, RecoverySchema } from './runSpec.js';

/** One planned run of a batch: which case (by folder) and which attempt. */
export const CaseRefSchema = z.object({
  caseId: z.string(),
  caseDir: z.string(),
  /** The case's content hash when the batch was planned; a changed case is refused. */
  hash: z.string(),
  k: z.number().int().positive().optional(),
});
export type CaseRef = z.infer<typeof CaseRefSchema>;

/** The supply side shared by every run of a batch. */
export const RunTemplateSchema = z.object({
  candidate: CandidateSpecSchema,
  examiner: ModelEndpointSchema,
  judge: ModelEndpointSchema,
  project: z.string(),
  workflowDir: z.string(),
  runsDir: z.string(),
  turnTimeoutS: z.number().int().positive(),
  recovery: RecoverySchema.optional(),
});
export type RunTemplate = z.infer<typeof RunTemplateSchema>;

/** Finished runs so far: all, passed, failed, and one count per final status. */
export const BatchCountsSchema = z
  .object({ finished: z.number().int().nonnegative(), passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative() })
  .catchall(z.number().int().nonnegative());
export type BatchCounts = z.infer<typeof BatchCountsSchema>;

/** A finished run as the batch keeps it for its progress query (the store keeps all of them). */
export const BatchOutcomeSchema = z.object({
  runId: z.string(),
  caseId: z.string(),
  status: z.string(),
  result: z.string().nullable(),
  overall: z.number().nullable(),
});
export type BatchOutcome = z.infer<typeof BatchOutcomeSchema>;

/** The input of evalBatchWorkflow, also carried over each continue-as-new. */
export const BatchInputSchema = z.object({
  batchId: z.string(),
  stamp: z.string(),
  refs: z.array(CaseRefSchema),
  template: RunTemplateSchema,
  parallelism: z.number().int().positive(),
  /** Where this (continued) execution starts in `refs`. */
  offset: z.number().int().nonnegative(),
  counts: BatchCountsSchema,
  recent: z.array(BatchOutcomeSchema),
  /** Runs planned per page (default 100). */
  pageSize: z.number().int().positive().optional(),
  /** History length after which the batch continues as new between pages (default 8000). */
  continueAsNewAfterEvents: z.number().int().positive().optional(),
});
export type BatchInput = z.infer<typeof BatchInputSchema>;

export const BatchResultSchema = z.object({ batchId: z.string(), total: z.number().int().nonnegative(), counts: BatchCountsSchema });
export type BatchResult = z.infer<typeof BatchResultSchema>;
