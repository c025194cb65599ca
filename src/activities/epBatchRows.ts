import type { EpBatchInput } from '../editprediction/index.js';
import type { ActivityDeps } from './deps.js';

/** How an edit-prediction batch ended, as its workflow tells its row. */
export interface EpBatchClose {
  input: EpBatchInput;
  status: 'completed' | 'failed' | 'cancelled';
  counts: Record<string, number>;
}

/** The row's spec: what the batch was asked to do (never changes). */
function batchSpec(input: EpBatchInput): Record<string, unknown> {
  return {
    kind: 'edit_prediction',
    stage: input.stage,
    provider: input.provider.name,
    model: input.provider.endpoint?.model ?? null,
    example_keys: input.examples.map((example) => example.key),
  };
}

/**
 * The batch row of an edit-prediction batch, written by its workflow (as eval batches write
 * theirs), so the row ends even when the CLI that started the batch is gone. Both are upserts:
 * a retried attempt writes the same row again.
 */
export function epBatchRowActivities(deps: Pick<ActivityDeps, 'store'>) {
  return {
    async openEpBatch(input: EpBatchInput): Promise<void> {
      await deps.store.upsertBatch({ batch_id: input.batchId, spec: batchSpec(input), status: 'running', counts: {} });
    },
    async closeEpBatch({ input, status, counts }: EpBatchClose): Promise<void> {
      await deps.store.upsertBatch({ batch_id: input.batchId, spec: batchSpec(input), status, counts });
    },
  };
}
