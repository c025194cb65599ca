import * as z from 'zod';

/** What a judged run is: the judge's result, or a person's decision over it. */
export const VerdictResultSchema = z.enum(['pass', 'fail']);
export type VerdictResult = z.infer<typeof VerdictResultSchema>;
