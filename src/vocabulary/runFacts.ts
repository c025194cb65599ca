import * as z from 'zod';
import { IsolationSchema } from './isolation.js';

/** What happened in a run's dialogue, as the run workflow saw it; the judge is told these. */
export const RunFactsSchema = z.object({
  /** Dialogue turns that took place (Turn 1 included). */
  turnsUsed: z.number().int().nonnegative(),
  maxTurns: z.number().int().positive(),
  /** The dialogue stopped at max_turns without the examiner saying `<<END>>`. */
  turnLimitHit: z.boolean(),
  /** The examiner ended the dialogue with `<<END>>`. */
  examinerEnded: z.boolean(),
  /** Set when the candidate failed its own turn (crash, non-zero exit, timeout): `turn 2: …`. */
  candidateFailure: z.string().optional(),
  /** How the candidate was contained, from its spec; absent in facts of earlier versions (their spec says). */
  isolation: IsolationSchema.optional(),
});
export type RunFacts = z.infer<typeof RunFactsSchema>;

