import * as z from 'zod';
import type { Batch } from '../../store/index.js';
import { BATCH_STATUSES } from '../../vocabulary/batchStatuses.js';
import { plannedTotal } from '../batch/counts.js';
import { BatchCountsJson, TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** One batch as `evalflow batches` lists it. */
export const BatchJson = z.object({
  batch_id: z.string().describe('the batch id: batch-<time>-<suffix>; also its workflow id'),
  status: z.enum(BATCH_STATUSES).describe('pending, running, completed, failed or cancelled'),
  counts: BatchCountsJson,
  planned: z.number().int().nullable().describe('runs the batch planned; null before it was planned'),
  candidate: z.string().nullable().describe('the candidate it ran; null when its spec names none'),
  created_at: TimestampJson.describe('when it started'),
});

export const BatchesJson = jsonDocument(1, 'The batches of `evalflow batches`, newest first, a page at a time.', {
  batches: z.array(BatchJson).describe('the rows of the table, newest first'),
  next_after: z.string().nullable().describe('the batch id to pass as --after for the next page; null on the last page'),
});
export type BatchesJson = z.input<typeof BatchesJson>;

export function batchJson(batch: Batch): z.input<typeof BatchJson> {
  return {
    batch_id: batch.batch_id,
    status: batch.status,
    counts: batch.counts,
    planned: plannedTotal(batch),
    candidate: typeof batch.spec.candidate === 'string' ? batch.spec.candidate : null,
    created_at: batch.created_at,
  };
}
