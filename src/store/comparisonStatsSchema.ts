import * as z from 'zod';
import { VerdictResultSchema } from '../vocabulary/verdictResult.js';
import { UsageFlagSchema } from '../vocabulary/workflowUsage.js';

/**
 * The runs one side of a comparison stands for: a batch, one arm of it, a workflow revision
 * (of one batch, when given). Every filter given must match.
 */
export const ComparisonFilterSchema = z.object({
  batchId: z.string().min(1).optional(),
  arm: z.string().min(1).optional(),
  workflowRev: z.string().min(1).optional(),
});
export type ComparisonFilter = z.infer<typeof ComparisonFilterSchema>;

/** A SQL array an aggregate FILTER left empty comes back as null: read as []. */
const list = <T extends z.ZodType>(item: T) => z.array(item).nullable().transform((value) => value ?? []);
const count = z.coerce.number().int().nonnegative();

/**
 * One case of a comparison side, grouped in SQL (`compare`'s source): counts, and in the
 * side's run order (newest first, as `listRuns`) what the comparison reads run by run but
 * keeps in order: overall scores (summed in that order), review dirs, attempts. Judged =
 * completed with a verdict; a person's decision replaces the judge's result.
 */
export const ComparisonCaseStatsRowSchema = z.object({
  case_id: z.string(),
  /** The case version of the side's newest run of the case. */
  case_version: z.string(),
  /** Every run's case hash in run order when they differ; one hash when all runs agree. */
  case_hashes: z.array(z.string()).min(1),
  runs: count,
  judged: count,
  passes: count,
  /** The judged runs' overall scores (the verdict's), those that have one. */
  overalls: list(z.number()),
  /** The run dir of each run with a verdict, judged or not. */
  review_dirs: list(z.string()),
  /** Runs whose candidate ran uncontained (spec's, else config's `candidate.isolation` not `sandbox`). */
  uncontained: count,
  /** Runs not judged, by status, in the order each status first appears among the side's runs. */
  uncounted: z.array(z.object({ status: z.string(), runs: count, first: count })),
  /** Whether some judged run was judged more than once, and some judged run's judgings disagree. */
  rejudged: z.boolean(),
  judges_disagree: z.boolean(),
  /** The distinct results of the judged runs. */
  results: list(VerdictResultSchema.nullable()),
  /** The judged runs with an attempt index: the index and the result, pairwise. */
  attempts: list(z.number().int()),
  attempt_results: list(VerdictResultSchema.nullable()),
});
export type ComparisonCaseStatsRow = z.infer<typeof ComparisonCaseStatsRowSchema>;

/**
 * The side's runs that recorded workflow usage, grouped by what trigger quality reads of them:
 * the case's `expect_workflow` (as stored, not yet parsed) and each item's invocation.
 */
export const TriggerObservationStatsRowSchema = z.object({
  /** `[expect_workflow]` when the spec has one (it may be null), null when it has none or ran without a workflow. */
  expectation: z.tuple([z.unknown()]).nullable(),
  /** `[item, invoked]` per usage row. */
  usage: z.array(z.tuple([z.string(), UsageFlagSchema])),
  runs: count,
  /** The first run of the group in the side's order, to name in an error. */
  run_id: z.string(),
});
export type TriggerObservationStatsRow = z.infer<typeof TriggerObservationStatsRowSchema>;
