import type { ReviewDecision } from '../vocabulary/reviewDecision.js';
import type { RunOutcome } from '../run/runOutcome.js';
import { recordReviewDecision } from '../run/runReview.js';
import type { ActivityDeps } from './deps.js';

export function reviewActivities(deps: ActivityDeps) {
  return {
    /**
     * A person's decision, sent to a run's waiting workflow, into the store: on the shared
     * queue, so the decision is kept even when the host with the run directory is gone by
     * the time the person decides. The run's files are rewritten by `recordRun` after it.
     */
    async recordReview({ runId, decision }: { runId: string; decision: ReviewDecision }): Promise<RunOutcome> {
      return recordReviewDecision(deps.store, runId, decision);
    },
  };
}
