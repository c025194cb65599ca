import * as z from 'zod';
import { LABEL_ORDER } from '../stats/index.js';
import { DecisionStopSchema } from '../vocabulary/decisionStop.js';

/** One row of `batch_decisions`: a case's decision by the sequential test, as its batch ended. */
export const BatchDecisionRowSchema = z.object({
  case_id: z.string().min(1),
  arm_a: z.string().min(1).describe('the baseline arm: A of each pair, B − A read as for `compare`'),
  arm_b: z.string().min(1),
  label: z.enum(LABEL_ORDER).describe("the sequential test's label; insufficient_data for a case stopped short of a decision"),
  stopped_by: DecisionStopSchema.nullable().describe('null: the case was still open when the batch ended (cancelled, failed)'),
  why: z.string().describe('one line: the evidence against its threshold, or what stopped the case'),
  runs_a_side: z.number().int().nonnegative().describe('rounds the case ran: one run of each arm per round'),
  pairs: z.number().int().nonnegative().describe('rounds whose two runs were both judged'),
  both_passed: z.number().int().nonnegative(),
  only_a: z.number().int().nonnegative(),
  only_b: z.number().int().nonnegative(),
  evidence: z.number().describe('the e-value of "A and B differ" when the case stopped'),
  difference: z.number().nullable().describe('B − A pass rate over the pairs; null without a pair'),
  low: z.number().nullable(),
  high: z.number().nullable(),
  alpha: z.number().describe("the design's rate of false regressions or improvements per case"),
  max_runs_per_case: z.number().int().positive(),
});
export type BatchDecision = z.infer<typeof BatchDecisionRowSchema>;
