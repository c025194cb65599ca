import * as z from 'zod';

const Timestamp = z.iso.datetime({ offset: true });

/** The batch a schedule's firings are compared with, and who blessed it. */
export const ScheduleBaselineSchema = z.object({
  schedule: z.string().min(1),
  batch_id: z.string().min(1),
  blessed_by: z.string().min(1),
  blessed_at: Timestamp,
});
export type ScheduleBaseline = z.infer<typeof ScheduleBaselineSchema>;

export const ScheduleVerdictSchema = z.enum(['ok', 'regression', 'failed']);
export type ScheduleVerdict = z.infer<typeof ScheduleVerdictSchema>;

/** One firing of a schedule, as it ended: its verdict and its whole report (as `--notify` got it). */
export const ScheduledBatchRowSchema = z.object({
  batch_id: z.string().min(1),
  schedule: z.string().min(1),
  verdict: ScheduleVerdictSchema,
  report: z.record(z.string(), z.unknown()),
  finished_at: Timestamp,
});
export type ScheduledBatch = z.infer<typeof ScheduledBatchRowSchema>;
