import * as z from 'zod';
import { RunStateSchema } from '../vocabulary/runStatus.js';

/**
 * What dashboard.html embeds: aggregates and compact columns, never raw rows, so the file stays
 * small at 100,000 runs. Runs are summed into cells (one per batch × case × candidate × model ×
 * workflow_rev × arm); the page sums the cells a filter selects. Strings are given once in
 * the dictionaries below and columns hold their indexes.
 */

const Index = z.number().int().nonnegative();
const Count = z.number().int().nonnegative();
const Timestamp = z.iso.datetime({ offset: true });

/** How a run shows on the timeline: its status, and for a judged run its result. */
export const MarkKindSchema = z.enum(['pass', 'fail', 'needs_review', 'aborted', 'infra_error', 'judge_failed', 'cancelled', 'pending', 'running']);
export type MarkKind = z.infer<typeof MarkKindSchema>;

/** Stands for a missing value (no candidate model, a run outside any workflow repo, no arm) in a dictionary. */
export const NONE = '(none)';

export const DashboardBatchSchema = z.object({
  id: z.string(),
  createdAt: Timestamp,
  status: z.string(),
  kind: z.enum(['eval', 'edit_prediction']),
});

/** One column per field, each as long as the cells; `byStatus[s][i]` counts the runs of status `statuses[s]` in cell i. */
export const CellColumnsSchema = z.object({
  batch: z.array(Index),
  case: z.array(Index),
  candidate: z.array(Index),
  model: z.array(Index),
  rev: z.array(Index),
  arm: z.array(Index),
  byStatus: z.array(z.array(Count)),
  /** Completed runs with a verdict: the only ones a pass rate counts. */
  judged: z.array(Count),
  passes: z.array(Count),
  /** Sums over the judged runs that have the score, and how many have it. */
  overallSum: z.array(z.number()),
  overallN: z.array(Count),
  complianceSum: z.array(z.number()),
  executionQualitySum: z.array(z.number()),
  /** Tokens of every role, over the runs that recorded them; `tokensUnknown` runs did not. */
  tokens: z.array(Count),
  tokensUnknown: z.array(Count),
  /** US dollars over the runs whose cost is known; `costUnknown` runs have no usage or no price. */
  cost: z.array(z.number()),
  costUnknown: z.array(Count),
  /** Runs whose candidate ran uncontained (isolation: none, or a run of a version before isolation), of any status. */
  uncontained: z.array(Count),
});
export type CellColumns = z.infer<typeof CellColumnsSchema>;

/** The latest runs of each case, one mark each; `shown` of `total` per case says whether older ones were left out. */
export const TimelineSchema = z.object({
  perCase: z.number().int().positive(),
  runId: z.array(z.string()),
  case: z.array(Index),
  batch: z.array(Index),
  candidate: z.array(Index),
  model: z.array(Index),
  rev: z.array(Index),
  arm: z.array(Index),
  kind: z.array(Index).describe('index into markKinds'),
  at: z.array(z.number().int()).describe('seconds since the epoch: finished, else started, else created'),
  overall: z.array(z.number().nullable()),
  compliance: z.array(z.number().nullable()),
  executionQuality: z.array(z.number().nullable()),
  summary: z.array(z.string()).describe("the judge's summary, cut to a few hundred characters"),
  uncontained: z.array(z.boolean()).describe('the candidate ran uncontained (isolation: none)'),
  href: z.array(z.string()).describe("where the run opens: the viewer's run page, or its review.md relative to dashboard.html"),
});
export type Timeline = z.infer<typeof TimelineSchema>;

export const ComparisonLabelSchema = z.enum(['regression', 'improvement', 'no_change', 'insufficient_data', 'not_comparable']);

/** One workflow_rev against the rev before it (by first run), labelled case by case as `evalflow compare` does, over each side's latest judged runs of the case (REV_WINDOW). */
export const RevStepSchema = z.object({
  rev: z.string(),
  previous: z.string(),
  labels: z.record(ComparisonLabelSchema, Count),
  cases: z.array(z.object({ caseId: z.string(), label: ComparisonLabelSchema, difference: z.number().nullable() })),
  /** One per batch run until decided among the compared runs: these labels are Fisher's test, approximate (`sequentialRevisionNotes`). */
  notes: z.array(z.string()),
});
export type RevStep = z.infer<typeof RevStepSchema>;

export const SuggestionGroupSchema = z.object({
  tag: z.string(),
  count: Count,
  items: z.array(z.object({ text: z.string(), count: Count, runIds: z.array(z.string()) })),
});

/** The means of one edit-prediction batch's scored predictions. */
export const EpBatchMetricsSchema = z.object({
  batch: Index,
  provider: z.string(),
  predictions: Count,
  deltaChrF: z.number().nullable(),
  exactLinesF1: z.number().nullable().describe('micro F1 over every prediction: 2tp / (2tp + fp + fn)'),
  cursorExactMatch: z.number().nullable().describe('share of predictions with an expected cursor that put it exactly there'),
});
export type EpBatchMetrics = z.infer<typeof EpBatchMetricsSchema>;

const FlagCounts = z.object({ yes: Count, no: Count, unknown: Count });

/** Which items of the workflow (skills, rules, commands, agents) the last eval batch's runs used, where recorded. */
export const WorkflowUsageSummarySchema = z.object({
  batchId: z.string().nullable(),
  items: z.array(z.object({ item: z.string(), kind: z.string(), runs: Count, loaded: FlagCounts, invoked: FlagCounts })),
});

const Interval = z.object({ low: z.number(), high: z.number() });
const Rate = z.object({ rate: z.number(), low: z.number(), high: z.number() });

/** One run of the A/B matrix: its mark and where it opens. */
const MatrixRunSchema = z.object({ runId: z.string(), kind: MarkKindSchema, href: z.string() });

/**
 * The last batch with more than one arm, as its first screen reads it: each arm's pass rate,
 * each arm against the baseline (labels as `evalflow compare` gives them, the difference of
 * every case with Newcombe's interval, the paired bootstrap over the cases), and the matrix of
 * cases × arms with every run.
 */
export const AbTestSchema = z.object({
  batchId: z.string(),
  /** compare-<batch>.md, where it exists (relative to dashboard.html, or the viewer's page). */
  compareHref: z.string().nullable(),
  arms: z.array(z.object({ name: z.string(), change: z.string(), runs: Count, judged: Count, passes: Count, rate: Rate.nullable() })).describe('the baseline first'),
  pairs: z.array(
    z.object({
      a: z.string(),
      b: z.string(),
      labels: z.record(ComparisonLabelSchema, Count),
      /** Mean per-case pass-rate difference (b − a) over the comparable cases, with its seeded paired bootstrap interval. */
      difference: z.object({ mean: z.number(), low: z.number(), high: z.number(), n: Count }).nullable(),
      cases: z.array(z.object({ caseId: z.string(), label: ComparisonLabelSchema, difference: z.number().nullable(), interval: Interval.nullable(), p: z.number().nullable(), detectable: z.number().nullable() })),
    }),
  ),
  /** Per case (regressions of the first pair first), per arm in `arms` order: its runs and rate. */
  matrix: z.array(z.object({ caseId: z.string(), arms: z.array(z.object({ judged: Count, passes: Count, rate: Rate.nullable(), runs: z.array(MatrixRunSchema) })) })),
});
export type AbTest = z.infer<typeof AbTestSchema>;

export const DashboardSchema = z.object({
  version: z.literal(1),
  generatedAt: Timestamp,
  runs: Count.describe('every run in the store, of any status'),
  statuses: z.array(RunStateSchema),
  markKinds: z.array(MarkKindSchema),
  batches: z.array(DashboardBatchSchema).describe('oldest first'),
  cases: z.array(z.object({ id: z.string(), category: z.string(), tags: z.array(z.string()) })),
  candidates: z.array(z.string()),
  models: z.array(z.string()),
  revs: z.array(z.string()),
  arms: z.array(z.string()),
  cells: CellColumnsSchema,
  timeline: TimelineSchema,
  revSteps: z.array(RevStepSchema),
  suggestions: z.object({ batchId: z.string().nullable(), groups: z.array(SuggestionGroupSchema) }),
  editPrediction: z.array(EpBatchMetricsSchema),
  workflowUsage: WorkflowUsageSummarySchema,
  abTest: AbTestSchema.nullable(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');

/** What a view is narrowed to; dashboard.html keeps it in the URL fragment (`#case=x&rev=y`). */
export const DashboardFilterSchema = z
  .object({
    case: z.string().optional(),
    category: z.string().optional(),
    tag: z.string().optional(),
    candidate: z.string().optional(),
    model: z.string().optional(),
    rev: z.string().optional(),
    arm: z.string().optional(),
    from: Day.optional().describe('first day of the batches shown'),
    to: Day.optional().describe('last day of the batches shown'),
  })
  .strict();
export type DashboardFilter = z.infer<typeof DashboardFilterSchema>;
