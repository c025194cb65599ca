import * as z from 'zod';
import { UsageSchema } from '../vocabulary/usage.js';

/**
 * latest-stats.yaml, the one definition of its format: what `renderLatestStats` writes and
 * what a reader (a test, a script, the dashboard) parses it with. Ratios and scores are
 * rounded to four digits, costs to six.
 */

const Ratio = z.number().min(0).max(1);
const Score = z.number();

/** A pass rate with its 95% Wilson interval. */
const RateSchema = z.object({ rate: Ratio, low: Ratio, high: Ratio });

/** A mean with its seeded percentile-bootstrap 95% interval, over `n` values. */
const MeanIntervalSchema = z.object({ mean: z.number(), low: z.number(), high: z.number(), n: z.number().int().positive() });

const ScoresSchema = z.object({ compliance: Score.nullable(), execution_quality: Score.nullable(), overall: Score.nullable() });

/** The numbers of a group of runs: a case, an arm, or the whole batch. */
export const GroupStatsFileSchema = z.object({
  runs: z.number().int().nonnegative(),
  by_status: z.record(z.string(), z.number().int().nonnegative()),
  completed: z.number().int().nonnegative(),
  passes: z.number().int().nonnegative(),
  pass_rate: RateSchema.nullable(),
  /** k → the chance that k runs of a case all pass, averaged over the cases with at least k judged runs. */
  pass_hat_k: z.record(z.string(), Ratio.nullable()),
  /** k → the chance that at least one of k runs of a case passes, averaged the same way. */
  pass_at_k: z.record(z.string(), Ratio.nullable()),
  mean: ScoresSchema,
  mean_interval: z.object({ compliance: MeanIntervalSchema.nullable(), execution_quality: MeanIntervalSchema.nullable(), overall: MeanIntervalSchema.nullable() }),
  tokens: z.object({ examiner: UsageSchema.nullable(), candidate: UsageSchema.nullable(), judge: UsageSchema.nullable() }),
  cost_usd: z.object({ examiner: z.number().nullable(), candidate: z.number().nullable(), judge: z.number().nullable(), total: z.number().nullable() }),
  uncontained_runs: z.number().int().nonnegative(),
  stability: z.enum(['stable_pass', 'stable_fail', 'flaky_agent', 'flaky_judge', 'flaky', 'unknown']).optional(),
});
export type GroupStatsFile = z.infer<typeof GroupStatsFileSchema>;

const LabelSchema = z.enum(['regression', 'improvement', 'no_change', 'insufficient_data', 'not_comparable']);

/** One case of an arm against the first arm: difference = this arm's pass rate − the first's. */
const CaseVersusSchema = z.object({
  label: LabelSchema,
  difference: z.number().nullable(),
  /** Newcombe's 95% interval of the difference. */
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** Fisher's exact p. */
  p: Ratio.nullable(),
  /** The smallest difference these run counts could show at p < 0.05; null when none could. */
  detectable: Ratio.nullable(),
  reason: z.string().optional(),
});

/** An arm against the first arm of its batch: the same comparison as `evalflow compare`, in that one direction. */
export const VersusFirstSchema = z.object({
  arm: z.string(),
  /** Present for the two arms of a batch run --until-decided: the labels are the sequential test's, not Fisher's (docs/how-many-runs.md). */
  method: z.literal('sequential_test').optional(),
  labels: z.record(LabelSchema, z.number().int().nonnegative()),
  /** Paired bootstrap (seeded) of the mean per-case pass-rate difference over the comparable cases. */
  mean_difference: MeanIntervalSchema.nullable(),
  /** McNemar's exact test over runs paired by case and attempt; only_first / only_this: passed on that side alone. */
  mcnemar: z.object({ pairs: z.number().int().positive(), only_first: z.number().int().nonnegative(), only_this: z.number().int().nonnegative(), p: Ratio }).nullable(),
  cases: z.record(z.string(), CaseVersusSchema),
});
export type VersusFirst = z.infer<typeof VersusFirstSchema>;

export const ArmStatsFileSchema = z.object({
  /** What the arm changes, as given (`base`, `workflow=none`, `model=…`). */
  change: z.string(),
  overall: GroupStatsFileSchema,
  cases: z.record(z.string(), GroupStatsFileSchema),
  /** Every arm but the first. */
  versus_first: VersusFirstSchema.optional(),
});

/**
 * A one-arm batch has `overall` and `cases`; a batch with arms has `arms` instead, in the
 * batch's arm order, and no pooled numbers: pooling two arms hides the difference between them.
 */
export const LatestStatsSchema = z
  .object({
    batch_id: z.string(),
    bootstrap: z.object({ seed: z.number().int(), resamples: z.number().int().positive(), confidence: Ratio }),
    overall: GroupStatsFileSchema.optional(),
    cases: z.record(z.string(), GroupStatsFileSchema).optional(),
    arms: z.record(z.string(), ArmStatsFileSchema).optional(),
    trigger_quality: z.record(z.string(), z.record(z.string(), z.number().nullable())).optional(),
  })
  .refine((file) => (file.arms === undefined) === (file.overall !== undefined && file.cases !== undefined), {
    message: 'expected either overall and cases (a one-arm batch) or arms (a batch with arms), not both',
  });
export type LatestStats = z.infer<typeof LatestStatsSchema>;
