import { openStore, type Store } from '../../src/store/index.js';

/** Where a seeded run stands: batch `batch` (0 to 9) with id `batchId`, run `index` (from 0) in it. */
export interface SeedSlot {
  batch: number;
  batchId: string;
  index: number;
  /** The run's id for a case: the batch's stamp and the run's number in the batch. */
  runId(caseId: string): string;
}

/**
 * Fills a PGlite store in `dir` through the store's own API: 10 completed batches of `runs / 10`
 * runs each. `batchCreatedAt` dates each batch as it is written; `seedRun` writes each run (and
 * its verdict). `replicate` copies such a store, its last batch staying the size of the seed's.
 */
export async function seedHistory(dir: string, options: { runs: number; batchCreatedAt: () => string; seedRun: (store: Store, slot: SeedSlot) => Promise<void> }): Promise<void> {
  const store = await openStore({ pgliteDir: dir });
  try {
    for (let batch = 0; batch < 10; batch++) {
      const stamp = `202601${String(batch + 10)}T000000`;
      const batchId = `batch-${stamp}-seed00`;
      await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: options.batchCreatedAt() });
      for (let index = 0; index < options.runs / 10; index++) {
        await options.seedRun(store, { batch, batchId, index, runId: (caseId) => `run-${caseId}-cand@${stamp}-${index + 1}` });
      }
    }
  } finally {
    await store.close();
  }
}
