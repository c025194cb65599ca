import type { Run, Store } from '../store/index.js';
import { ConfigError } from '../errors.js';
import type { TemporalHandle } from '../temporal/connection.js';

/** Executions looked at for one `--query`: enough for a screen, bounded for a huge namespace. */
const MAX_MATCHES = 1_000;

/**
 * `evalflow runs --query '…'`: the run workflows that a Temporal visibility query matches (the
 * same query the Web UI takes, e.g. `EvalBatch="batch-…" AND EvalResult="fail"`), newest
 * first, with their rows from the store. Runs that Temporal knows and the store does not are
 * named apart (another store, or a run that has not recorded itself yet).
 */
export async function runsMatching(temporal: TemporalHandle, store: Store, query: string, limit: number): Promise<{ runs: Run[]; notInStore: { runId: string; status: string }[] }> {
  const runs: Run[] = [];
  const notInStore: { runId: string; status: string }[] = [];
  const seen = new Set<string>();
  try {
    for await (const execution of temporal.client.workflow.list({ query: `WorkflowType = "evalRunWorkflow" AND (${query})`, pageSize: 100 })) {
      if (seen.has(execution.workflowId)) continue; // a resumed run has several executions
      seen.add(execution.workflowId);
      const row = await store.getRun(execution.workflowId);
      if (row) runs.push(row);
      else notInStore.push({ runId: execution.workflowId, status: execution.status.name });
      if (runs.length >= limit || seen.size >= MAX_MATCHES) break;
    }
  } catch (err) {
    if (isInvalidArgument(err)) throw new ConfigError(`--query: Temporal refused the visibility query ${JSON.stringify(query)}: ${(err as Error).message} (docs/temporal.md#ready-queries lists working ones)`);
    throw err;
  }
  return { runs, notInStore };
}

function isInvalidArgument(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === 3) return true;
  }
  return false;
}
