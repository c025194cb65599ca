import * as z from 'zod';
import { RunAnomalySchema } from '../vocabulary/anomaly.js';
import { RunStatusSchema } from '../vocabulary/runStatus.js';
import { VerdictResultSchema } from '../vocabulary/verdictResult.js';

/** How a run ended, as its workflow returns it and the batch counts it. */
export const RunOutcomeSchema = z.object({
  runId: z.string(),
  caseId: z.string(),
  status: RunStatusSchema,
  result: VerdictResultSchema.nullable(),
  overall: z.number().nullable(),
  runDir: z.string(),
  anomalies: z.array(RunAnomalySchema),
  error: z.string().optional(),
});
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;
