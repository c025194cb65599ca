import { WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import type { Settings } from '../../config.js';
import { StoreBusyError, TemporalUnreachableError } from '../../errors.js';
import { openStore, type Store } from '../../store/index.js';
import { connectTemporal, type TemporalHandle } from '../../temporal/connection.js';
import type { CommandIo } from '../io.js';
import { lookupStoreOptions } from '../storeOptions.js';

/**
 * What the commands that look a batch up (`status`, `cancel`, `show`) can reach: each of the
 * store and Temporal may be missing, with the reason in a sentence.
 */
export interface BatchSources {
  store: Store | null;
  /** Why there is no store: PGlite is open in another process (the one running the batch). */
  storeBusy: string | null;
  temporal: TemporalHandle | null;
  /** Why there is no Temporal: not running (local), or unreachable (TEMPORAL_ADDRESS). */
  temporalDown: TemporalUnreachableError | null;
  close(): Promise<void>;
}

/** Opens what can be opened; never starts a Temporal server. */
export async function openBatchSources(settings: Settings, io: CommandIo): Promise<BatchSources> {
  let store: Store | null = null;
  let storeBusy: string | null = null;
  try {
    store = await openStore(lookupStoreOptions(settings));
  } catch (err) {
    // The process holding the embedded store does not serve it (another host, or stuck).
    if (!(err instanceof StoreBusyError)) throw err;
    storeBusy = err.message;
  }
  let temporal: TemporalHandle | null = null;
  let temporalDown: TemporalUnreachableError | null = null;
  try {
    temporal = await connectTemporal(settings, (line) => io.err(line), { startEmbedded: false });
  } catch (err) {
    if (!(err instanceof TemporalUnreachableError)) {
      await store?.close();
      throw err;
    }
    temporalDown = err;
  }
  return {
    store,
    storeBusy,
    temporal,
    temporalDown,
    async close() {
      await temporal?.close();
      await store?.close();
    },
  };
}

/** The batch's workflow as Temporal describes it, or null when Temporal does not know it. */
export async function describeBatch(temporal: TemporalHandle, batchId: string): Promise<WorkflowExecutionDescription | null> {
  try {
    return await temporal.client.workflow.getHandle(batchId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** The newest batch: from the store, else from Temporal's visibility (when the store is busy). */
export async function newestBatchId(sources: BatchSources): Promise<string | null> {
  if (sources.store) return (await sources.store.listBatches({ limit: 1 }))[0]?.batch_id ?? null;
  if (!sources.temporal) return null;
  for await (const workflow of sources.temporal.client.workflow.list({ query: 'WorkflowType = "evalBatchWorkflow"', pageSize: 1 })) return workflow.workflowId;
  return null;
}

/** `error: no batch batch-x …; recent batches: …` for an id neither the store nor Temporal knows. */
export async function unknownBatchMessage(batchId: string, store: Store | null): Promise<string> {
  const recent = store ? (await store.listBatches({ limit: 5 })).map((b) => b.batch_id) : [];
  return `error: no batch ${batchId} in the store or in Temporal${recent.length ? `; recent batches: ${recent.join(', ')}` : ''} (\`evalflow batches\` lists them)`;
}

