import * as z from 'zod';
import { ConfigError } from '../errors.js';
import { BatchArmSchema } from '../run/batchInput.js';
import { RunTemplateSchema } from '../run/runSpec.js';
import { ScheduleTimingSchema } from './timing.js';
import { PricesSchema } from '../vocabulary/prices.js';

/** A schedule's name: its Temporal schedule id and part of its batches' ids. */
export const SCHEDULE_NAME = /^[a-z0-9][a-z0-9_.-]{0,39}$/;

export function checkScheduleName(name: string): string {
  if (!SCHEDULE_NAME.test(name)) throw new ConfigError(`schedule name: expected lowercase letters, digits, '-', '_' or '.' (at most 40, starting with a letter or digit, e.g. nightly-main), found ${JSON.stringify(name)}`);
  return name;
}

/**
 * The input every firing of a schedule gets (the Temporal schedule's action arguments): what
 * `evalflow run` would have planned, minus what is fixed only when it fires (the bank's
 * digest, the workflow_rev, the batch id). Fixed when the schedule is created.
 */
export const ScheduledBatchInputSchema = z.object({
  schedule: z.string().regex(SCHEDULE_NAME),
  timing: ScheduleTimingSchema,
  selection: z.object({
    paths: z.array(z.string()).min(1),
    only: z.array(z.string()).optional(),
    runsPerCase: z.number().int().positive(),
    /** `--changed-only REV`: each firing runs only the cases a workflow change since REV can affect, picked when it fires. */
    changedOnly: z.string().min(1).optional(),
  }),
  template: RunTemplateSchema,
  arms: z.array(BatchArmSchema).optional(),
  parallelism: z.number().int().positive(),
  summaries: z.object({ dir: z.string(), prices: PricesSchema }),
  /** The batch every firing is also compared with (until `evalflow bless` names another), or only the previous one. */
  baseline: z.union([z.literal('previous'), z.string().startsWith('batch-')]),
  /** A shell command given the firing's report as JSON on stdin. */
  notify: z.string().optional(),
  /** Task-queue priority of the batch: above 3 (the default) runs after batches started by hand. */
  priorityKey: z.number().int().min(1).max(5),
});
export type ScheduledBatchInput = z.infer<typeof ScheduledBatchInputSchema>;

/** Scheduled batches yield to batches started by hand (priority 3) on the same task queues. */
export const SCHEDULED_PRIORITY = 4;
