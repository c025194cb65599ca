import * as z from 'zod';
import { SuggestionSchema } from './suggestions.js';
import { UsageSchema } from './usage.js';
import { VerdictResultSchema } from './verdictResult.js';

/**
 * score.yaml: the judge's answer after the verdict rules, plus the fields evalflow adds, strictly
 * checked. The store's score rows (store/schema.ts) are derived from it.
 */

/**
 * One hard requirement in score.yaml. Three states: met, not met, and not assessed (the judge
 * never gave a readable answer for it), which is the judge's slip and never counts against the
 * candidate. Files written before `assessed` existed read as assessed.
 */
const HardRequirementFieldsSchema = z.object({
  item: z.string().describe('The hard requirement, copied from the rubric.'),
  met: z.boolean().nullable().describe('Whether the candidate met it; null when the judge did not assess it.'),
  assessed: z.boolean().default(true).describe('False when the judge did not assess the item; `met` is then null.'),
  evidence: z.string().describe('Transcript evidence, e.g. a tool event with its turn number.'),
});
export const HardRequirementSchema = HardRequirementFieldsSchema.refine((item) => item.assessed === (item.met !== null), {
  error: 'expected met: null exactly when assessed is false',
});
export type HardRequirement = z.infer<typeof HardRequirementSchema>;

/** What every hard requirement on record has, whatever version wrote it: the item and `met`. */
export const HardRequirementCoreSchema = HardRequirementFieldsSchema.pick({ item: true, met: true });

export const ScoreValueSchema = z.number().min(0).max(5);

/** One request to the judge model: what was wrong with its answer (when anything was) and what it cost. */
export const JudgeAttemptSchema = z.object({
  sample: z.number().int().positive().describe('Which independent judge sample (`--judges N`) the request belongs to.'),
  attempt: z.number().int().positive().describe('1 for the first request; each re-ask takes the next.'),
  problem: z.string().nullable().describe('Why the answer was not taken as written (and the judge was asked again); null when it was.'),
  usage: UsageSchema.optional(),
});
export type JudgeAttempt = z.infer<typeof JudgeAttemptSchema>;

/** With several judge samples: what each one said, beside the verdict of record. */
export const JudgeSampleSchema = z.object({
  sample: z.number().int().positive(),
  result: VerdictResultSchema.nullable().describe('null when the sample gave no result'),
  overall: ScoreValueSchema.nullable(),
  /** Why this sample's own verdict would need a person (empty when it was whole). */
  review_reasons: z.array(z.string()),
  error: z.string().optional().describe('Set when the sample gave no readable verdict at all.'),
});
export type JudgeSample = z.infer<typeof JudgeSampleSchema>;

/** score.yaml: the final verdict of one run. */
export const ScoreSchema = z.object({
  reasoning: z.string(),
  result: VerdictResultSchema.nullable().describe('null only when salvage recovered scores but no result: a person decides.'),
  compliance: ScoreValueSchema.describe('How well the candidate followed the workflow and the requirements, 0–5.'),
  execution_quality: ScoreValueSchema.describe('Quality of the work itself, 0–5.'),
  overall: ScoreValueSchema.describe('Holistic score, 0–5.'),
  summary: z.string(),
  hard_requirements: z.array(HardRequirementSchema),
  suggestions: z.array(SuggestionSchema),
  run_id: z.string(),
  case_id: z.string(),
  judge_model: z.string(),
  salvaged: z.boolean().describe('The judge answer was still broken after the re-asks and the verdict was recovered line by line.'),
  forced_fail_reason: z
    .string()
    .optional()
    .describe('Set when a failing hard postcondition forced the result to fail.'),
  notes: z
    .array(z.string())
    .default([])
    .describe('Corrections evalflow made to the judge answer (salvage, clamping, unmet items, elision).'),
  review_reasons: z
    .array(z.string())
    .default([])
    .describe("Why the verdict needs a person's review (salvaged, hard items not assessed, samples disagreeing); the run is needs_review until decided."),
  judge_attempts: z.array(JudgeAttemptSchema).default([]).describe('Every request to the judge model, re-asks included, with its usage.'),
  judge_samples: z.array(JudgeSampleSchema).optional().describe('With `--judges N` (N > 1): each sample\'s result.'),
  judge_usage: UsageSchema.optional().describe('Tokens all judge requests of this verdict used together.'),
});
export type Score = z.infer<typeof ScoreSchema>;
