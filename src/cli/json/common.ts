import * as z from 'zod';

/** Pieces several `--json` formats share, so each is described once. */

export const TimestampJson = z.string().describe('ISO-8601 time, UTC');

/** A pass rate with its Wilson score interval, as the files spell it. */
export const RateIntervalJson = z.object({
  rate: z.number().describe('passes / n'),
  low: z.number().describe('lower end of the 95% Wilson interval'),
  high: z.number().describe('upper end of the 95% Wilson interval'),
  passes: z.number().int().describe('runs judged pass'),
  n: z.number().int().describe('judged runs'),
});

/** A batch's run counts: finished, passed, failed, then the runs per status that never enter a rate. */
export const BatchCountsJson = z
  .record(z.string(), z.number().int().nonnegative())
  .describe('runs per outcome: finished, passed, failed, and per status that enters no rate (needs_review, infra_error, judge_failed, aborted, cancelled); a missing key is 0');
