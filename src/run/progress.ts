import * as z from 'zod';
import { BatchOutcomeSchema } from './batchInput.js';
import { DesignWireSchema, RoundsStateSchema } from './untilDecided.js';

/** What the batch's progress query answers. */
export const BatchProgressSchema = z.object({
  batchId: z.string(),
  total: z.number().int().nonnegative(),
  started: z.number().int().nonnegative(),
  finished: z.number().int().nonnegative(),
  running: z.array(z.string()),
  /** Finished runs with their status and result, in finishing order (the most recent few hundred). */
  outcomes: z.array(BatchOutcomeSchema),
  /** An until-decided batch's rounds so far, with the design to read them by. */
  rounds: z.object({ design: DesignWireSchema, state: RoundsStateSchema }).optional(),
});
export type BatchProgress = z.infer<typeof BatchProgressSchema>;

/** What a run's progress query answers. */
export const RunProgressSchema = z.object({
  runId: z.string(),
  stage: z.string(),
  turn: z.number().int().nonnegative(),
  maxTurns: z.number().int().positive(),
});
export type RunProgress = z.infer<typeof RunProgressSchema>;
