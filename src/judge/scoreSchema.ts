import { z } from 'zod';
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

export const HardRequirementSchema = z.object({
  item: z.string().describe('The hard requirement, copied from the rubric.'),
  met: z.boolean(),
  evidence: z.string().describe('Transcript evidence, e.g. a tool event with its turn number.'),
});
export type HardRequirement = z.infer<typeof HardRequirementSchema>;

const AnswerHardRequirementSchema = HardRequirementSchema.extend({ met: AnswerBooleanSchema });

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

const ScoreValueSchema = z.number().min(0).max(5);

/** score.yaml: the final verdict of one run. */
export const ScoreSchema = z.object({
  reasoning: z.string(),
  result: VerdictResultSchema,
  compliance: ScoreValueSchema.describe('How well the candidate followed the workflow and the requirements, 0–5.'),
  execution_quality: ScoreValueSchema.describe('Quality of the work itself, 0–5.'),
  overall: ScoreValueSchema.describe('Holistic score, 0–5.'),
  summary: z.string(),
  hard_requirements: z.array(HardRequirementSchema),
  suggestions: z.array(SuggestionSchema),
  run_id: z.string(),
  case_id: z.string(),
  judge_model: z.string(),
  salvaged: z.boolean().describe('The judge answer was broken and the verdict was recovered line by line.'),
  forced_fail_reason: z
    .string()
    .optional()
    .describe('Set when a failing hard postcondition forced the result to fail.'),
  notes: z
    .array(z.string())
    .default([])
    .describe('Corrections evalflow made to the judge answer (salvage, clamping, unmet items, elision).'),
  judge_usage: UsageSchema.optional().describe('Tokens the judge call used.'),
});
export type Score = z.infer<typeof ScoreSchema>;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
