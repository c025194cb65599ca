import * as z from 'zod';

/**
 * One case's calibration from one A/A batch: its runs judged and passed, the case version and
 * configuration they ran, and the judge's share of the noise when its transcripts were judged
 * again. The flip rate is computed from `runs` and `passes` (stats/flipRate.ts), never stored twice.
 */
export const CalibrationRowSchema = z.object({
  batch_id: z.string().min(1),
  case_id: z.string().min(1),
  case_hash: z.string().min(1).describe('the case version the runs ran: a calibration holds for that version only'),
  candidate: z.string().min(1),
  workflow_rev: z.string().nullable(),
  runs: z.number().int().nonnegative().describe('judged runs (both sides of the A/A batch)'),
  passes: z.number().int().nonnegative(),
  judged_twice: z.number().int().nonnegative().describe('runs whose transcript was judged at least twice (rejudge --repeat)'),
  judge_flip: z.number().min(0).max(0.5).nullable().describe('the chance two judgings of one transcript disagree; null when no run was judged twice'),
  cost_per_run: z.number().nonnegative().nullable().describe('mean cost of a run in US dollars at the configured prices; null without prices'),
  calibrated_at: z.iso.datetime({ offset: true }),
});
export type CalibrationRow = z.infer<typeof CalibrationRowSchema>;
