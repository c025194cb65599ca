import * as z from 'zod';
import type { ScoreRowInput } from '../store/index.js';
import { ScoreSchema } from '../vocabulary/score.js';
import { UsageSchema } from '../vocabulary/usage.js';

/** The judge stage's verdict for a run, as the record stage writes it to score.yaml and the store. */
export const RunVerdictSchema = z.object({
  score: ScoreSchema,
  /** The judge's answer the verdict rests on, as received. */
  raw: z.string(),
  /** Every answer the judge gave, re-asks and samples included (score.yaml's judge_attempts says what was wrong with each). */
  answers: z.array(z.string()).optional(),
  model: z.string(),
  usage: UsageSchema.nullable(),
  /** Fixed when the judge answered, so a retried record does not add a second history entry. */
  judgedAt: z.string(),
});
export type RunVerdict = z.infer<typeof RunVerdictSchema>;

/** The store's row for a verdict (scores and score_history). */
export function scoreRowOf(verdict: RunVerdict): ScoreRowInput {
  const { score } = verdict;
  return {
    result: score.result,
    compliance: score.compliance,
    execution_quality: score.execution_quality,
    overall: score.overall,
    summary: score.summary,
    hard_requirements: score.hard_requirements,
    suggestions: score.suggestions,
    judge_model: verdict.model,
    judged_at: verdict.judgedAt,
    raw: verdict.raw,
    salvaged: score.salvaged,
  };
}
