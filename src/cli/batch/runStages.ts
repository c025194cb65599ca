import type { TemporalHandle } from '../../temporal/connection.js';
import { searchAttributes } from '../../temporal/names.js';

/**
 * The stage of each running run workflow of a batch, by run id, from one visibility list (the
 * EvalStage search attribute, so no worker needs to answer); null when Temporal did not answer
 * within `deadlineMs`. Visibility trails the workflows by about a second.
 */
export async function runStages(temporal: TemporalHandle, batchId: string, deadlineMs: number): Promise<Record<string, string> | null> {
  return temporal.client.connection
    .withDeadline(Date.now() + deadlineMs, async () => {
      const stages: Record<string, string> = {};
      for await (const execution of temporal.client.workflow.list({ query: `EvalBatch = ${JSON.stringify(batchId)} AND ExecutionStatus = "Running"` })) {
        const stage = execution.typedSearchAttributes.get(searchAttributes.stage);
        if (stage) stages[execution.workflowId] = stage;
      }
      return stages;
    })
    .catch(() => null);
}
