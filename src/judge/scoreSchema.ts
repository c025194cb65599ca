import * as z from 'zod';
import { VerdictResultSchema } from '../run/runStatus.js';
import { UsageSchema } from '../transcript/schema.js';

/**
 * Two formats live here. `JudgeAnswerSchema` is what the judge model writes; it is lenient only
 * where a model's quirk is harmless (`'3.5'` for 3.5, `'true'` for true) and does not range-check
 * scores, because the verdict clamps them and notes it. `ScoreSchema` is score.yaml on disk:
 * the answer after the verdict rules, plus the fields evalflow adds, strictly checked.
 */

/** The three suggestion tags, in the order review.md lists them. */
export const SUGGESTION_TAGS = ['workflow', 'eval', 'capability'] as const;
export type SuggestionTag = (typeof SUGGESTION_TAGS)[number];

const TAGGED = /^\[(workflow|eval|capability)\]\s*\S/;

/** The tag of a well-formed suggestion, or undefined when the prefix is missing or unknown. */
export function suggestionTag(suggestion: string): SuggestionTag | undefined {
  return TAGGED.exec(suggestion)?.[1] as SuggestionTag | undefined;
}

export const SuggestionSchema = z
  .string()
  .refine((text) => suggestionTag(text) !== undefined, {
    error: (issue) =>
      `expected a suggestion starting with [workflow], [eval] or [capability], found '${excerpt(String(issue.input))}'`,
  })
  .describe('One improvement, prefixed by the part it concerns: [workflow], [eval] or [capability].');

const NUMERIC_TEXT = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** A score as a model writes it: a number, or a numeric string such as '3.5'. */
const AnswerNumberSchema = z.preprocess(
  (value) => (typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value),
  z.number(),
);

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, yes: true, false: false, no: false };

/** `met` as a model writes it: a boolean, or 'true'/'false'/'yes'/'no' quoted. */
const AnswerBooleanSchema = z.preprocess(
  (value) => (typeof value === 'string' ? (BOOLEAN_WORDS[value.trim().toLowerCase()] ?? value) : value),
  z.boolean(),
);

/** One hard requirement as the judge writes it: always assessed, `met` true or false. */
const AnswerHardRequirementSchema = z.object({
  item: z.string().describe('The hard requirement, copied from the rubric.'),
  met: AnswerBooleanSchema,
  evidence: z.string().describe('Transcript evidence, e.g. a tool event with its turn number.'),
});

/**
 * One hard requirement in score.yaml. Three states: met, not met, and not assessed (the judge
 * never gave a readable answer for it), which is the judge's slip and never counts against the
 * candidate. Files written before `assessed` existed read as assessed.
 */
export const HardRequirementSchema = z
  .object({
    item: z.string().describe('The hard requirement, copied from the rubric.'),
    met: z.boolean().nullable().describe('Whether the candidate met it; null when the judge did not assess it.'),
    assessed: z.boolean().default(true).describe('False when the judge did not assess the item; `met` is then null.'),
    evidence: z.string().describe('Transcript evidence, e.g. a tool event with its turn number.'),
  })
  .refine((item) => item.assessed === (item.met !== null), { error: 'expected met: null exactly when assessed is false' });
export type HardRequirement = z.infer<typeof HardRequirementSchema>;

/** The judge model's answer. `reasoning` comes first: the judge reasons before its verdict. */
export const JudgeAnswerSchema = z.object({
  reasoning: z.string().describe('The judge reasoning over the evidence, written before the verdict.'),
  result: VerdictResultSchema,
  compliance: AnswerNumberSchema,
  execution_quality: AnswerNumberSchema,
  overall: AnswerNumberSchema,
  summary: z.string(),
  hard_requirements: z.array(AnswerHardRequirementSchema),
  suggestions: z.array(SuggestionSchema),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

/**
 * A judge answer as evalflow read it: the answer itself when it passed the schema, or what
 * salvage recovered of it, where the result and a hard item's `met` may be unknown (null).
 */
export type ReadAnswer = Omit<JudgeAnswer, 'result' | 'hard_requirements'> & {
  result: JudgeAnswer['result'] | null;
  hard_requirements: (Omit<JudgeAnswer['hard_requirements'][number], 'met'> & { met: boolean | null })[];
};

const ScoreValueSchema = z.number().min(0).max(5);

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

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
