import * as z from 'zod';
import { VerdictResultSchema } from './verdictResult.js';

/**
 * A person's decision on a run whose verdict needs review: sent to the run's waiting workflow
 * as the `reviewRun` update, or recorded in the store when the workflow has ended. It is kept
 * beside the judge's verdict (table `run_reviews`), never over it, and a run takes one.
 */
export const ReviewDecisionSchema = z.object({
  result: VerdictResultSchema.describe('What the person decided the run is.'),
  author: z.string().min(1).describe('Who decided: EVALFLOW_REVIEWER, else the OS user.'),
  note: z.string().min(1).describe('Why, in the person\'s words.'),
  decidedAt: z.iso.datetime({ offset: true }).describe('When the person decided (ISO-8601), fixed by the CLI so a resent decision is the same one.'),
});
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;
