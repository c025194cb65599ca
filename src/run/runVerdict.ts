import { z } from 'zod';
import { ScoreSchema } from '../judge/scoreSchema.js';
import { UsageSchema } from '../transcript/schema.js';

/** The judge stage's verdict for a run, as the record stage writes it to score.yaml and the store. */
export const RunVerdictSchema = z.object({
  score: ScoreSchema,
  /** The judge's answer text as received. */
  raw: z.string(),
  model: z.string(),
  usage: UsageSchema.nullable(),
  /** Fixed when the judge answered, so a retried record does not add a second history entry. */
  judgedAt: z.string(),
});
export type RunVerdict = z.infer<typeof RunVerdictSchema>;
