import { writeSummaries, type SummariesReport } from '../dashboard/writeSummaries.js';
import type { ActivityDeps } from './deps.js';
import type { Prices } from '../vocabulary/prices.js';

export function summarizeActivities(deps: ActivityDeps) {
  return {
    /** Rebuilds summaries/ from the store for the batch that just ended. */
    async summarizeBatch({ batchId, dir, prices }: { batchId: string; dir: string; prices: Prices }): Promise<SummariesReport> {
      return writeSummaries({ store: deps.store, summariesDir: dir, prices, batchId });
    },
  };
}
