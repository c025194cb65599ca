import * as z from 'zod';
import { LABEL_ORDER } from '../../stats/index.js';
import { DecisionStopSchema } from '../../vocabulary/decisionStop.js';
import { RateIntervalJson } from './common.js';
import { jsonDocument } from './document.js';

const LabelJson = z.enum(LABEL_ORDER).describe('regression, improvement, no_change, insufficient_data or not_comparable (docs/comparing.md)');
const StabilityJson = z.enum(['stable_pass', 'stable_fail', 'flaky_agent', 'flaky_judge', 'flaky', 'unknown']).describe("whether the side's verdicts of the case repeat");
const UncountedJson = z.record(z.string(), z.number().int()).describe('runs that enter no rate, by status (needs_review, infra_error, judge_failed, aborted, cancelled)');

/** One side of the whole comparison. */
const SideJson = z.object({
  label: z.string().describe('the side as named: a batch id, batch:arm or a workflow revision'),
  runs: z.number().int().describe("the side's runs, whatever their status"),
  completed: z.number().int().describe('runs judged pass or fail'),
  passes: z.number().int().describe('runs judged pass'),
  rate: RateIntervalJson.nullable().describe('pass rate over the completed runs; null when none completed'),
  uncounted: UncountedJson,
  uncontained: z.number().int().describe('runs whose candidate ran outside a sandbox (isolation: none)'),
});

/** One side's runs of one case. */
const CaseSideJson = z.object({
  case_id: z.string().describe('the eval case'),
  version: z.string().describe("the case's version"),
  hash: z.string().describe("the case's content hash"),
  completed: z.number().int().describe("the side's runs of the case judged pass or fail"),
  passes: z.number().int().describe('of them, judged pass'),
  uncounted: UncountedJson,
  mean_overall: z.number().nullable().describe('mean overall score of its judged runs; null when none was judged'),
});

/** What the sequential test said of a case of an until-decided batch. */
const DecisionJson = z.object({
  runs_a_side: z.number().int().describe('rounds the case ran: one run of each arm per round'),
  pairs: z.number().int().describe('rounds whose two runs were both judged'),
  only_a: z.number().int().describe('pairs only A passed'),
  only_b: z.number().int().describe('pairs only B passed'),
  evidence: z.number().describe('the e-value of "A and B differ" when the case stopped'),
  stopped_by: z.enum(DecisionStopSchema.options).nullable().describe('evidence or futility (decided), limit, batch_limit or budget (stopped short); null: open when the batch ended'),
  why: z.string().describe('why the case stopped, in words'),
});

const CaseJson = z.object({
  case_id: z.string().describe('the eval case'),
  label: LabelJson,
  decision: DecisionJson.nullable().default(null).describe("the sequential test's decision when method is sequential_test (the label is its); null otherwise"),
  a: CaseSideJson.nullable().describe('side A of the case; null when A did not run it'),
  b: CaseSideJson.nullable().describe('side B of the case; null when B did not run it'),
  rate_a: RateIntervalJson.nullable().describe("side A's pass rate of the case; null when none of its runs was judged"),
  rate_b: RateIntervalJson.nullable().describe("side B's pass rate of the case; null when none of its runs was judged"),
  difference: z.number().nullable().describe('pass rate of B minus that of A; null when not comparable'),
  difference_interval: z.object({ low: z.number().describe('lower end'), high: z.number().describe('upper end') }).nullable().describe("Newcombe's 95% interval of the difference"),
  p: z.number().nullable().describe("Fisher's exact p-value; null when not comparable or when method is sequential_test"),
  detectable: z.number().nullable().describe('the smallest difference these run counts could show at p < alpha; null when none could'),
  reason: z.string().nullable().default(null).describe('why the case is not comparable; null when it is'),
  mean_overall_a: z.number().nullable().describe("mean overall score of side A's judged runs of the case; null when none"),
  mean_overall_b: z.number().nullable().describe("the same for side B"),
  reviews_a: z.array(z.string()).describe('review.md of each judged run of side A'),
  reviews_b: z.array(z.string()).describe('review.md of each judged run of side B'),
  stability_a: StabilityJson,
  stability_b: StabilityJson,
});

/** Precision, recall and F1 of one skill's triggering, over the runs that said whether it loaded. */
const TriggerJson = z.object({
  true_positives: z.number().int().describe('runs that loaded the skill where the case expects it'),
  false_positives: z.number().int().describe('runs that loaded it where the case forbids it'),
  false_negatives: z.number().int().describe('runs that did not load it where the case expects it'),
  true_negatives: z.number().int().describe('runs that did not load it where the case forbids it'),
  unknown: z.number().int().describe('runs whose transcript does not say'),
  precision: z.number().nullable().describe('true_positives / (true_positives + false_positives); null when it loaded in no counted run'),
  recall: z.number().nullable().describe('true_positives / (true_positives + false_negatives); null when no counted run was of a case that expects it'),
  f1: z.number().nullable().describe('harmonic mean of precision and recall; null when either is null'),
});
const TriggersJson = z.record(z.string(), TriggerJson).describe('per skill ref (as the cases name it), only for skills a case expects or forbids');

/** A compared case's calibrated noise (`evalflow calibrate`, docs/how-many-runs.md). */
const NoiseFloorJson = z.object({
  case_id: z.string().describe('the eval case'),
  case_hash: z.string().describe('the case version calibrated: the version side A ran'),
  calibrated_by: z.string().describe('the A/A batch that measured it'),
  flip_rate: z.number().describe('the share of pairs of runs on identical inputs whose verdicts disagree (0..0.5)'),
  flip_low: z.number().describe('lower end of its 95% interval'),
  flip_high: z.number().describe('upper end of its 95% interval'),
  judge_flip: z.number().nullable().describe('the chance two judgings of one transcript disagree; null when the calibration judged no transcript twice'),
  judge_low: z.number().nullable().describe('lower end of its 95% interval; null without judge_flip'),
  judge_high: z.number().nullable().describe('upper end of its 95% interval; null without judge_flip'),
  agent_flip: z.number().nullable().describe('flip_rate − judge_flip, at least 0; null without judge_flip'),
  agent_low: z.number().nullable().describe('lower end of its 95% interval; null without agent_flip'),
  agent_high: z.number().nullable().describe('upper end of its 95% interval; null without agent_flip'),
  runs_a: z.number().int().describe("side A's completed runs of the case in this comparison"),
  runs_b: z.number().int().describe("side B's completed runs of the case in this comparison"),
  spread: z.number().nullable().describe('how far the pass rates of two identical sides with runs_a and runs_b runs differ (95%, ±): 1.96·√(flip_rate/2 · (1/runs_a + 1/runs_b)); null when a side has no run'),
});

export const CompareJson = jsonDocument(1, 'Side A against side B, case by case (`evalflow compare`), regressions first.', {
  method: z
    .enum(['fisher_exact', 'sequential_test'])
    .describe("where the labels come from: Fisher's exact test on the runs, or, for the two arms of a batch run --until-decided, the sequential test that stopped it (docs/how-many-runs.md)"),
  method_notes: z
    .array(z.string())
    .default([])
    .describe("with fisher_exact: one note per side's batch that ran until decided (its run counts were chosen by its own sequential test, or it stored no decisions), saying the labels are approximate; empty otherwise"),
  sequential: z.object({ alpha: z.number().describe('the error rate the test keeps under optional stopping'), max_runs_per_case: z.number().int().describe('the most runs a side a case could get') }).nullable().default(null).describe("the sequential test's design when method is sequential_test"),
  a: SideJson.describe('side A, the reference (the first argument)'),
  b: SideJson.describe('side B, measured against A (the second argument)'),
  cases: z.array(CaseJson).describe('regressions first, then improvements, no_change, insufficient_data, not_comparable'),
  labels: z.record(z.string(), z.number().int()).describe('cases per label'),
  difference: z
    .object({ mean: z.number().describe('mean difference (−1..1)'), low: z.number().describe('lower end of the 95% interval'), high: z.number().describe('upper end of the 95% interval'), n: z.number().int().describe('comparable cases') })
    .nullable()
    .describe('seeded paired bootstrap of the mean per-case pass-rate difference (B − A) with its 95% interval; null when no case compares'),
  mcnemar: z
    .object({ pairs: z.number().int().describe('pairs of runs, one of A and one of B'), only_a: z.number().int().describe('pairs only A passed'), only_b: z.number().int().describe('pairs only B passed'), p: z.number().describe("McNemar's exact two-sided p-value") })
    .nullable()
    .describe("McNemar's exact test over runs that pair one to one (same case and attempt); null without pairs, and when method is sequential_test"),
  trigger_quality: z.object({ a: TriggersJson, b: TriggersJson }).describe("each side's skill triggering (docs/workflow-usage.md); empty maps when no case expects or forbids a skill"),
  noise_floor: z.array(NoiseFloorJson).default([]).describe('per compared case whose version side A ran has a calibration (evalflow calibrate): its noise and what it means for these runs; empty when none has'),
});
