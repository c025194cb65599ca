import * as z from 'zod';
import { ARM_NAME } from './runId.js';
import { RunOutcomeSchema } from './runOutcome.js';
import { CandidateSpecSchema, RunTemplateSchema } from './runSpec.js';
import { PricesSchema } from '../vocabulary/prices.js';
import { ChangedOnlySchema } from '../vocabulary/changedOnly.js';
import { RoundsStateSchema, UntilDecidedInputSchema } from './untilDecided.js';

/**
 * Which cases a batch runs: the bank folders (or case folders) and ids the client selected
 * them by, the set of their contents it saved (`caseSet`), and the attempts per case. Planned inside the batch, so its input stays small
 * whatever the bank's size.
 */
export const BatchSelectionSchema = z.object({
  paths: z.array(z.string()).min(1),
  only: z.array(z.string()).optional(),
  runsPerCase: z.number().int().positive(),
  /** `selectionDigest` of the cases the client validated; planning refuses a bank that changed since. */
  digest: z.string(),
  /**
   * The cases as the client validated them, saved to the store (`case_sets`, `case_packs`):
   * planning reads them from there, not from `paths`, so no host needs the bank. Absent in
   * batches started before cases travelled, and in a schedule's firing, which reads the bank itself.
   */
  caseSet: z.string().optional(),
  /** `--changed-only`: `only` holds the cases it picked; this says from what change, and what it skipped. */
  changedOnly: ChangedOnlySchema.optional(),
});
export type BatchSelection = z.infer<typeof BatchSelectionSchema>;

/**
 * One side of an A/B experiment: what it changes against the batch's template, exactly one
 * thing (a workflow revision, a workflow folder, no workflow, a candidate, a candidate model),
 * or nothing (the base).
 */
export const BatchArmSchema = z.object({
  name: z.string().regex(ARM_NAME),
  /** What the arm changes, as given: `workflow_rev=HEAD~1`, `model=gpt-4o`, `base`. */
  change: z.string(),
  candidate: CandidateSpecSchema.optional(),
  workflowDir: z.string().optional(),
  workflowRev: z.string().optional(),
  noWorkflow: z.boolean().optional(),
});
export type BatchArm = z.infer<typeof BatchArmSchema>;

/** Finished runs so far: all, passed, failed, and one count per final status. */
export const BatchCountsSchema = z
  .object({ finished: z.number().int().nonnegative(), passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative() })
  .catchall(z.number().int().nonnegative());
export type BatchCounts = z.infer<typeof BatchCountsSchema>;

/** A finished run as the batch keeps it for its progress query (the store keeps all of them). */
export const BatchOutcomeSchema = RunOutcomeSchema.pick({ runId: true, caseId: true, status: true, result: true, overall: true });
export type BatchOutcome = z.infer<typeof BatchOutcomeSchema>;

/** The input of evalBatchWorkflow, also carried over each continue-as-new. */
export const BatchInputSchema = z.object({
  batchId: z.string(),
  stamp: z.string(),
  selection: BatchSelectionSchema,
  template: RunTemplateSchema,
  /** An A/B batch's arms; its runs alternate between them (A, B, A, B per case) so drift hits both. */
  arms: z.array(BatchArmSchema).optional(),
  parallelism: z.number().int().positive(),
  /** Runs in the plan; null until the batch has planned them (its first step). */
  total: z.number().int().nonnegative().nullable(),
  /** Where this (continued) execution starts in the plan. */
  offset: z.number().int().nonnegative(),
  counts: BatchCountsSchema,
  recent: z.array(BatchOutcomeSchema),
  /** Where the batch rebuilds summaries/ when it ends, and the prices its costs use; no summaries without it. */
  summaries: z.object({ dir: z.string(), prices: PricesSchema }).optional(),
  /** The schedule that started the batch, for its row and listings. */
  schedule: z.string().optional(),
  /** `--until-decided`: the batch runs rounds of one attempt per arm of each open case until the sequential test decides it (docs/how-many-runs.md). */
  untilDecided: UntilDecidedInputSchema.optional(),
  /** Runs planned per page (default 100). */
  pageSize: z.number().int().positive().optional(),
  /** History length after which the batch continues as new between pages (default 8000). */
  continueAsNewAfterEvents: z.number().int().positive().optional(),
});
export type BatchInput = z.infer<typeof BatchInputSchema>;

export const BatchResultSchema = z.object({
  batchId: z.string(),
  total: z.number().int().nonnegative(),
  counts: BatchCountsSchema,
  /** An until-decided batch's final rounds: each case's sequential decision and why it stopped. */
  rounds: RoundsStateSchema.optional(),
});
export type BatchResult = z.infer<typeof BatchResultSchema>;
