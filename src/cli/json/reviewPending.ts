import * as z from 'zod';
import { VerdictResultSchema } from '../../vocabulary/verdictResult.js';
import { jsonDocument } from './document.js';

export const PendingRunJson = z.object({
  run_id: z.string().describe('the run to decide: `evalflow review RUN_ID --result pass|fail`'),
  case_id: z.string().describe('the eval case it ran'),
  state: z.enum(['waiting', 'recorded']).describe("waiting: its workflow waits for the decision; recorded: the store holds needs_review and takes it"),
  judge_result: VerdictResultSchema.nullable().describe('what the judge said; null when it gave no result, or while only the waiting workflow knows'),
  why: z.string().describe("the judge's reasons for review, or the run's error"),
});

export const ReviewPendingJson = jsonDocument(1, "The runs that need a person's review (`evalflow review --pending`), by run id.", {
  pending: z.array(PendingRunJson).describe('the runs that need a decision, by run id; empty when none does'),
});
