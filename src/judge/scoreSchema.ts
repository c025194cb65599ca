import * as z from 'zod';
import { VerdictResultSchema } from '../vocabulary/verdictResult.js';
import { SuggestionSchema } from '../vocabulary/suggestions.js';

/**
 * `JudgeAnswerSchema` is what the judge model writes; it is lenient only where a model's quirk
 * is harmless (`'3.5'` for 3.5, `'true'` for true) and does not range-check scores, because the
 * verdict clamps them and notes it. score.yaml on disk is `ScoreSchema` (vocabulary/score.ts).
 */

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

