import * as z from 'zod';

/**
 * Why a case of a batch run until decided stopped: the sequential test decided it (evidence,
 * futility), its own limit of runs a side, or the batch's (--max-runs, --budget-usd). The
 * workflow's state and the store's rows both say it.
 */
export const DecisionStopSchema = z.enum(['evidence', 'futility', 'limit', 'batch_limit', 'budget']);
export type DecisionStop = z.infer<typeof DecisionStopSchema>;
