import * as z from 'zod';
import { ScheduleVerdictSchema } from '../../store/index.js';
import { TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

const VerdictJson = ScheduleVerdictSchema.describe('ok, regression or failed');

export const ScheduleListJson = jsonDocument(1, "evalflow's schedules with their timing, next firing and last verdict (`evalflow schedule list`).", {
  schedules: z
    .array(
    z.object({
      name: z.string().describe('the schedule name (its Temporal schedule id)'),
      timing: z.string().nullable().describe('when it fires, in words (`every 24h`, `cron 0 2 * * *`); null when its action is not readable'),
      paused: z.boolean().describe('it fires only when triggered, until unpaused'),
      next: TimestampJson.nullable().describe('the next firing; null when paused or never'),
      last_batch: z.object({ batch_id: z.string().describe('the batch'), verdict: VerdictJson }).nullable().describe('the last batch it ran; null before the first'),
    }),
    )
    .describe('every schedule evalflow created, by name'),
});

export const ScheduleDescribeJson = jsonDocument(1, 'One schedule (`evalflow schedule describe NAME`).', {
  name: z.string().describe('the schedule name'),
  paused: z.boolean().describe('it fires only when triggered, until unpaused'),
  timing: z.string().nullable().describe('when it fires, in words; null when its action is not readable (then so are selection and baseline)'),
  selection: z
    .object({
      paths: z.array(z.string()).describe('the eval bank or case folders each batch reads'),
      only: z.array(z.string()).nullable().describe('the case ids it keeps (--only); null for every case'),
      runs_per_case: z.number().int().describe('runs of each case'),
      candidate: z.string().describe('the candidate each batch runs'),
      parallelism: z.number().int().describe('runs at the same time'),
    })
    .nullable()
    .describe('what each batch runs, as `schedule create` was given it; null when its action is not readable'),
  baseline: z
    .object({
      batch_id: z.string().nullable().describe("the baseline batch; null for `previous` (each batch is compared with the one before only)"),
      blessed_by: z.string().nullable().describe('who blessed it with `evalflow bless`; null when set at creation'),
      blessed_at: TimestampJson.nullable().describe('when it was blessed; null when set at creation'),
    })
    .nullable()
    .describe('what every batch is also compared with; null when its action is not readable'),
  next: z.array(TimestampJson).describe('the next three firings'),
  running: z.array(z.string()).describe('workflow ids of the batches it runs now'),
  skipped_overlap: z.number().int().describe('firings skipped because a batch still ran'),
  skipped_catchup: z.number().int().describe('firings missed beyond the catch-up window'),
  last_batches: z.array(z.object({ batch_id: z.string().describe('the batch'), verdict: VerdictJson, headline: z.string().describe("the report's headline, in words") })).describe('the last ten, newest first'),
});
